// Host tiling of the seeded bug ../op_kernel/scale.cpp: it sets TilingKey 3 for the tail case, which the
// kernel has no branch for.
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint64_t KEY_FP16 = 1;
constexpr uint64_t KEY_FP32 = 2;
constexpr uint64_t KEY_TAIL = 3;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto dtype = context->GetInputDesc(0)->GetDataType();
    if (context->GetInputShape(0)->GetStorageShape().GetShapeSize() < 32) {
        context->SetTilingKey(KEY_TAIL);
    } else if (dtype == ge::DT_FLOAT16) {
        context->SetTilingKey(KEY_FP16);
    } else {
        context->SetTilingKey(2);
    }
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
