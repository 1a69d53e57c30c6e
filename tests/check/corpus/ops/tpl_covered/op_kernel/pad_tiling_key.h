// The template arguments of ../pad.cpp and the instantiations the op compiler builds.
#include "ascendc/host_api/tiling/template_argument.h"

#define PAD_MODE_CONST 0
#define PAD_MODE_EDGE 1
#define PAD_MODE_REFLECT 2

ASCENDC_TPL_ARGS_DECL(Pad, ASCENDC_TPL_UINT_DECL(MODE, 2, ASCENDC_TPL_UI_LIST, 0, 1, 2),
                      ASCENDC_TPL_BOOL_DECL(ALIGNED, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, PAD_MODE_CONST, PAD_MODE_EDGE,
                                                           PAD_MODE_REFLECT),
                                     ASCENDC_TPL_BOOL_SEL(ALIGNED, 0, 1)));
