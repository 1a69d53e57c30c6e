// The twin of tpl_kernel_type_ok.cpp with MODE 0 built MIX 1:1 and a MODE 2 instantiation: MODE 0's cube
// cores now return before the pair (reported for that instantiation only), and MODE 2 selects no branch
// of the `if constexpr`, so it never calls the pair (read as one kernel, "nothing selected" was dropped as
// no configuration's path, and the MODE 2 binary was missed).
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TplMix, ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 1, 2));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_MIX_AIC_1_1),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 2)));

template <uint32_t MODE>
__global__ __aicore__ void tpl_mix(GM_ADDR y)  // EXPECT: tasksync-every-variant tasksync-every-variant
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if ASCEND_IS_AIC {
        if constexpr (MODE == 0) {
            return;  // EXPECT: tasksync-once-per-path tasksync-once-per-path
        }
    }
    if constexpr (MODE == 0 || MODE == 1) {
        AscendC::WaitPreTaskEnd();
        yGm.SetValue(0, 1.0f);
        AscendC::SetNextTaskStart();
    }
}
