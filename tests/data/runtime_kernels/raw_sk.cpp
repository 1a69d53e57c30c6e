// A SuperKernel producer that writes its output through a raw GM pointer after SetNextTaskStart: the next
// task (sk_bugs/good.cpp shift) may already read it. Only raw-pointer race detection can see it
// (ASCGEN_RAW_GM_RACES=1, runtime/core/raw_gm.cpp); the checker warns (tests/check/test_raw_gm.py).
#include "kernel_operator.h"

// y = 2 * x, each core on its slice, written element by element after the set.
extern "C" __global__ __aicore__ void raw_scale_late(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    __gm__ float* src = (__gm__ float*)x + per * AscendC::GetBlockIdx();
    __gm__ float* dst = (__gm__ float*)y + per * AscendC::GetBlockIdx();
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
    for (uint32_t i = 0; i < per; ++i) {
        dst[i] = src[i] * 2.0f;  // RAW:late_write
    }
}
