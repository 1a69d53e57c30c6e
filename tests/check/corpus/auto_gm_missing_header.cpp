// Production pattern: the output tensor comes from a helper of the operator's own header, which is not
// found here (an include path the build adds), and is declared `auto`: its type is unknown to clang.
// The zero-fill through it still writes GM before the wait, which a neighbouring task may be reading.
#include "kernel_operator.h"
#include "op_common/tensor_utils.h"

extern "C" __global__ __aicore__ void fill(GM_ADDR y, GM_ADDR workspace)
{
    auto yGm = OpCommon::MakeGlobal<float>(y, 256);
    auto scratch = OpCommon::MakeGlobal<float>(workspace, 64);
    auto count = OpCommon::TileCount(y);
    yGm.SetValue(0, 0.0f);  // EXPECT: tasksync-gm-before-wait
    AscendC::WaitPreTaskEnd();
    scratch.SetValue(1, static_cast<float>(count));
    AscendC::SetNextTaskStart();
}
