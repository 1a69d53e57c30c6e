// Correct twin: GetBlockIdx()/GetBlockNum(), and a tiling field that happens to be called block_num.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

struct Layout {
    uint32_t block_num;
};

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total)
    {
        tiles = total / TILE / AscendC::GetBlockNum();   // zero on a core with no work
        xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * tiles * TILE, tiles * TILE);
        yGm.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * tiles * TILE, tiles * TILE);
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(float));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::WaitPreTaskEnd();
        uint64_t me = AscendC::GetBlockIdx();
        uint64_t cores = layout.block_num + AscendC::GetBlockNum();
        for (uint32_t i = me; i < tiles * cores; i += cores) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
        AscendC::SetNextTaskStart();
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
        AscendC::DataCopy(t, xGm[i * TILE], TILE);
        inQueue.EnQue(t);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> t = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> o = outQueue.AllocTensor<float>();
        AscendC::Muls(o, t, 2.0f, TILE);
        outQueue.EnQue(o);
        inQueue.FreeTensor(t);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<float> o = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm[i * TILE], o, TILE);
        outQueue.FreeTensor(o);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t tiles = 0;
    Layout layout{};
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, uint32_t total)
{
    KernelScale op;
    op.Init(x, y, total);
    op.Process();
}
