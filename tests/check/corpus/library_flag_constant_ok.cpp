// Clean twin of library_flag_constant.cpp: the handshake uses flag ids below 11.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

constexpr uint16_t HANDSHAKE_FLAG = 3;

extern "C" __global__ __aicore__ void handshake(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
    if ASCEND_IS_AIC {
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(HANDSHAKE_FLAG);
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(HANDSHAKE_FLAG);
    }
    AscendC::SetNextTaskStart();
}
