// Seeded bug: the host tiling (../op_host/pad_tiling.cpp) builds the template tiling key of MODE 2
// (reflect), which the selection in pad_tiling_key.h never instantiates: no binary exists for it.
#include "kernel_operator.h"
#include "pad_tiling_key.h"

template <uint32_t MODE, bool ALIGNED>
__global__ __aicore__ void pad(GM_ADDR x, GM_ADDR y)  // EXPECT: sk-tiling-key-uncovered
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    yGm.SetValue(0, static_cast<float>(MODE));
}
