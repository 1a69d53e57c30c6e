// Production pattern (issue 24): the tiling-key template (normally the operator's *_tiling_key.h) selects
// two instantiations, FIRST=1/SECOND=0 and FIRST=0/SECOND=1, TILE in 2..3 or 4. The kernel tests the
// template arguments with plain `if`s: each instantiation waits exactly once, and TILE == 1 is in none.
// Read as run-time branches, FIRST=SECOND=0 (no wait), FIRST=SECOND=1 (two waits) and TILE=1 (an early
// return) would be paths, and three false errors.
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

#define TILE_WIDE 4

ASCENDC_TPL_ARGS_DECL(TplPaths, ASCENDC_TPL_BOOL_DECL(FIRST, 0, 1), ASCENDC_TPL_BOOL_DECL(SECOND, 0, 1),
                      ASCENDC_TPL_UINT_DECL(TILE, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_RANGE, 1, 0, 7));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(FIRST, 1), ASCENDC_TPL_BOOL_SEL(SECOND, 0),
                         ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_RANGE, 1, 2, 3)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(FIRST, 0), ASCENDC_TPL_BOOL_SEL(SECOND, 1),
                         ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_LIST, TILE_WIDE)));

template <bool FIRST, bool SECOND, uint32_t TILE>
__global__ __aicore__ void tpl_paths(GM_ADDR y)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if (TILE == 1) {
        return;
    }
    if (FIRST) {
        AscendC::WaitPreTaskEnd();
    }
    if (SECOND) {
        AscendC::WaitPreTaskEnd();
    }
    yGm.SetValue(0, 1.0f);
    AscendC::SetNextTaskStart();
}
