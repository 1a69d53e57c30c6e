// ascgen::gemm: the matmul inner kernel of the emulated cube unit. The builtin library's Mmad
// (ascendc/cube.h) and the devkit backend's `mad` intrinsic both call `gemm::mmad`.
//
// Pure computation: no runtime hooks, no bounds checks (the caller checks the L0 extents, accounts the
// cost and polls). Header-only, and it includes only <cstdint>, <cstdlib>, <cstring>, <type_traits> and
// half.h, so it adds little to every kernel's compile time (about 250 preprocessed lines).
//
// Layouts (the device's, as the builtin library documents them in cube.h). An input fractal is 512
// bytes: 16 rows of C0 = 32 / sizeof(In) elements (16 for half / bfloat16, 32 for int8):
//   A  (L0A, zZ): A[i][t] at ((i / 16) * Kf + t / C0) * 16 * C0 + (i % 16) * C0 + t % C0   Kf = ceil(k / C0)
//   A  (GEMV)   : A[0][t] at t (m == 1: the device reads the L0A row as one contiguous vector)
//   B  (L0B, zN): B[t][j] at ((t / C0) * Nf + j / 16) * 16 * C0 + (j % 16) * C0 + t % C0   Nf = ceil(n / 16)
//   C  (L0C, NZ): C[i][j] at ((j / 16) * Mf + i / 16) * 256 + (i % 16) * 16 + j % 16     Mf = ceil(m / 16)
// Only the m x k, k x n and m x n elements are read or written, so fractal padding never leaks in or
// gets overwritten.
//
// Numerics. half / bfloat16 in, float accumulate; int8 in, int32 accumulate. Each C element is summed
// from 0 over t = 0, 1, ..., k - 1 in order (k is never split into blocks) and then stored (init) or
// added to the old value, exactly like the naive loop this replaced. A product of two halves (11-bit
// significands) or two bfloat16s (8-bit) is exact in float, so the fused multiply-add of the AVX/FMA
// build (an explicit vfmadd) rounds the same as a multiply then an add: results are bit-identical to
// the naive loop for half. For bfloat16 they differ only where a product leaves float's normal range
// (below 2^-126 or above FLT_MAX), where the fused form keeps the unrounded product. int8 sums are exact.
// float inputs (the devkit backend's `mad`; C0 = 8, 16 x 8 fractals): a float product is not exact, so the
// fused AVX/FMA build rounds once per step where a plain build rounds twice (both are valid float sums).
//
// Speed. Operands are converted to the accumulator type once per call (A as rows, B as 16-column
// panels laid out [t][16]), then a register-blocked micro-kernel computes kMR rows x 16 columns with
// GCC/Clang vector extensions: with AVX, 6 x 16 floats = 12 ymm accumulators + 2 for B + 1 broadcast;
// without, 3 x 16 in 12 xmm. Explicit vector types, not a hoped-for auto-vectorisation: at -O2 GCC's
// "very cheap" vectoriser cost model and register allocation of a 2-D accumulator array are not
// reliable, and a spilled accumulator costs several times the whole kernel.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "ascendc/half.h"

namespace ascgen {
namespace gemm {

// ---- operand types ------------------------------------------------------------------------------

template <class In> struct operand;   // undefined for unsupported types: a compile error names them
template <> struct operand<half> { using acc = float; };
template <> struct operand<bfloat16_t> { using acc = float; };
template <> struct operand<int8_t> { using acc = int32_t; };
template <> struct operand<float> { using acc = float; };   // float in: C0 = 8 (16 x 8 fractals)

template <class In> using acc_t = typename operand<In>::acc;
template <class In> constexpr int64_t c0() { return 32 / int64_t(sizeof(In)); }

// ---- SIMD geometry ------------------------------------------------------------------------------

#if defined(__AVX__)
constexpr int kVL = 8;    // lanes per vector register (ymm)
constexpr int kMR = 6;    // rows per micro-kernel: 6 x 2 accumulators + 2 B vectors + 1 broadcast <= 16
#else
constexpr int kVL = 4;    // xmm
constexpr int kMR = 3;    // 3 x 4 accumulators + 4 B vectors <= 16
#endif
constexpr int kNR = 16;   // columns per micro-kernel = one fractal column block of C
constexpr int kNV = kNR / kVL;

typedef float vfloat __attribute__((vector_size(kVL * 4)));
typedef int32_t vint __attribute__((vector_size(kVL * 4)));
template <class Acc> struct vec_of;
template <> struct vec_of<float> { using type = vfloat; };
template <> struct vec_of<int32_t> { using type = vint; };

namespace detail {

// Conversion vectors of kVL lanes (one register each: wider generic vectors get split, and GCC then
// expands some operations lane by lane).
typedef uint16_t u16xv __attribute__((vector_size(kVL * 2)));
typedef uint32_t u32xv __attribute__((vector_size(kVL * 4)));
typedef int8_t i8xv __attribute__((vector_size(kVL)));

// Per-thread scratch (one emulated core per thread): grows, never shrinks, 64-byte aligned.
struct Buffer {
    void* p = nullptr;
    size_t cap = 0;
    ~Buffer() { std::free(p); }
    template <class T>
    T* get(int64_t count) {
        size_t bytes = (size_t(count) * sizeof(T) + 63) / 64 * 64;
        if (bytes > cap) {
            std::free(p);
            p = std::aligned_alloc(64, bytes);
            cap = bytes;
        }
        return static_cast<T*>(p);
    }
};
inline Buffer& buffer(int i) {
    static thread_local Buffer b[2];
    return b[i];
}

// 16 elements -> accumulator type, kVL at a time. half uses the exact bit manipulation of
// lib::f16_to_f32 written on vectors: normal numbers rebias the exponent, inf/NaN get the maximal
// exponent with their payload, and subnormals become (2^-14 + m * 2^-24) - 2^-14, which is exact.
inline void widen16(float* dst, const half* src) {
#pragma GCC unroll 4
    for (int o = 0; o < 16; o += kVL) {
        u16xv h;
        std::memcpy(&h, src + o, sizeof(h));
        u32xv x = __builtin_convertvector(h, u32xv);
        u32xv sign = (x & 0x8000u) << 16;
        u32xv em = (x & 0x7fffu) << 13;
        u32xv e = em & 0x0f800000u;
        u32xv r = em + 0x38000000u;
        u32xv is_inf = (u32xv)(e == 0x0f800000u);
        u32xv is_sub = (u32xv)(e == 0u);
        r += is_inf & 0x38000000u;
        vfloat sub_f = (vfloat)(r + 0x00800000u) - 6.103515625e-05f;   // 2^-14
        r = (is_sub & (u32xv)sub_f) | (~is_sub & r);
        r |= sign;
        std::memcpy(dst + o, &r, sizeof(r));
    }
}
inline void widen16(float* dst, const bfloat16_t* src) {
#pragma GCC unroll 4
    for (int o = 0; o < 16; o += kVL) {
        u16xv h;
        std::memcpy(&h, src + o, sizeof(h));
        u32xv x = __builtin_convertvector(h, u32xv) << 16;
        std::memcpy(dst + o, &x, sizeof(x));
    }
}
inline void widen16(float* dst, const float* src) { std::memcpy(dst, src, 16 * sizeof(float)); }
inline void widen16(int32_t* dst, const int8_t* src) {
#pragma GCC unroll 4
    for (int o = 0; o < 16; o += kVL) {
        i8xv b;
        std::memcpy(&b, src + o, sizeof(b));
        vint x = __builtin_convertvector(b, vint);
        std::memcpy(dst + o, &x, sizeof(x));
    }
}
// The final C = old + sum: int32 wraps (the sum itself cannot overflow: |sum| <= 128 * 128 * 65535 < 2^31).
inline float add_acc(float a, float b) { return a + b; }
inline int32_t add_acc(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }

inline float widen1(half v) { return float(v); }
inline float widen1(bfloat16_t v) { return float(v); }
inline int32_t widen1(int8_t v) { return int32_t(v); }
inline float widen1(float v) { return v; }

// n elements (any n): blocks of 16, then one at a time (never reads past src[n - 1]).
template <class In, class Acc>
inline void widen(Acc* dst, const In* src, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) widen16(dst + i, src + i);
    for (; i < n; ++i) dst[i] = widen1(src[i]);
}
// One fractal row of C0 elements (C0 = 8 for float: half a widen16, which must not read past it).
template <int64_t C0, class In, class Acc>
inline void widen_row(Acc* dst, const In* src) {
    if constexpr (C0 >= 16) {
        for (int64_t h = 0; h < C0; h += 16) widen16(dst + h, src + h);
    } else {
        widen(dst, src, C0);
    }
}

// kMR x 16 block of C = A rows (stride lda, t = 0..k-1) x one B panel ([t][16]), summed in t order.
template <class Acc, class V = typename vec_of<Acc>::type>
inline void micro(int64_t k, const Acc* __restrict a, int64_t lda, const Acc* __restrict b, V (&out)[kMR][kNV]) {
    V c[kMR][kNV];
#pragma GCC unroll 8
    for (int r = 0; r < kMR; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < kNV; ++v) c[r][v] = V{};
    for (int64_t t = 0; t < k; ++t) {
        V bv[kNV];
#pragma GCC unroll 4
        for (int v = 0; v < kNV; ++v) std::memcpy(&bv[v], b + t * kNR + v * kVL, sizeof(V));
#pragma GCC unroll 8
        for (int r = 0; r < kMR; ++r) {
            const Acc x = a[r * lda + t];
#if defined(__FMA__) && defined(__AVX__)
            // Explicitly fused: the runtime compiles kernels with -ffp-contract=off (so -march=native
            // changes no other op's rounding), and a half x half product is exact, so fusing here
            // rounds like the separate multiply and add.
            if constexpr (std::is_same<Acc, float>::value) {
                const V xv = {x, x, x, x, x, x, x, x};   // kVL == 8 with AVX: one vbroadcastss
#pragma GCC unroll 4
                for (int v = 0; v < kNV; ++v) c[r][v] = __builtin_ia32_vfmaddps256(bv[v], xv, c[r][v]);
                continue;
            }
#endif
#pragma GCC unroll 4
            for (int v = 0; v < kNV; ++v) c[r][v] += bv[v] * x;
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < kMR; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < kNV; ++v) out[r][v] = c[r][v];
}

}  // namespace detail

// C (L0C, NZ) = A x B (init) or C += A x B, for m x k times k x n; `gemv`: A is one contiguous row
// (m must be 1). TA and TB are half / bfloat16_t / float (float C) or int8_t (int32_t C). Arguments in
// MmadParams order (m, n, k); the devkit's `mad` intrinsic takes (m, k, n). The caller checks that L0A
// holds mf * kf fractals (k elements in GEMV mode), L0B kf * nf and L0C mf * nf 16 x 16 blocks.
template <class TA, class TB>
inline void mmad(acc_t<TA>* c, const TA* a, const TB* b, int64_t m, int64_t n, int64_t k, bool init, bool gemv) {
    using Acc = acc_t<TA>;
    using V = typename vec_of<Acc>::type;
    static_assert(sizeof(TA) == sizeof(TB) && std::is_same<Acc, acc_t<TB>>::value,
                  "ascgen::gemm::mmad: A and B must have the same element width and accumulator type");
    if (m <= 0 || n <= 0) return;
    constexpr int64_t C0 = c0<TA>(), FR = 16 * C0;
    const int64_t kf = (k + C0 - 1) / C0, nf = (n + 15) / 16, mf = (m + 15) / 16;
    const int64_t lda = kf * C0;                              // A rows padded to whole fractals
    const int64_t rows = (m + kMR - 1) / kMR * kMR;           // rows padded to whole micro-kernels

    // A -> rows of Acc. Rows >= m are zeros (never garbage: a NaN or subnormal there would only be
    // discarded, but subnormals can slow the FPU down).
    Acc* af = detail::buffer(0).get<Acc>(rows * lda + 1);
    if (gemv) {
        detail::widen(af, a, k);
    } else {
        for (int64_t i = 0; i < m; ++i)
            for (int64_t t = 0; t < kf; ++t)
                detail::widen_row<C0>(af + i * lda + t * C0, a + ((i / 16) * kf + t) * FR + (i % 16) * C0);
    }
    std::memset(af + m * lda, 0, size_t((rows - m) * lda) * sizeof(Acc));

    // B -> panels of 16 columns, [t][16]; columns >= n are zeros.
    Acc* bp = detail::buffer(1).get<Acc>(nf * k * kNR + 1);
    Acc frac[16 * 32];
    for (int64_t t = 0; t < kf; ++t) {
        const int64_t tk = (k - t * C0) < C0 ? k - t * C0 : C0;
        for (int64_t jb = 0; jb < nf; ++jb) {
            const TB* s = b + (t * nf + jb) * FR;
            for (int64_t h = 0; h < FR; h += 16) detail::widen16(frac + h, s + h);
            const int64_t jn = (n - jb * 16) < 16 ? n - jb * 16 : 16;
            for (int64_t jj = jn; jj < 16; ++jj)
                for (int64_t p = 0; p < C0; ++p) frac[jj * C0 + p] = Acc(0);
            Acc* d = bp + jb * k * kNR + t * C0 * kNR;
            for (int64_t p = 0; p < tk; ++p)
                for (int64_t jj = 0; jj < 16; ++jj) d[p * kNR + jj] = frac[jj * C0 + p];
        }
    }

    // C: one B panel (k x 16) at a time, stays in L1 while the A rows stream past it.
    for (int64_t jb = 0; jb < nf; ++jb) {
        const Acc* panel = bp + jb * k * kNR;
        const int64_t jn = (n - jb * 16) < 16 ? n - jb * 16 : 16;
        for (int64_t i0 = 0; i0 < m; i0 += kMR) {
            V acc[kMR][kNV];
            detail::micro<Acc>(k, af + i0 * lda, lda, panel, acc);
            for (int r = 0; r < kMR && i0 + r < m; ++r) {
                const int64_t i = i0 + r;
                Acc* dst = c + ((jb * mf + i / 16) * 256 + (i % 16) * 16);
                Acc row[kNR];
                std::memcpy(row, acc[r], sizeof(row));
                if (jn == 16) {
                    if (!init)
                        for (int j = 0; j < 16; ++j) row[j] = detail::add_acc(dst[j], row[j]);
                    std::memcpy(dst, row, sizeof(row));
                } else {
                    for (int64_t j = 0; j < jn; ++j) dst[j] = init ? row[j] : detail::add_acc(dst[j], row[j]);
                }
            }
        }
    }
}

}  // namespace gemm
}  // namespace ascgen
