// Clean twin of sk_syncall_fewer_cores.cpp: the cores past the count still leave early, but the sync is
// the software SyncAll over the cores actually used (GM workspace counting), which a SuperKernel's
// extra cores do not take part in; the mode-2 flag pair is a pairwise AIC/AIV handshake, not full-core.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void partial_cores(GM_ADDR x, GM_ADDR sync, uint32_t usedCoreNum)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t*)sync, 256);
    uint32_t blockIdx = AscendC::GetBlockIdx();
    if (blockIdx >= usedCoreNum) {
        return;
    }
    AscendC::LocalTensor<int32_t> ub = buf.Get<int32_t>();
    AscendC::SyncAll(syncGm, ub, usedCoreNum);
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(5);
    AscendC::CrossCoreWaitFlag(5);
}
