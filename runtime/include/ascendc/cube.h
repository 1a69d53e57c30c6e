// The cube unit for half / bfloat16 matrices: GM -> L1 with ND -> NZ conversion (DataCopy with
// Nd2NzParams), L1 -> L0A/L0B fractal loads (LoadData, optionally transposing each 16 x 16 fractal),
// Mmad (L0C += A x B in float) and Fixpipe (L0C -> GM, NZ -> ND, optional relu / cast / atomic add).
//
// Layouts, with 16 x 16 fractals of 2-byte elements (C0 = 16) and Mf/Kf/Nf = ceil(dim / 16):
//   L1 (NZ)  : element (r, c) at (c / 16) * dstNzC0Stride * 16 + r * dstNzNStride * 16 + c % 16
//   L0A (zZ) : A[m][k] at ((m / 16) * Kf + k / 16) * 256 + (m % 16) * 16 + k % 16
//   L0B (zN) : B[k][n] at ((k / 16) * Nf + n / 16) * 256 + (n % 16) * 16 + k % 16
//   L0C (NZ) : C[m][n] at ((n / 16) * Mf + m / 16) * 256 + (m % 16) * 16 + n % 16      (float)
// Mmad reads only the m x k and k x n elements its parameters name, so fractal padding never leaks in.
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/copy.h"
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
constexpr bool cube_2byte() {
    return std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || sizeof(T) == 2;
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
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c)
                dst.data()[k * p.dstNzMatrixStride + (c / c0) * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0 +
                           c % c0] = s[r * p.srcDValue + c];
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

// L0C (float) = [L0C +] L0A x L0B for m x k times k x n.
template <typename C, typename A, typename B>
inline void Mmad(const LocalTensor<C>& c, const LocalTensor<A>& a, const LocalTensor<B>& b, const MmadParams& p,
                 ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(detail::cube_2byte<A>() && detail::cube_2byte<B>() && std::is_same<C, float>::value,
                  "ascgen: Mmad is emulated for half/bfloat16 inputs and a float L0C");
    L::enter(loc);
    ASCGEN_ARG_CHECK(!p.isBias && !p.enSsparse && !p.enWinogradA && !p.enWinogradB, loc,
                     "Mmad: bias, sparse and Winograd modes are not emulated");
    const int64_t m = p.m, n = p.n, k = p.k, mf = (m + 15) / 16, kf = (k + 15) / 16, nf = (n + 15) / 16;
    L::check_ub_bytes(a, mf * kf * 256 * 2, "Mmad", "a (L0A)", loc);
    L::check_ub_bytes(b, kf * nf * 256 * 2, "Mmad", "b (L0B)", loc);
    L::check_ub_bytes(c, mf * nf * 256 * 4, "Mmad", "c (L0C)", loc);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float acc = 0.f;
            for (int64_t t = 0; t < k; ++t) {
                float x = float(L::compute_t<A>(a.data()[((i / 16) * kf + t / 16) * 256 + (i % 16) * 16 + t % 16]));
                float y = float(L::compute_t<B>(b.data()[((t / 16) * nf + j / 16) * 256 + (j % 16) * 16 + t % 16]));
                acc += x * y;
            }
            float& out = c.data()[((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16];
            out = p.cmatrixInitVal ? acc : out + acc;
        }
    ::ascgen::rt::cost(PIPE_M, uint64_t(m * n * k));
}

// L0C (NZ, float) -> GM (ND): element (m, n) from (n / 16) * srcStride * 16 + m * 16 + n % 16 to
// dst[m * dstStride + n]; relu and float -> half/bfloat16 on the way; atomic add after SetAtomicAdd.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                    ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(std::is_same<U, float>::value, "ascgen: Fixpipe is emulated from a float L0C");
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
            float v = src.data()[(j / 16) * p.srcStride * 16 + i * 16 + j % 16];
            row[size_t(j)] = T(p.reluEn && v < 0.f ? 0.f : v);
        }
        L::gm_store(dst.data() + i * int64_t(p.dstStride), row.data(), uint64_t(ns), loc);
    }
    ::ascgen::rt::cost(PIPE_FIX, uint64_t(ms * ns) * sizeof(T));
}

}  // namespace AscendC
