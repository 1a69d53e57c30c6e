// Host tiling of the seeded bug ../op_kernel/sum.cpp: the block dim follows the shape.
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t usedCoreNum = total < 4096 ? 1 : 8;
    context->SetBlockDim(usedCoreNum);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
