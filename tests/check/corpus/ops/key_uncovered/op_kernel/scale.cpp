// Seeded bug: the host tiling (../op_host/scale_tiling.cpp) sets TilingKey 3, and no TILING_KEY_IS branch
// takes it: that key's binary runs nothing and leaves y untouched.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y)  // EXPECT: sk-tiling-key-uncovered
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    if (TILING_KEY_IS(1)) {
        yGm.SetValue(0, 1.0f);
    } else if (TILING_KEY_IS(2)) {
        yGm.SetValue(0, 2.0f);
    }
}
