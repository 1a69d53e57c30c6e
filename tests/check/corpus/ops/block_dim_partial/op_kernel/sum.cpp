// Seeded bug: the host tiling (../op_host/sum_tiling.cpp) launches this kernel on a shape-dependent
// number of cores, and it makes a hardware SyncAll: in a SuperKernel launched on more cores, the extra
// cores never arrive.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sum(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    AscendC::SyncAll();  // EXPECT: sk-syncall-fewer-cores
}
