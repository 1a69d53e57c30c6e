// z = Relu(x + y) over float32, tiles of TILE elements split across blocks, double buffered.
// Hand-written in the conventional TPipe/TQue style; used by the launch tests and the benchmark.
#include "kernel_operator.h"

constexpr uint32_t TILE = 4096;
constexpr int32_t BUFFER_NUM = 2;

class KernelAddRelu {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total)
    {
        uint32_t blocks = AscendC::GetBlockNum();
        uint32_t tiles = (total + TILE - 1) / TILE;
        uint32_t per = tiles / blocks, extra = tiles % blocks, idx = AscendC::GetBlockIdx();
        firstTile = idx * per + (idx < extra ? idx : extra);
        tileCount = per + (idx < extra ? 1 : 0);
        totalLength = total;
        xGm.SetGlobalBuffer((__gm__ float*)x, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);
        zGm.SetGlobalBuffer((__gm__ float*)z, total);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE * sizeof(float));
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tileCount; ++t) {
            uint32_t start = (firstTile + t) * TILE;
            uint32_t n = totalLength - start < TILE ? totalLength - start : TILE;
            CopyIn(start, n);
            Compute(n);
            CopyOut(start, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t start, uint32_t n)
    {
        AscendC::LocalTensor<float> x = inX.AllocTensor<float>();
        AscendC::LocalTensor<float> y = inY.AllocTensor<float>();
        AscendC::DataCopyPad(x, xGm[start], {1, n * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
        AscendC::DataCopyPad(y, yGm[start], {1, n * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> x = inX.DeQue<float>();
        AscendC::LocalTensor<float> y = inY.DeQue<float>();
        AscendC::LocalTensor<float> z = outZ.AllocTensor<float>();
        AscendC::Add(z, x, y, n);
        AscendC::Relu(z, z, n);
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t start, uint32_t n)
    {
        AscendC::LocalTensor<float> z = outZ.DeQue<float>();
        AscendC::DataCopyPad(zGm[start], z, {1, n * (uint32_t)sizeof(float), 0, 0, 0});
        outZ.FreeTensor(z);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t firstTile = 0, tileCount = 0, totalLength = 0;
};

extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KernelAddRelu op;
    op.Init(x, y, z, totalLength);
    op.Process();
}
