// Seeded bug (hang): tiles are dealt round-robin to the cores and SetNextTaskStart is called inside the
// loop, on the core's last tile. With more cores than tiles, the cores without a tile never call it.
#include "kernel_operator.h"

constexpr uint32_t TILE = 256;

// y = 2 * x, tile t on core t % GetBlockNum()
extern "C" __global__ __aicore__ void scale_rr(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    const uint32_t tiles = totalLength / TILE;
    const uint32_t cores = AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, totalLength);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    AscendC::WaitPreTaskEnd();
    for (uint32_t t = AscendC::GetBlockIdx(); t < tiles; t += cores) {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopy(xl, xGm[t * TILE], TILE);
        inQ.EnQue(xl);
        xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Muls(yl, xl, 2.0f, TILE);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<float>();
        AscendC::DataCopy(yGm[t * TILE], yl, TILE);
        outQ.FreeTensor(yl);
        if (t + cores >= tiles) {
            AscendC::SetNextTaskStart();          // BUG: never reached on a core with no tile
        }
    }
}
