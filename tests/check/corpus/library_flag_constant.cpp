// Production pattern: a cross-core handshake on the library's named flag SYNC_AIC_FLAG (= 11, declared by
// the CANN headers) in a kernel that uses task sync: flag 11 carries the SuperKernel boundary.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void handshake(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
    if ASCEND_IS_AIC {
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_FLAG);  // EXPECT: tasksync-flag-alias
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(SYNC_AIV_ONLY_ALL);  // EXPECT: tasksync-flag-alias
    }
    AscendC::SetNextTaskStart();
}
