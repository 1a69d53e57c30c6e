// Production pattern: the operator's source calls the pair (in the kernel below), so the SuperKernel
// compiler registers the whole operator as using task sync; the second kernel never calls them and every
// core of its task would leave the boundary waiting (the runtime reports SyncCountError / a hang).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void with_sync(GM_ADDR x)
{
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
}

extern "C" __global__ __aicore__ void without_sync(GM_ADDR x)  // EXPECT: tasksync-op-wide tasksync-op-wide
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
}
