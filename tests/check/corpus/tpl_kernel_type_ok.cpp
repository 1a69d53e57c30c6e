// Production pattern (issue 24): each selection group of the tiling-key template fixes the kernel type
// of its instantiation (ASCENDC_TPL_KERNEL_TYPE_SEL). MODE 0 is built vector-only, so its cube-side early
// return is dead code; MODE 1 runs MIX on both core types and both call the pair. Analysed with the union
// of the kernel types, the MODE 0 return on a cube core was a path (two false errors).
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TplMix, ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 1, 2));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_MIX_AIC_1_1),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 1)));

template <uint32_t MODE>
__global__ __aicore__ void tpl_mix(GM_ADDR y)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if ASCEND_IS_AIC {
        if constexpr (MODE == 0) {
            return;
        }
    }
    if constexpr (MODE == 0 || MODE == 1) {
        AscendC::WaitPreTaskEnd();
        yGm.SetValue(0, 1.0f);
        AscendC::SetNextTaskStart();
    }
}
