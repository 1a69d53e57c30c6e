// A kernel a macro defines is invisible to ascgen's source analysis (it reads the source with the macros
// unexpanded), so it has no inferred type. ICPU_RUN_KF without SetKernelMode then runs it as CANN's CPU-debug
// launcher does by default: MIX 1:2 (asc-tools cpudebug stub_base.cpp, g_kernelMode = MIX_MODE). ops-nn
// fused_patch_mlp's UT defines its AIC-only test kernels this way; run on AIV cores only they returned at
// once, wrote nothing, and two of their comparisons passed on all-zero outputs.
#include <cstdio>
#include "tikicpulib.h"
#include "kernel_operator.h"

#define DEFINE_CORE_COUNTER(NAME, SLOT)                                              \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR out)                         \
    {                                                                                \
        AscendC::GlobalTensor<int32_t> o;                                            \
        o.SetGlobalBuffer((__gm__ int32_t*)out, 64);                                 \
        if ASCEND_IS_AIC {                                                           \
            o.SetValue(SLOT + AscendC::GetBlockIdx(), 1);                            \
        }                                                                            \
        if ASCEND_IS_AIV {                                                           \
            o.SetValue(SLOT + 16 + AscendC::GetBlockIdx(), 2);                       \
        }                                                                            \
    }

DEFINE_CORE_COUNTER(count_cores, 0)

int main()
{
    const int blocks = 2;
    int32_t* out = (int32_t*)AscendC::GmAlloc(64 * sizeof(int32_t));
    ICPU_RUN_KF(count_cores, blocks, (GM_ADDR)out);
    int aic = 0, aiv = 0;
    for (int i = 0; i < 16; ++i) aic += out[i] == 1;
    for (int i = 16; i < 48; ++i) aiv += out[i] == 2;
    std::printf("aic %d aiv %d\n", aic, aiv);
    AscendC::GmFree(out);
    return 0;
}
