// The twin of tpl_instances_ok.cpp with a third selection group, FIRST=SECOND=0 with TILE 1 or 5 (a UI_MIX:
// the range 5..5 plus the value 1). With TILE 1 the instantiation returns before the pair: it never calls
// either (reported at the entry, naming it); with TILE 5 it never waits. Each finding names the
// instantiations it holds for. (Read as run-time branches, the false errors of the twin came back and
// the TILE=5 instantiation's missing wait was one path among them.)
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

#define TILE_WIDE 4

ASCENDC_TPL_ARGS_DECL(TplPaths, ASCENDC_TPL_BOOL_DECL(FIRST, 0, 1), ASCENDC_TPL_BOOL_DECL(SECOND, 0, 1),
                      ASCENDC_TPL_UINT_DECL(TILE, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_RANGE, 1, 0, 7));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(FIRST, 1), ASCENDC_TPL_BOOL_SEL(SECOND, 0),
                         ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_RANGE, 1, 2, 3)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(FIRST, 0), ASCENDC_TPL_BOOL_SEL(SECOND, 1),
                         ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_LIST, TILE_WIDE)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(FIRST, 0), ASCENDC_TPL_BOOL_SEL(SECOND, 0),
                         ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_MIX, 1, 5, 5, 1)));

template <bool FIRST, bool SECOND, uint32_t TILE>
__global__ __aicore__ void tpl_paths(GM_ADDR y)  // EXPECT: tasksync-every-variant tasksync-every-variant
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
