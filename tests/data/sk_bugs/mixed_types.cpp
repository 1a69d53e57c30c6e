// Clean case: three tasks of different kernel types with correct calls, AIV-only -> AIC-only -> MIX 1:2.
// out = (2 * x) + 1, passing through a cube-core copy in the middle. No race, no hang, exact results.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

// y = 2 * x on vector cores
extern "C" __global__ __aicore__ void vec_scale(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
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

// z = y on cube cores, by scalar GM reads and writes (the set fires on the default AIC pipe, FIX).
extern "C" __global__ __aicore__ void cube_copy(GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> yGm, zGm;
    yGm.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
    AscendC::WaitPreTaskEnd();
    for (uint32_t i = 0; i < per; ++i) {
        zGm.SetValue(i, yGm.GetValue(i));
    }
    AscendC::SetNextTaskStart();
}

// out = z + 1: the vector cores of each group split the block's slice; the cube core only syncs.
extern "C" __global__ __aicore__ void mix_shift(GM_ADDR z, GM_ADDR out, uint32_t totalLength)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
    if ASCEND_IS_AIV {
        const uint32_t per = totalLength / (AscendC::GetBlockNum() * AscendC::GetTaskRatio());
        AscendC::GlobalTensor<float> zGm, oGm;
        zGm.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
        oGm.SetGlobalBuffer((__gm__ float*)out + per * AscendC::GetBlockIdx(), per);
        AscendC::TPipe pipe;
        AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
        AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
        pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
        pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
        for (uint32_t off = 0; off < per; off += TILE) {
            const uint32_t n = per - off < TILE ? per - off : TILE;
            AscendC::LocalTensor<float> zl = inQ.AllocTensor<float>();
            AscendC::DataCopy(zl, zGm[off], n);
            inQ.EnQue(zl);
            zl = inQ.DeQue<float>();
            AscendC::LocalTensor<float> ol = outQ.AllocTensor<float>();
            AscendC::Adds(ol, zl, 1.0f, n);
            outQ.EnQue(ol);
            inQ.FreeTensor(zl);
            ol = outQ.DeQue<float>();
            AscendC::DataCopy(oGm[off], ol, n);
            outQ.FreeTensor(ol);
        }
    }
    AscendC::SetNextTaskStart();
}
