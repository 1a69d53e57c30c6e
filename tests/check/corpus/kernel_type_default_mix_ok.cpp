// Clean twin of kernel_type_default_mix.cpp: a vector-only kernel type makes the AIC branch dead code.
#include "kernel_operator.h"

__aicore__ inline void SetKernelType() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }

extern "C" __global__ __aicore__ void fused(GM_ADDR x)
{
    SetKernelType();
    if ASCEND_IS_AIC {
        return;
    }
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
}
