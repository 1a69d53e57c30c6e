// C (M x N, float) = A (M x K, half) x B (K x N, half), all row-major (ND) in GM, through the cube path
// the asc-devkit basic-API cube examples use: DataCopy ND -> NZ into L1, LoadData into L0A / L0B (B
// transposed per 16 x 16 fractal, as its NZ copy is k-major), Mmad accumulating over K in L0C, and one
// Fixpipe (NZ -> ND) per C tile.
//
// Tiling: C is cut into bm x bn tiles (multiples of 16), handed to the AIC cores round-robin; K is walked
// in steps of bk. Edge tiles are ragged (m, n, k smaller than the base), which the L1/L0 layouts cover by
// rounding each dimension up to 16. L0A = bm * bk, L0B = bk * bn halves and L0C = bm * bn floats must fit
// (64 KB, 64 KB, 128 KB on dav-2201): e.g. 128 x 256 x 128. A ragged edge of exactly one row would make
// Mmad use GEMV mode (m == 1), which this kernel's L0A layout does not prepare: keep M % bm != 1.
//
// Used by benchmarks/bench_cube.py (1024^3 on ascend910b) and tests/library/test_cube.py. With
// -DASCGEN_BENCH_NAIVE_MMAD it calls the old naive Mmad loop (naive_mmad.h) instead, for comparison.
#include "kernel_operator.h"

#ifdef ASCGEN_BENCH_NAIVE_MMAD
#include "naive_mmad.h"
#define ASCGEN_BENCH_MMAD NaiveMmad
#else
#define ASCGEN_BENCH_MMAD Mmad
#endif

using namespace AscendC;

extern "C" __global__ __cube__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N,
                                               uint32_t K, uint32_t bm, uint32_t bn, uint32_t bk)
{
    auto up16 = [](uint32_t v) { return (v + 15) / 16 * 16; };
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a, uint64_t(M) * K);
    bg.SetGlobalBuffer((__gm__ half*)b, uint64_t(K) * N);
    cg.SetGlobalBuffer((__gm__ float*)c, uint64_t(M) * N);
    // Static tensors of the base tile size: A in L1 from 0, B in L1 after it; L0A, L0B, L0C from 0.
    LocalTensor<half> a1(TPosition::A1, 0, bm * bk);
    LocalTensor<half> b1(TPosition::B1, bm * bk * sizeof(half), bk * bn);
    LocalTensor<half> a2(TPosition::A2, 0, bm * bk);
    LocalTensor<half> b2(TPosition::B2, 0, bk * bn);
    LocalTensor<float> c1(TPosition::CO1, 0, bm * bn);

    const uint32_t tilesM = (M + bm - 1) / bm, tilesN = (N + bn - 1) / bn;
    for (uint32_t tile = GetBlockIdx(); tile < tilesM * tilesN; tile += GetBlockNum()) {
        const uint32_t m0 = tile / tilesN * bm, n0 = tile % tilesN * bn;
        const uint32_t m = M - m0 < bm ? M - m0 : bm, n = N - n0 < bn ? N - n0 : bn;
        const uint32_t mf = up16(m) / 16, nf = up16(n) / 16;
        for (uint32_t k0 = 0; k0 < K; k0 += bk) {
            const uint32_t k = K - k0 < bk ? K - k0 : bk, kf = up16(k) / 16;
            // GM -> L1: A tile (m x k) and B tile (k x n), each ND -> NZ.
            Nd2NzParams pa;
            pa.ndNum = 1, pa.nValue = uint16_t(m), pa.dValue = uint16_t(k), pa.srcDValue = uint16_t(K);
            pa.dstNzC0Stride = uint16_t(up16(m)), pa.dstNzNStride = 1;
            DataCopy(a1, ag[uint64_t(m0) * K + k0], pa);
            Nd2NzParams pb;
            pb.ndNum = 1, pb.nValue = uint16_t(k), pb.dValue = uint16_t(n), pb.srcDValue = uint16_t(N);
            pb.dstNzC0Stride = uint16_t(up16(k)), pb.dstNzNStride = 1;
            DataCopy(b1, bg[uint64_t(k0) * N + n0], pb);
            SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
            // L1 -> L0A (zZ): one row of fractals per 16 rows of A.
            LoadData2DParams la;
            la.repeatTimes = uint8_t(kf), la.srcStride = uint16_t(mf);
            for (uint32_t i = 0; i < mf; ++i) LoadData(a2[i * kf * 256], a1[i * 256], la);
            // L1 -> L0B (zN): one row of fractals per 16 rows of B, each fractal transposed.
            LoadData2DParams lb;
            lb.repeatTimes = uint8_t(nf), lb.srcStride = uint16_t(kf), lb.ifTranspose = true;
            for (uint32_t i = 0; i < kf; ++i) LoadData(b2[i * nf * 256], b1[i * 256], lb);
            SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
            WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
            MmadParams mp;
            mp.m = uint16_t(m), mp.n = uint16_t(n), mp.k = uint16_t(k);
            mp.cmatrixInitVal = k0 == 0;   // the first K step starts the sum, the others add to it
            ASCGEN_BENCH_MMAD(c1, a2, b2, mp);
            // L1 and L0A/L0B are reloaded by the next K step only after Mmad has read them.
            SetFlag<HardEvent::M_MTE1>(EVENT_ID0);
            WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
            SetFlag<HardEvent::MTE1_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE1_MTE2>(EVENT_ID0);
        }
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        FixpipeParamsV220 fp;
        fp.nSize = uint16_t(n), fp.mSize = uint16_t(m), fp.srcStride = uint16_t(up16(m)), fp.dstStride = N;
        Fixpipe(cg[uint64_t(m0) * N + n0], c1, fp);
        // The next tile's first Mmad overwrites L0C only after Fixpipe has read it.
        SetFlag<HardEvent::FIX_M>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_M>(EVENT_ID0);
    }
}
