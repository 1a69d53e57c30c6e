// Host tiling of the clean twin ../op_kernel/sum.cpp: the block dim is every vector core of the platform.
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    context->SetBlockDim(coreNum);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
