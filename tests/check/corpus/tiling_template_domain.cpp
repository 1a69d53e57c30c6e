// Production pattern: the tiling-key template selects MODE 1 or 2 only (ASCENDC_TPL_UINT_SEL, normally in
// the operator's *_tiling_key.h), and the kernel tests MODE with a run-time `if` after an `if constexpr`:
// "MODE is neither 1 nor 2" is no build's path. The real defect (an early return before the set) is.
#include "kernel_operator.h"

#define MODE_1 1
#define MODE_2 2
#define KERNEL_TEMPLATE_SELECTION \
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, MODE_1, MODE_2))

template <int MODE>
__global__ __aicore__ void modal(GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if constexpr (MODE == MODE_1) {
        AscendC::WaitPreTaskEnd();
        yGm.SetValue(0, 1.0f);
        AscendC::SetNextTaskStart();
    } else if (MODE == MODE_2) {
        AscendC::WaitPreTaskEnd();
        if (n == 0) {
            return;  // EXPECT: tasksync-once-per-path
        }
        yGm.SetValue(1, 1.0f);
        AscendC::SetNextTaskStart();
    }
}
