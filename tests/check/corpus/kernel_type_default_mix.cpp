// Production pattern: KERNEL_TASK_TYPE_DEFAULT says MIX although no cube API name is written here (the
// cube work is in a library header): the vector early return skips the pair on AIV cores.
#include "kernel_operator.h"

__aicore__ inline void SetKernelType() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }

extern "C" __global__ __aicore__ void fused(GM_ADDR x)
{
    SetKernelType();
    if ASCEND_IS_AIV {
        return;  // EXPECT: tasksync-once-per-path tasksync-once-per-path
    }
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
}
