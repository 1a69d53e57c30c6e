// Clean twin of sk_pipe_destroy_barrier.cpp: a PipeBarrier<PIPE_ALL> after the first Destroy orders
// phase one's last writes before phase two's reads; the last Destroy ends the task (the SuperKernel
// syncs the pipes between tasks itself).
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
        first.Destroy();
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    AscendC::TPipe second;
    Phase(second, work, y);
    second.Destroy();
}

// Production pattern: the vector side destroys its pipe last; the cube side's work is the other arm of
// the caller's core-type test, not work after the Destroy.
__aicore__ inline void VectorSide(AscendC::TPipe& pipe, GM_ADDR x, GM_ADDR y)
{
    Phase(pipe, x, y);
    pipe.Destroy();
}

extern "C" __global__ __aicore__ void sides(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    if ASCEND_IS_AIV {
        VectorSide(pipe, x, y);
    } else {
        Phase(pipe, y, x);
    }
}

// Production pattern: each TilingKey branch destroys its pipe last; the next branch's work is no
// work after it.
extern "C" __global__ __aicore__ void by_key(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    if (TILING_KEY_IS(1)) {
        Phase(pipe, x, y);
        pipe.Destroy();
    } else if (TILING_KEY_IS(2)) {
        Phase(pipe, y, x);
        pipe.Destroy();
    }
}
