// Correct SuperKernel tasks shared by the seeded-bug suite (tests/superkernel/test_bugs.py).
// Each kernel splits totalLength evenly over GetBlockNum() cores and walks its slice in tiles, with the
// task-sync calls where the documentation wants them: the wait before the first GM read of data a
// previous task may write, the set after the last GM write.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;   // float elements per tile (1 KB, a multiple of 32 B)

// y = 2 * x
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
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

// z = y + 1
extern "C" __global__ __aicore__ void shift(GM_ADDR y, GM_ADDR z, uint32_t totalLength)
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
    AscendC::WaitPreTaskEnd();
    for (uint32_t off = 0; off < per; off += TILE) {
        const uint32_t n = per - off < TILE ? per - off : TILE;
        AscendC::LocalTensor<float> yl = inQ.AllocTensor<float>();
        AscendC::DataCopy(yl, yGm[off], n);
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

// z = y + w, where w is written by the host (weights), never by a task: its first tile is loaded before
// WaitPreTaskEnd so the load overlaps the previous task. Correct: no race may be reported.
extern "C" __global__ __aicore__ void prefetch_add(GM_ADDR y, GM_ADDR w, GM_ADDR z, uint32_t totalLength)
{
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> yGm, wGm, zGm;
    yGm.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    wGm.SetGlobalBuffer((__gm__ float*)w + per * AscendC::GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> yQ, wQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(yQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(wQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    const uint32_t first = per < TILE ? per : TILE;
    AscendC::LocalTensor<float> wl = wQ.AllocTensor<float>();
    AscendC::DataCopy(wl, wGm[0], first);          // prefetch: w is not written by any task
    wQ.EnQue(wl);
    AscendC::WaitPreTaskEnd();
    for (uint32_t off = 0; off < per; off += TILE) {
        const uint32_t n = per - off < TILE ? per - off : TILE;
        if (off != 0) {
            wl = wQ.AllocTensor<float>();
            AscendC::DataCopy(wl, wGm[off], n);
            wQ.EnQue(wl);
        }
        AscendC::LocalTensor<float> yl = yQ.AllocTensor<float>();
        AscendC::DataCopy(yl, yGm[off], n);
        yQ.EnQue(yl);
        yl = yQ.DeQue<float>();
        wl = wQ.DeQue<float>();
        AscendC::LocalTensor<float> zl = outQ.AllocTensor<float>();
        AscendC::Add(zl, yl, wl, n);
        outQ.EnQue(zl);
        yQ.FreeTensor(yl);
        wQ.FreeTensor(wl);
        zl = outQ.DeQue<float>();
        AscendC::DataCopy(zGm[off], zl, n);
        outQ.FreeTensor(zl);
    }
    AscendC::SetNextTaskStart();
}
