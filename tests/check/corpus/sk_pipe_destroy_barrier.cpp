// Seeded bug: two phases with a TPipe each; the second reads the workspace the first wrote. In a
// SuperKernel build TPipe::Destroy drops its closing PipeBarrier<PIPE_ALL>, so nothing orders phase
// one's last MTE3 writes before phase two's MTE2 reads.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

__aicore__ inline void Phase(AscendC::TPipe& pipe, GM_ADDR src, GM_ADDR dst)
{
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, TILE * sizeof(float));
    AscendC::GlobalTensor<float> srcGm;
    AscendC::GlobalTensor<float> dstGm;
    srcGm.SetGlobalBuffer((__gm__ float*)src, TILE);
    dstGm.SetGlobalBuffer((__gm__ float*)dst, TILE);
    AscendC::LocalTensor<float> t = que.AllocTensor<float>();
    AscendC::DataCopy(t, srcGm, TILE);
    que.EnQue(t);
    t = que.DeQue<float>();
    AscendC::DataCopy(dstGm, t, TILE);
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void two_phases(GM_ADDR x, GM_ADDR work, GM_ADDR y)
{
    {
        AscendC::TPipe first;
        Phase(first, x, work);
        first.Destroy();  // EXPECT: sk-pipe-destroy-barrier
    }
    AscendC::TPipe second;
    Phase(second, work, y);
    second.Destroy();
}
