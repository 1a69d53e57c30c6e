// Echo every scalar parameter type back through GM, so binding and trampolines are checked end to end.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void echo(__gm__ double* out, uint8_t a, int16_t b, uint32_t c, int64_t d,
                                           float e, half f, bfloat16_t g, bool h)
{
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::GlobalTensor<double> o;
    o.SetGlobalBuffer(out, 8);
    o.SetValue(0, a);
    o.SetValue(1, b);
    o.SetValue(2, c);
    o.SetValue(3, (double)d);
    o.SetValue(4, e);
    o.SetValue(5, (float)f);
    o.SetValue(6, (float)g);
    o.SetValue(7, h ? 1.0 : 0.0);
}

// A template kernel: launch it as "fill<N>".
template <uint32_t N>
__global__ __vector__ void fill(__gm__ int32_t* out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer(out);
    o.SetValue(AscendC::GetBlockIdx(), N * 100 + AscendC::GetBlockIdx());
}

// Writes each core's geometry: block idx, block num, sub-block idx, core kind (0 AIV, 1 AIC).
extern "C" __global__ __aicore__ void geometry(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out);
    int64_t slot = (ASCEND_IS_AIC ? 1000 : 0) + AscendC::GetBlockIdx();
    o.SetValue(slot * 4 + 0, AscendC::GetBlockIdx());
    o.SetValue(slot * 4 + 1, AscendC::GetBlockNum());
    o.SetValue(slot * 4 + 2, AscendC::GetSubBlockIdx());
    o.SetValue(slot * 4 + 3, ASCEND_IS_AIC ? 1 : 0);
}

// Branches on the tiling key the host set (Module.launch(..., tiling_key=k)).
extern "C" __global__ __aicore__ void keyed(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 1);
    if (TILING_KEY_IS(1)) {
        o.SetValue(0, 11);
    } else if (TILING_KEY_IS(2)) {
        o.SetValue(0, 22);
    } else {
        o.SetValue(0, -1);
    }
}
