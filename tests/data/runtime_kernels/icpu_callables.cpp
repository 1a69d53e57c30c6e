// ICPU_RUN_KF with the callables operator-repository UTs pass: a capture-less lambda wrapping a kernel
// template instance (their `auto kernel = [](GM_ADDR ...) { op<T>(...); };`), a template instance itself,
// and lambdas that capture, by value (`[mode](GM_ADDR ...) { if (mode == ...) op<A>(...); else ... }`) and by
// reference, named or written in place.
#include <cstdio>
#include "tikicpulib.h"
#include "kernel_operator.h"

template <uint32_t SCALE>
__global__ __aicore__ void scale_k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum()) yg.SetValue(i, SCALE * xg.GetValue(i));
}

int main()
{
    const uint32_t n = 64;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) x[i] = float(i);
    auto kernel = [](GM_ADDR a, GM_ADDR b, uint32_t m) { scale_k<3>(a, b, m); };
    ICPU_RUN_KF(kernel, 4, (GM_ADDR)x, (GM_ADDR)y, n);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += y[i] != 3.0f * i;
    ICPU_RUN_KF(scale_k<2>, 2, (GM_ADDR)x, (GM_ADDR)y, n);
    for (uint32_t i = 0; i < n; ++i) bad += y[i] != 2.0f * i;
    int mode = 5;
    auto by_value = [mode](GM_ADDR a, GM_ADDR b, uint32_t m) {
        if (mode == 5) scale_k<5>(a, b, m); else scale_k<1>(a, b, m);
    };
    ICPU_RUN_KF(by_value, 4, (GM_ADDR)x, (GM_ADDR)y, n);
    for (uint32_t i = 0; i < n; ++i) bad += y[i] != 5.0f * i;
    uint32_t half = n / 2;
    ICPU_RUN_KF([&](GM_ADDR a, GM_ADDR b) { scale_k<7>(a, b, half); }, 3, (GM_ADDR)x, (GM_ADDR)y);
    for (uint32_t i = 0; i < n; ++i) bad += y[i] != (i < half ? 7.0f : 5.0f) * i;
    std::printf("bad %d\n", bad);
    AscendC::GmFree(x); AscendC::GmFree(y);
    return bad;
}
