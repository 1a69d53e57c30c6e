// Production pattern: side-specific code under the per-core-side macros a MIX kernel is compiled with
// (one binary per side). With --product each side is analysed with its own macros.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sided(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
#if defined(__DAV_C220_CUBE__)
    uint32_t core = get_block_idx();  // EXPECT: sk-forbidden-intrinsic
#endif
#if defined(__DAV_C220_VEC__)
    if (x == nullptr) {
        return;  // EXPECT: tasksync-once-per-path
    }
#endif
    AscendC::SetNextTaskStart();
}
