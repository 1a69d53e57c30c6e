// Clean twin of auto_gm_missing_header.cpp: the zero-fill through the untyped tensor comes after the wait.
#include "kernel_operator.h"
#include "op_common/tensor_utils.h"

extern "C" __global__ __aicore__ void fill(GM_ADDR y, GM_ADDR workspace)
{
    auto yGm = OpCommon::MakeGlobal<float>(y, 256);
    auto scratch = OpCommon::MakeGlobal<float>(workspace, 64);
    auto count = OpCommon::TileCount(y);
    AscendC::WaitPreTaskEnd();
    yGm.SetValue(0, 0.0f);
    scratch.SetValue(1, static_cast<float>(count));
    AscendC::SetNextTaskStart();
}
