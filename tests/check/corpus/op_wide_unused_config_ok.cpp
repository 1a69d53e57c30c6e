// Clean twin of op_wide_unused_config.cpp: both kernels call the pair.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void with_sync(GM_ADDR x)
{
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
}

extern "C" __global__ __aicore__ void also_sync(GM_ADDR x)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::WaitPreTaskEnd();
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    AscendC::SetNextTaskStart();
}
