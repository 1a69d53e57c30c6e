// Seeded bug (race): an in-place update x = x + 1 whose author processes the first tile before
// WaitPreTaskEnd, thinking x is host data. The previous task still reads x: the in-place write of the
// first tile overlaps those reads, a WAR race in the consumer prologue.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

__aicore__ inline void BumpTile(AscendC::GlobalTensor<float>& xGm, AscendC::TQue<AscendC::TPosition::VECIN, 1>& inQ,
                                AscendC::TQue<AscendC::TPosition::VECOUT, 1>& outQ, uint32_t off, uint32_t n)
{
    AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
    AscendC::DataCopy(xl, xGm[off], n);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
    AscendC::Adds(yl, xl, 1.0f, n);
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    AscendC::DataCopy(xGm[off], yl, n);
    outQ.FreeTensor(yl);
}

// x = x + 1, in place
extern "C" __global__ __aicore__ void bump_inplace(GM_ADDR x, uint32_t totalLength)
{
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    const uint32_t first = per < TILE ? per : TILE;
    BumpTile(xGm, inQ, outQ, 0, first);
    AscendC::WaitPreTaskEnd();                    // BUG: the first tile above already wrote x
    for (uint32_t off = first; off < per; off += TILE) {
        BumpTile(xGm, inQ, outQ, off, per - off < TILE ? per - off : TILE);
    }
    AscendC::SetNextTaskStart();
}
