// Seeded bug: the cores past the tiling's count leave early, so the kernel may run on fewer cores than a
// SuperKernel launches (the largest count of its sub-kernels); its full-core hard syncs then wait for
// cores that never arrive. Hardware SyncAll is a warning (the feed-sync-all option rescues it), a
// full-core CrossCoreSetFlag (mode 0) an error.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void partial_cores(GM_ADDR x, uint32_t usedCoreNum)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    uint32_t blockIdx = AscendC::GetBlockIdx();
    if (blockIdx >= usedCoreNum) {
        return;
    }
    AscendC::SyncAll();  // EXPECT: sk-syncall-fewer-cores
    AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(5);  // EXPECT: sk-syncall-fewer-cores
    AscendC::CrossCoreWaitFlag(5);
}
