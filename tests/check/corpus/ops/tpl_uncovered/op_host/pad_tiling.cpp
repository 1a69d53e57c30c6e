// Host tiling of the seeded bug ../op_kernel/pad.cpp: the reflect mode's key is not selected there.
#include "register/op_def_registry.h"
#include "../op_kernel/pad_tiling_key.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    bool aligned = context->GetInputShape(0)->GetStorageShape().GetDim(1) % 8 == 0;
    uint32_t mode = *context->GetAttrs()->GetAttrPointer<uint32_t>(0);
    if (mode == 0) {
        context->SetTilingKey(GET_TPL_TILING_KEY(PAD_MODE_CONST, aligned));
    } else if (mode == 1) {
        context->SetTilingKey(GET_TPL_TILING_KEY(PAD_MODE_EDGE, aligned));
    } else {
        context->SetTilingKey(GET_TPL_TILING_KEY(PAD_MODE_REFLECT, aligned));
    }
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
