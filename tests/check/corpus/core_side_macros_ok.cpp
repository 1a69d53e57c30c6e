// Clean twin of core_side_macros.cpp.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sided(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
#if defined(__DAV_C220_CUBE__)
    uint32_t core = AscendC::GetBlockIdx();
#endif
#if defined(__DAV_C220_VEC__)
    if (x == nullptr) {
        AscendC::SetNextTaskStart();
        return;
    }
#endif
    AscendC::SetNextTaskStart();
}
