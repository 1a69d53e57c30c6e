// Seeded bug for `ascgen sk` (tests/e2e/test_sk_cli.py): WaitPreTaskEnd is skipped on core 0, which then
// reads x while the previous task may still write it.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;   // float elements per tile

// y = 2 * x
extern "C" __global__ __aicore__ void scale_nowait0(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + per * AscendC::GetBlockIdx(), per);
    yGm.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    if (AscendC::GetBlockIdx() != 0) {
        AscendC::WaitPreTaskEnd();               // BUG: core 0 never waits
    }
    for (uint32_t off = 0; off < per; off += TILE) {
        const uint32_t n = per - off < TILE ? per - off : TILE;
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopy(xl, xGm[off], n);
        inQ.EnQue(xl);
        xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Muls(yl, xl, 2.0f, n);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<float>();
        AscendC::DataCopy(yGm[off], yl, n);
        outQ.FreeTensor(yl);
    }
    AscendC::SetNextTaskStart();
}
