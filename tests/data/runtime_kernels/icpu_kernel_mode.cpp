// ICPU_RUN_KF runs with the mode AscendC::SetKernelMode set last, as CANN's CPU-debug launcher does. The
// launched callable is a lambda wrapper (operator-repository UTs: `auto k = [](...) { op<1, 2>(...); };`),
// which has no kernel type of its own: the cube core of each block tells its two vector cores (flag 6, mode 2)
// that its row is written; the vector cores wait for it, then copy it. Run as AIV only (the mode ignored),
// the vector cores waited for a cube that was never launched.
#include <cstdio>
#include "tikicpulib.h"
#include "kernel_operator.h"

template <int ROWS>
__global__ __aicore__ void handshake(GM_ADDR rows, GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> r, o;
    r.SetGlobalBuffer((__gm__ int32_t*)rows, 64);
    o.SetGlobalBuffer((__gm__ int32_t*)out, 64);
    if ASCEND_IS_AIC {
        r.SetValue(AscendC::GetBlockIdx(), 100 + AscendC::GetBlockIdx());
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(6);
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(6);
        const int block = AscendC::GetBlockIdx() / 2;
        o.SetValue(AscendC::GetBlockIdx(), r.GetValue(block) + ROWS * AscendC::GetSubBlockIdx());
    }
}

int main()
{
    const int blocks = 3;
    int32_t* rows = (int32_t*)AscendC::GmAlloc(64 * sizeof(int32_t));
    int32_t* out = (int32_t*)AscendC::GmAlloc(64 * sizeof(int32_t));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    auto wrapper = [](GM_ADDR a, GM_ADDR b) { handshake<1000>(a, b); };
    ICPU_RUN_KF(wrapper, blocks, (GM_ADDR)rows, (GM_ADDR)out);
    int bad = 0;
    for (int v = 0; v < 2 * blocks; ++v) bad += out[v] != 100 + v / 2 + 1000 * (v % 2);
    std::printf("bad %d\n", bad);
    AscendC::GmFree(rows); AscendC::GmFree(out);
    return bad;
}
