// Production pattern: side-specific code under the 3510 per-core-side macros, checked without --product:
// the side macros the code tests say which arch compiles it per side, and each side is its own build.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sided3510(GM_ADDR x, uint32_t rows)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
#ifdef __DAV_C310_VEC__
    if (rows == 0) {
        return;  // EXPECT: tasksync-once-per-path tasksync-once-per-path
    }
#endif
    AscendC::WaitPreTaskEnd();
#if defined(__DAV_C310_CUBE__) && __NPU_ARCH__ == 3510
    rows = rows / get_block_num();  // EXPECT: sk-forbidden-intrinsic
#endif
    AscendC::SetNextTaskStart();
}
