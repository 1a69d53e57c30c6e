// Seeded bug (race): SetNextTaskStart is called after the loop over full tiles, but the tail tile is
// written after it. The tail write overlaps the next task, which reads y: a RAW race in the producer tail.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

__aicore__ inline void ScaleTile(AscendC::GlobalTensor<float>& xGm, AscendC::GlobalTensor<float>& yGm,
                                 AscendC::TQue<AscendC::TPosition::VECIN, 1>& inQ,
                                 AscendC::TQue<AscendC::TPosition::VECOUT, 1>& outQ, uint32_t off, uint32_t n)
{
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

// y = 2 * x
extern "C" __global__ __aicore__ void scale_tail(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
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
    AscendC::WaitPreTaskEnd();
    const uint32_t full = per / TILE * TILE;
    for (uint32_t off = 0; off < full; off += TILE) {
        ScaleTile(xGm, yGm, inQ, outQ, off, TILE);
    }
    AscendC::SetNextTaskStart();                  // BUG: the tail tile below still writes y
    if (per > full) {
        ScaleTile(xGm, yGm, inQ, outQ, full, per - full);
    }
}
