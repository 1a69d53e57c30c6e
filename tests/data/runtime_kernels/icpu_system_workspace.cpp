// Every ICPU_RUN_KF launch gets a system workspace, as CANN's CPU-debug launcher gives one to every launch
// (g_sysWorkspaceReserved), whatever the kernel's parameters are named and whether the callable is the kernel
// or a lambda wrapping it. Operator kernels return at once when GetSysWorkSpacePtr() is null (ops-nn
// foreach_norm): without one they ran nothing and their outputs stayed as the test filled them.
#include <cstdio>
#include "tikicpulib.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void unnamed_scratch(GM_ADDR out, GM_ADDR scratch)
{
    if (GetSysWorkSpacePtr() == nullptr) return;
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    o.SetValue(AscendC::GetBlockIdx(), 10 + AscendC::GetBlockIdx());
}

__global__ __aicore__ void named_workspace(GM_ADDR out, GM_ADDR workspace)
{
    if (GetSysWorkSpacePtr() == nullptr) return;
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    o.SetValue(4 + AscendC::GetBlockIdx(), 20 + AscendC::GetBlockIdx());
}

int main()
{
    int32_t* out = (int32_t*)AscendC::GmAlloc(8 * sizeof(int32_t));
    uint8_t* scratch = (uint8_t*)AscendC::GmAlloc(64);
    for (int i = 0; i < 8; ++i) out[i] = -1;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(unnamed_scratch, 2, (GM_ADDR)out, (GM_ADDR)scratch);
    auto wrapper = [](GM_ADDR o, GM_ADDR w) { named_workspace(o, w); };
    ICPU_RUN_KF(wrapper, 2, (GM_ADDR)out, (GM_ADDR)scratch);
    int written = 0;
    for (int i = 0; i < 2; ++i) written += (out[i] == 10 + i) + (out[4 + i] == 20 + i);
    std::printf("written %d of 4\n", written);
    AscendC::GmFree(out); AscendC::GmFree(scratch);
    return written == 4 ? 0 : 1;
}
