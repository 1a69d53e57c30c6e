// The Mmad inner loop from before runtime/include/ascgen/gemm.h: a naive triple loop, one float
// conversion per element read. Kept only here, so benchmarks/bench_cube.py can show in the same run
// what the blocked kernel gained. Same layouts and results as AscendC::Mmad for half inputs (m > 1).
#pragma once
#include "kernel_operator.h"

template <typename C, typename A, typename B>
inline void NaiveMmad(const AscendC::LocalTensor<C>& c, const AscendC::LocalTensor<A>& a,
                      const AscendC::LocalTensor<B>& b, const AscendC::MmadParams& p) {
    const int64_t m = p.m, n = p.n, k = p.k, mf = (m + 15) / 16, kf = (k + 15) / 16, nf = (n + 15) / 16;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float acc = 0.f;
            for (int64_t t = 0; t < k; ++t) {
                float x = float(a.data()[((i / 16) * kf + t / 16) * 256 + (i % 16) * 16 + t % 16]);
                float y = float(b.data()[((t / 16) * nf + j / 16) * 256 + (j % 16) * 16 + t % 16]);
                acc += x * y;
            }
            float& out = c.data()[((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16];
            out = p.cmatrixInitVal ? acc : out + acc;
        }
    ::ascgen::rt::cost(PIPE_M, uint64_t(m * n * k));
}
