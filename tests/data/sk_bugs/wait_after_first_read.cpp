// Seeded bug (race): the consumer loads its first tile of y, written by the previous task, before
// WaitPreTaskEnd. The load overlaps the producer: a RAW race in the consumer prologue.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

// z = y + 1
extern "C" __global__ __aicore__ void shift_early(GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> yGm, zGm;
    yGm.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    for (uint32_t off = 0; off < per; off += TILE) {
        const uint32_t n = per - off < TILE ? per - off : TILE;
        AscendC::LocalTensor<float> yl = inQ.AllocTensor<float>();
        AscendC::DataCopy(yl, yGm[off], n);
        if (off == 0) {
            AscendC::WaitPreTaskEnd();            // BUG: the first load above already read y
        }
        inQ.EnQue(yl);
        yl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> zl = outQ.AllocTensor<float>();
        AscendC::Adds(zl, yl, 1.0f, n);
        outQ.EnQue(zl);
        inQ.FreeTensor(yl);
        zl = outQ.DeQue<float>();
        AscendC::DataCopy(zGm[off], zl, n);
        outQ.FreeTensor(zl);
    }
    AscendC::SetNextTaskStart();
}
