// The cube unit for half / bfloat16 matrices (and int8 into int32 in Mmad/Fixpipe): GM -> L1 with ND -> NZ
// conversion (DataCopy with Nd2NzParams), L1 -> L0A/L0B fractal loads (LoadData, optionally transposing
// each 16 x 16 fractal), Mmad (L0C += A x B in float, arithmetic in ascgen/gemm.h) and Fixpipe (L0C -> GM,
// NZ -> ND, optional relu / cast / atomic add).
//
// Layouts, with 16 x 16 fractals of 2-byte elements (C0 = 16) and Mf/Kf/Nf = ceil(dim / 16); int8 has
// 16 x 32 fractals (C0 = 32, Kf = ceil(k / 32), see gemm.h); Mmad with m == 1 is GEMV mode (see Mmad):
//   L1 (NZ)  : element (r, c) at (c / 16) * dstNzC0Stride * 16 + r * dstNzNStride * 16 + c % 16
//   L0A (zZ) : A[m][k] at ((m / 16) * Kf + k / 16) * 256 + (m % 16) * 16 + k % 16
//   L0B (zN) : B[k][n] at ((k / 16) * Nf + n / 16) * 256 + (n % 16) * 16 + k % 16
//   L0C (NZ) : C[m][n] at ((n / 16) * Mf + m / 16) * 256 + (m % 16) * 16 + n % 16      (float)
// Mmad reads only the m x k and k x n elements its parameters name, so fractal padding never leaks in.
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/copy.h"
#include "ascgen/gemm.h"
#include "ascendc/scratch.h"
#include "ascendc/vec_engine.h"

namespace AscendC {

struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD, uint16_t c0Stride,
                uint16_t nStride, uint16_t dstMat)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcDValue(srcD), dstNzC0Stride(c0Stride),
          dstNzNStride(nStride), dstNzMatrixStride(dstMat) {}
    uint16_t ndNum = 0, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0, dstNzC0Stride = 0,
             dstNzNStride = 0, dstNzMatrixStride = 0;
};
struct LoadData2DParams {
    LoadData2DParams() {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};
struct MmadParams {
    MmadParams() {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool bias, int32_t fm, bool sparse, bool winoA, bool winoB)
        : m(mIn), n(nIn), k(kIn), isBias(bias), fmOffset(fm), enSsparse(sparse), enWinogradA(winoA),
          enWinogradB(winoB) {}
    uint16_t m = 0, n = 0, k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false, enWinogradA = false, enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false, cmatrixInitVal = true;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
    bool disableGemv = false;   // only these architectures can turn GEMV mode (m == 1) off
#endif
};
enum class QuantMode_t : uint8_t { NoQuant = 0, F322F16, F322BF16 };
struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    uint16_t nSize = 0, mSize = 0, srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParams = FixpipeParamsV220;
struct FixpipeConfig {
    bool rowMajor;
};
inline constexpr FixpipeConfig CFG_ROW_MAJOR{true};
inline constexpr FixpipeConfig CFG_NZ{false};

namespace detail {
template <typename T>
constexpr bool cube_float_in() {
    return std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
}
}  // namespace detail

// GM (ND) -> L1 (NZ).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    constexpr int64_t c0 = 32 / sizeof(T);
    const int64_t nd = p.ndNum, rows = p.nValue, cols = p.dValue;
    if (nd == 0 || rows == 0 || cols == 0) return;
    int64_t need = (nd - 1) * p.dstNzMatrixStride + ((cols - 1) / c0) * p.dstNzC0Stride * c0 +
                   (rows - 1) * p.dstNzNStride * c0 + (cols - 1) % c0 + 1;
    L::check_ub_bytes(dst, need * int64_t(sizeof(T)), "DataCopy(Nd2NzParams)", "dst", loc);
    src.check_range(0, uint64_t((nd - 1) * p.srcNdMatrixStride + (rows - 1) * p.srcDValue + cols),
                    "DataCopy(Nd2NzParams)", loc);
    for (int64_t k = 0; k < nd; ++k) {
        const T* s = src.data() + k * p.srcNdMatrixStride;
        L::gm_record(s, uint64_t(cols) * sizeof(T), uint64_t(rows), uint64_t(p.srcDValue) * sizeof(T), false, loc);
        // One 32-byte row piece (c0 elements, fewer at the right edge) per copy: element (r, c) goes to
        // (c / c0) * dstNzC0Stride * c0 + r * dstNzNStride * c0 + c % c0. Pieces are copied in the old
        // element-by-element order, so where strides make them overlap the later one still wins; a
        // piece never overlaps its GM source. Whole pieces are a fixed 32-byte memcpy (inlined).
        T* d = dst.data() + k * p.dstNzMatrixStride;
        const int64_t whole = cols / c0 * c0;
        for (int64_t r = 0; r < rows; ++r) {
            const T* sr = s + r * p.srcDValue;
            T* dr = d + r * p.dstNzNStride * c0;
            for (int64_t c = 0; c < whole; c += c0) std::memcpy(dr + (c / c0) * p.dstNzC0Stride * c0, sr + c, 32);
            if (whole < cols)
                std::memcpy(dr + (whole / c0) * p.dstNzC0Stride * c0, sr + whole, size_t(cols - whole) * sizeof(T));
        }
    }
    ::ascgen::rt::cost(PIPE_MTE2, uint64_t(nd * rows * cols) * sizeof(T));
}

// L1 -> L0A / L0B: repeatTimes fractals of 512 bytes, src fractals srcStride apart (from startIndex), dst
// fractals (1 + dstGap) apart; ifTranspose transposes each 16 x 16 fractal.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    constexpr int64_t frac = 512 / sizeof(T);
    const int64_t n = p.repeatTimes;
    if (n == 0) return;
    ASCGEN_ARG_CHECK(!p.ifTranspose || sizeof(T) == 2, loc, "LoadData: ifTranspose is emulated for 2-byte elements");
    L::check_ub_bytes(src, (int64_t(p.startIndex) + (n - 1) * p.srcStride + 1) * 512, "LoadData", "src", loc);
    L::check_ub_bytes(dst, ((n - 1) * (1 + int64_t(p.dstGap)) + 1) * 512, "LoadData", "dst", loc);
    for (int64_t i = 0; i < n; ++i) {
        const T* s = src.data() + (int64_t(p.startIndex) + i * p.srcStride) * frac;
        T* d = dst.data() + i * (1 + int64_t(p.dstGap)) * frac;
        if (!p.ifTranspose) {
            std::memmove(d, s, 512);
        } else {
            T t[256];
            for (int r = 0; r < 16; ++r)
                for (int c = 0; c < 16; ++c) t[c * 16 + r] = s[r * 16 + c];
            std::memcpy(d, t, 512);
        }
    }
    ::ascgen::rt::cost(PIPE_MTE1, uint64_t(n) * 512);
}

// L1 -> L0A / L0B with transpose, int8 (the 32 x 32 block form): each repeat reads one 1024-byte block
// from src block startIndex + i * srcStride (units of 1024 bytes): two consecutive 16 x 32 fractals, which
// stacked are a 32 x 32 matrix S (as in NZ). It writes S's transpose as two fractals: rows 0-15 at
// i * (1 + dstGap) fractals, rows 16-31 (1 + dstFracGap) fractals after them. That turns a (K, N) int8
// matrix in L1 NZ into the zN fractals of L0B (32 k-values contiguous per column).
struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(uint16_t start, uint8_t repeat, uint16_t srcStr, uint16_t gap, uint16_t fracGap,
                              uint8_t mode = 0)
        : startIndex(start), repeatTimes(repeat), srcStride(srcStr), dstGap(gap), dstFracGap(fracGap), addrMode(mode) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    static_assert(sizeof(T) == 1, "ascgen: LoadDataWithTranspose is emulated for int8 / uint8 (32 x 32 blocks)");
    ASCGEN_ARG_CHECK(p.addrMode == 0, loc, "LoadDataWithTranspose: only the incrementing address mode is emulated");
    const int64_t n = p.repeatTimes;
    if (n == 0) return;
    L::check_ub_bytes(src, (int64_t(p.startIndex) + (n - 1) * p.srcStride + 1) * 1024, "LoadDataWithTranspose",
                      "src", loc);
    L::check_ub_bytes(dst, ((n - 1) * (1 + int64_t(p.dstGap)) + 2 + int64_t(p.dstFracGap)) * 512,
                      "LoadDataWithTranspose", "dst", loc);
    for (int64_t i = 0; i < n; ++i) {
        T blk[1024];
        std::memcpy(blk, src.data() + (int64_t(p.startIndex) + i * p.srcStride) * 1024, 1024);
        T* o0 = dst.data() + i * (1 + int64_t(p.dstGap)) * 512;
        T* o1 = o0 + (1 + int64_t(p.dstFracGap)) * 512;
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 32; ++c) {
                o0[r * 32 + c] = blk[c * 32 + r];
                o1[r * 32 + c] = blk[c * 32 + 16 + r];
            }
    }
    ::ascgen::rt::cost(PIPE_MTE1, uint64_t(n) * 1024);
}

// L0C = [L0C +] L0A x L0B for m x k times k x n: half/bfloat16 into a float L0C, int8 into an int32 L0C.
// The arithmetic is ascgen::gemm::mmad (ascgen/gemm.h, shared with the devkit backend's `mad`).
//
// GEMV mode: with m == 1 the device reads L0A as one contiguous row of k elements (A[0][t] at t), not as
// a 16-row fractal (the asc-devkit mmad_gemv example loads it so); only dav-3510 can switch this off
// (MmadParams::disableGemv). It is emulated for dav-2201 and dav-3510, whose documentation describes
// it; on the other architectures m == 1 is refused by name rather than guessed.
template <typename C, typename A, typename B>
inline void Mmad(const LocalTensor<C>& c, const LocalTensor<A>& a, const LocalTensor<B>& b, const MmadParams& p,
                 ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert((detail::cube_float_in<A>() && detail::cube_float_in<B>() && std::is_same<C, float>::value) ||
                      (std::is_same<A, int8_t>::value && std::is_same<B, int8_t>::value &&
                       std::is_same<C, int32_t>::value),
                  "ascgen: Mmad is emulated for half/bfloat16 inputs with a float L0C and int8 inputs with an "
                  "int32 L0C");
    L::enter(loc);
    ASCGEN_ARG_CHECK(!p.isBias && !p.enSsparse && !p.enWinogradA && !p.enWinogradB, loc,
                     "Mmad: bias, sparse and Winograd modes are not emulated");
    ASCGEN_ARG_CHECK(!p.cmatrixSource, loc, "Mmad: cmatrixSource (C from the bias table) is not emulated");
    constexpr int64_t c0 = 32 / int64_t(sizeof(A));
    const int64_t m = p.m, n = p.n, k = p.k, mf = (m + 15) / 16, kf = (k + c0 - 1) / c0, nf = (n + 15) / 16;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
    const bool gemv = m == 1 && !p.disableGemv;
#else
    const bool gemv = m == 1;
#endif
#if !defined(__NPU_ARCH__) || (__NPU_ARCH__ != 2201 && __NPU_ARCH__ != 3510)
    ASCGEN_ARG_CHECK(!gemv, loc,
                     "Mmad: m == 1 selects GEMV mode (L0A read as one contiguous row), which is emulated for "
                     "dav-2201 and dav-3510 only; pad m to 16 rows");
#endif
    if (m == 0 || n == 0) return;
    L::check_ub_bytes(a, gemv ? k * int64_t(sizeof(A)) : mf * kf * 512, gemv ? "Mmad (GEMV mode, m == 1)" : "Mmad",
                      "a (L0A)", loc);
    L::check_ub_bytes(b, kf * nf * 512, "Mmad", "b (L0B)", loc);
    L::check_ub_bytes(c, mf * nf * 256 * int64_t(sizeof(C)), "Mmad", "c (L0C)", loc);
    ::ascgen::gemm::mmad(c.data(), a.data(), b.data(), m, n, k, p.cmatrixInitVal, gemv);
    ::ascgen::rt::cost(PIPE_M, uint64_t(m * n * k));
}

// L0C (NZ, float) -> GM (ND): element (m, n) from (n / 16) * srcStride * 16 + m * 16 + n % 16 to
// dst[m * dstStride + n]; relu and float -> half/bfloat16 on the way; atomic add after SetAtomicAdd.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                    ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(std::is_same<U, float>::value || (std::is_same<U, int32_t>::value && std::is_same<T, int32_t>::value),
                  "ascgen: Fixpipe is emulated from a float L0C, or from an int32 L0C to int32 GM");
    L::enter(loc);
    ASCGEN_ARG_CHECK(config.rowMajor, loc, "Fixpipe: only the row-major (NZ -> ND) output is emulated");
    ASCGEN_ARG_CHECK(p.ndNum <= 1, loc, "Fixpipe: ndNum %d > 1 is not emulated", int(p.ndNum));
    const int64_t ms = p.mSize, ns = p.nSize;
    if (ms == 0 || ns == 0) return;
    L::check_ub_bytes(src, (((ns - 1) / 16) * p.srcStride * 16 + (ms - 1) * 16 + (ns - 1) % 16 + 1) * 4, "Fixpipe",
                      "src (L0C)", loc);
    dst.check_range(0, uint64_t((ms - 1) * int64_t(p.dstStride) + ns), "Fixpipe", loc);
    L::gm_record(dst.data(), uint64_t(ns) * sizeof(T), uint64_t(ms), uint64_t(p.dstStride) * sizeof(T), true, loc);
    L::Scratch<T> row(static_cast<size_t>(ns));
    for (int64_t i = 0; i < ms; ++i) {
        for (int64_t j = 0; j < ns; ++j) {
            U v = src.data()[(j / 16) * p.srcStride * 16 + i * 16 + j % 16];
            row[size_t(j)] = T(p.reluEn && v < U(0) ? U(0) : v);
        }
        L::gm_store(dst.data() + i * int64_t(p.dstStride), row.data(), uint64_t(ns), loc);
    }
    ::ascgen::rt::cost(PIPE_FIX, uint64_t(ms * ns) * sizeof(T));
}

}  // namespace AscendC
