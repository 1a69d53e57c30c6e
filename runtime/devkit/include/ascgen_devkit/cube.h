// The cube unit of dav_c220 as the library's Mmad / LoadData / Fixpipe / Matmul code drives it: GM -> L1
// with ND -> NZ conversion, L1 -> L0A / L0B fractal loads, `mad` into L0C (arithmetic in ascgen/gemm.h,
// shared with the builtin backend's Mmad), L1 -> BT (bias table) and L1 -> FB (fixpipe buffer) copies,
// and Fixpipe (L0C -> GM / L1, NZ or NZ -> ND, relu, float -> half / bfloat16, int8 quantisation, atomic
// add into GM).
//
// Layouts (elements; C0 = 32 / sizeof(element): 16 for half / bfloat16, 32 for int8, 8 for float):
//   L1 (NZ), from nd2nz : element (r, c) at (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0
//   L0A / L0B           : 512-byte fractals, laid out as ascgen/gemm.h documents (zZ / zN)
//   L0C (NZ, 4 bytes)   : element (m, n) at (n / 16) * srcStride * 16 + m * 16 + n % 16 (srcStride in rows)
// Every local operand is checked against this core's buffer (state.h check_buf), every GM side goes
// through rt::gm_access* (bounds + race records), like the vector DMA in dma.h.
//
// int4 (`mad_s4`, the `*_s4` loads) is cube_int4.h, on the same layouts with C0 = 64 nibbles.
// 4:2 sparse B (`load_cbuf_to_cb_sp`, `mad_sp`) is cube_sparse.h.
// Not emulated (declared in missing.h, so a kernel needing them fails to build naming them): load3d into
// UB, the load3d repeat register on dav_c220 (`set_l3d_rpt`; dav_3510 reads its dstStride), loads straight
// from GM to L0 (`load_gm_to_c[ab]`).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include "ascgen/gemm.h"
#include "ascgen/int4.h"
#include "dma.h"
#include "globals.h"
#include "peer.h"
#include "state.h"
#include "tasksync.h"

namespace ascgen_devkit {

constexpr uint64_t FRACTAL = 512;   // bytes of one L0A / L0B fractal (16 rows of 32 bytes)

// dav_3510 (ascend950) keeps this cube but changes three conventions: L0A holds A in Nz (its fractals in
// column-block order; dav_c220: zZ, row-block order), mad's 8th argument is disableGemv (dav_c220:
// kDirectionAlign), and Fixpipe's NZ dstStride counts elements (dav_c220: 32-byte units). Its own load
// and Fixpipe forms are dav3510/cube.h.
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
constexpr bool kDav3510 = true;
#else
constexpr bool kDav3510 = false;
#endif

// The library's CPU-mode bias table (model.h: defined after the library's headers, which declare it).
uint64_t library_bt_base();

[[noreturn]] inline void unsupported(const char* intrinsic, const char* what) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(intrinsic),
                       "%s: %s is not emulated by the devkit backend's cube model (runtime/devkit cube.h); "
                       "use backend='builtin' or change the call", intrinsic, what);
}

// ---- GM -> L1, ND -> NZ (and DN -> NZ) ----------------------------------------------------------------

// `nd` matrices of rows x cols, src_nd_stride elements apart in GM and dst_nd_stride in L1. ND (row-major):
// row r at src + r * src_d; DN (dav_3510, column-major): column c at src + c * src_d.
template <int ES>
inline void nd2nz(void* dst, const void* src, uint64_t nd, uint64_t rows, uint64_t cols, uint64_t src_nd_stride,
                  uint64_t src_d, uint64_t c0_stride, uint64_t n_stride, uint64_t dst_nd_stride, const char* name,
                  bool dn = false) {
    tick();
    constexpr uint64_t c0 = 32 / ES;
    if (nd == 0 || rows == 0 || cols == 0) return;
    const uint64_t need = (nd - 1) * dst_nd_stride + ((cols - 1) / c0) * c0_stride * c0 + (rows - 1) * n_stride * c0 +
                          (cols - 1) % c0 + 1;
    check_buf(HW_L1, dst, need * ES, name, "dst");
    auto* d0 = static_cast<uint8_t*>(dst);
    auto* s0 = static_cast<const uint8_t*>(src);
    const auto at = [&](uint64_t r, uint64_t c) { return ((c / c0) * c0_stride * c0 + r * n_stride * c0 + c % c0) * ES; };
    for (uint64_t k = 0; k < nd; ++k) {
        const uint8_t* s = s0 + k * src_nd_stride * ES;
        uint8_t* d = d0 + k * dst_nd_stride * ES;
        if (dn) {
            gm_side(s, rows * ES, cols, src_d * ES, false, name);
            for (uint64_t c = 0; c < cols; ++c)
                for (uint64_t r = 0; r < rows; ++r) std::memcpy(d + at(r, c), s + (c * src_d + r) * ES, ES);
            continue;
        }
        gm_side(s, cols * ES, rows, src_d * ES, false, name);
        const uint64_t whole = cols / c0 * c0;
        for (uint64_t r = 0; r < rows; ++r) {
            const uint8_t* sr = s + r * src_d * ES;
            for (uint64_t c = 0; c < whole; c += c0) std::memcpy(d + at(r, c), sr + c * ES, 32);
            if (whole < cols) std::memcpy(d + at(r, whole), sr + whole * ES, (cols - whole) * ES);
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, nd * rows * cols * ES);
}

// ---- L1 -> L0A / L0B (load2d) -----------------------------------------------------------------------

// `repeat` fractals: source fractal start + i * src_stride, destination fractal i * (1 + dst_gap);
// `transpose` transposes each 16 x 16 fractal of 2-byte elements.
inline void load2d(int hw, void* dst, const void* src, uint64_t esize, uint64_t start, uint64_t repeat,
                   uint64_t src_stride, uint64_t dst_gap, bool transpose, int mode, const char* name) {
    tick();
    if (mode != 0) unsupported(name, "the decrementing address mode (addr_cal_mode_t dec)");
    if (transpose && esize != 2) unsupported(name, "ifTranspose on elements other than 2 bytes");
    if (repeat == 0) return;
    check_buf(HW_L1, static_cast<const uint8_t*>(src) + start * FRACTAL, ((repeat - 1) * src_stride + 1) * FRACTAL,
              name, "src");
    check_buf(hw, dst, ((repeat - 1) * (1 + dst_gap) + 1) * FRACTAL, name, "dst");
    for (uint64_t i = 0; i < repeat; ++i) {
        const auto* s = static_cast<const uint8_t*>(src) + (start + i * src_stride) * FRACTAL;
        auto* d = static_cast<uint8_t*>(dst) + i * (1 + dst_gap) * FRACTAL;
        if (!transpose) {
            std::memmove(d, s, FRACTAL);
        } else {
            uint16_t t[256];
            const auto* s16 = reinterpret_cast<const uint16_t*>(s);
            for (int r = 0; r < 16; ++r)
                for (int c = 0; c < 16; ++c) t[c * 16 + r] = s16[r * 16 + c];
            std::memcpy(d, t, FRACTAL);
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, repeat * FRACTAL);
}

// ---- L1 -> L0A / L0B with transpose, b8 / b16 / b32 (LoadDataWithTranspose) ----------------------------

// Each repeat reads one 1024-byte block, two consecutive source fractals from block start + i * srcStride
// (units of 1024 bytes), and writes its transpose as two fractals: the first at i * (1 + dstGap) fractals,
// the second (1 + dstFracGap) fractals after it. b8: the block is 32 x 32 (the two fractals stacked, as in
// NZ), the outputs are rows 0-15 and 16-31 of the transpose; b32: the block is 16 x 16 (the two 16 x 8
// fractals side by side, as in Zz), the outputs are columns 0-7 and 8-15 of the transpose. b16: below.
template <class T>
inline void load_transpose(int hw, T* dst, const T* src, uint64_t start, uint64_t repeat, uint64_t src_stride,
                           uint64_t dst_gap, int mode, uint64_t frac_gap, const char* name) {
    tick();
    if (mode != 0) unsupported(name, "the decrementing address mode (addr_cal_mode_t dec)");
    if (repeat == 0) return;
    constexpr uint64_t F = FRACTAL / sizeof(T);   // elements per fractal
    if constexpr (sizeof(T) == 2) {
        // A 16 x 16 fractal is square already: each repeat transposes one, from fractal start + i * srcStride
        // (512-byte units; the dav_3510 library converts b8 / b32 block counts to fractals by doubling them
        // and leaves b16 as it is) to fractal i * (1 + dstGap).
        check_buf(HW_L1, src + start * F, ((repeat - 1) * src_stride + 1) * FRACTAL, name, "src");
        check_buf(hw, dst, ((repeat - 1) * (1 + dst_gap) + 1) * FRACTAL, name, "dst");
        T blk[F];
        for (uint64_t i = 0; i < repeat; ++i) {
            std::memcpy(blk, src + (start + i * src_stride) * F, FRACTAL);
            T* o = dst + i * (1 + dst_gap) * F;
            for (uint64_t r = 0; r < 16; ++r)
                for (uint64_t c = 0; c < 16; ++c) o[r * 16 + c] = blk[c * 16 + r];
        }
        ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, repeat * FRACTAL);
        return;
    }
    check_buf(HW_L1, src + start * 2 * F, ((repeat - 1) * src_stride + 1) * 2 * FRACTAL, name, "src");
    check_buf(hw, dst, ((repeat - 1) * (1 + dst_gap) + 1 + (1 + frac_gap)) * FRACTAL, name, "dst");
    T blk[2 * F];
    for (uint64_t i = 0; i < repeat; ++i) {
        std::memcpy(blk, src + (start + i * src_stride) * 2 * F, 2 * FRACTAL);
        T* o0 = dst + i * (1 + dst_gap) * F;
        T* o1 = o0 + (1 + frac_gap) * F;
        if constexpr (sizeof(T) == 1) {            // S[r][c] = blk[r * 32 + c], 32 x 32
            for (uint64_t r = 0; r < 16; ++r)
                for (uint64_t c = 0; c < 32; ++c) o0[r * 32 + c] = blk[c * 32 + r], o1[r * 32 + c] = blk[c * 32 + 16 + r];
        } else {                                   // S[r][c] = c < 8 ? blk[r * 8 + c] : blk[128 + r * 8 + c - 8]
            for (uint64_t r = 0; r < 16; ++r)
                for (uint64_t c = 0; c < 8; ++c) o0[r * 8 + c] = blk[c * 8 + r % 8 + (r / 8) * 128],
                                                 o1[r * 8 + c] = blk[(8 + c) * 8 + r % 8 + (r / 8) * 128];
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, repeat * 2 * FRACTAL);
}

// ---- L1 -> L0A / L0B (load3d v2, img2col) -------------------------------------------------------------

// The feature map in L1 is [C1][H][W][C0] (C0 = 32 / sizeof(element), C1 = ceil(channels / C0)); H, W and
// the pads (left, right, top, bottom) come from FMATRIX (set_fmatrix, or set_fmatrix_b with fMatrixCtrl).
// img2col defines a matrix whose row p is output position (ho, wo) and whose column q is (c1, kh, kw, c0);
// the instruction writes its window [mStart, +mExt) x [kStart, +kExt) to L0 as fractals:
//   L0A            : zZ, row blocks of 16 rows x C0 columns   (the A layout gemm.h reads)
//   L0A, transpose : zZ of the window's transpose (an A stored as K x M in L1)
//   L0B            : zN: window element (i, j) is B[i][j] (k = i, n = j), the layout gemm.h reads for B
// Positions or channels outside the feature map read the padding value (set_padding).
struct Img2col {
    uint64_t k_ext, m_ext, k_start, m_start, stride_w, stride_h, filter_w, filter_h, dil_w, dil_h, channels;
    bool transpose, fmatrix_b;
};

// The elements img2col moves: plain T (C0 = 32 / sizeof(T)), or packed int4 (Int4Elems, C0 = 64 nibbles).
template <class T>
struct PlainElems {
    using V = T;
    static constexpr uint64_t c0 = 32 / sizeof(T);
    static uint64_t bytes(uint64_t n) { return n * sizeof(T); }
    static V get(const void* p, uint64_t i) { return static_cast<const T*>(p)[i]; }
    static void set(void* p, uint64_t i, V v) { static_cast<T*>(p)[i] = v; }
    static V pad() { V v; std::memcpy(&v, &regs.padding, sizeof(T)); return v; }
};
struct Int4Elems {
    using V = int;
    static constexpr uint64_t c0 = 64;
    static uint64_t bytes(uint64_t n) { return (n + 1) / 2; }
    static V get(const void* p, uint64_t i) { return ::ascgen::int4::get_nibble(p, i); }
    static void set(void* p, uint64_t i, V v) { ::ascgen::int4::set_nibble(p, i, v); }
    static V pad() { const int v = int(regs.padding & 0xF); return v >= 8 ? v - 16 : v; }   // the low nibble
};

template <class E>
inline void img2col_elems(int hw, void* dst, const void* src, const Img2col& p, const char* name) {
    tick();
    constexpr uint64_t c0 = E::c0;
    const uint64_t fm = p.fmatrix_b ? regs.fmatrix_b : regs.fmatrix;
    const int64_t W = int64_t(fm & 0xffff), H = int64_t((fm >> 16) & 0xffff);
    const int64_t pad_l = int64_t((fm >> 32) & 0xff), pad_r = int64_t((fm >> 40) & 0xff);
    const int64_t pad_t = int64_t((fm >> 48) & 0xff), pad_b = int64_t((fm >> 56) & 0xff);
    if (p.k_ext == 0 || p.m_ext == 0) return;
    if (W == 0 || H == 0 || p.stride_w == 0 || p.stride_h == 0 || p.dil_w == 0 || p.dil_h == 0 || p.filter_w == 0 ||
        p.filter_h == 0)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: a zero feature-map size (W %lld, H %lld from set_fmatrix), stride, dilation or filter "
                           "size", name, (long long)W, (long long)H);
    const int64_t wo = (W + pad_l + pad_r - int64_t(p.dil_w * (p.filter_w - 1)) - 1) / int64_t(p.stride_w) + 1;
    const int64_t ho = (H + pad_t + pad_b - int64_t(p.dil_h * (p.filter_h - 1)) - 1) / int64_t(p.stride_h) + 1;
    const uint64_t c1 = (p.channels + c0 - 1) / c0;
    check_buf(HW_L1, src, E::bytes(c1 * uint64_t(H * W) * c0), name, "src (L1 feature map)");
    const typename E::V pad = E::pad();
    // Output extent in elements, by layout: rows of the written matrix rounded to 16, columns to C0.
    const bool b = hw == HW_L0B;
    const uint64_t rows = b ? p.m_ext : (p.transpose ? p.k_ext : p.m_ext);
    const uint64_t cols = b ? p.k_ext : (p.transpose ? p.m_ext : p.k_ext);
    const uint64_t rf = b ? (rows + c0 - 1) / c0 : (rows + 15) / 16, cf = b ? (cols + 15) / 16 : (cols + c0 - 1) / c0;
    // dav_3510 writes Nz: the window (L0A) or its transpose (L0A transposed, and always L0B), with dstStride
    // 16-row fractals between column blocks, from the load3d repeat register (set_l3d_rpt [47:32]).
    const bool nz_t = b || p.transpose;
    const uint64_t ds = (regs.l3d_rpt >> 32) & 0xffff;
    if (kDav3510) {
        if (((regs.l3d_rpt >> 16) & 0xff) > 1) unsupported(name, "a load3d repeat (repeatTime > 1)");
        const uint64_t nr = nz_t ? p.k_ext : p.m_ext, nc = nz_t ? p.m_ext : p.k_ext;   // written rows, columns
        if (ds == 0)
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                               "%s: dstStride 0 in the load3d repeat register: call SetLoadDataRepeatWithStride "
                               "before LoadDataWithStride", name);
        check_buf(hw, dst, E::bytes(((nc - 1) / c0 * ds + (nr - 1) / 16 + 1) * 16 * c0), name, "dst");
    } else {
        check_buf(hw, dst, E::bytes(rf * cf * 16 * c0), name, "dst");
    }
    for (uint64_t i = 0; i < p.m_ext; ++i) {
        const int64_t pos = int64_t(p.m_start + i);
        const int64_t oh = pos / wo, ow = pos % wo;
        for (uint64_t j = 0; j < p.k_ext; ++j) {
            const uint64_t q = p.k_start + j, e = q % c0, r = q / c0;
            const int64_t kw = int64_t(r % p.filter_w), kh = int64_t((r / p.filter_w) % p.filter_h);
            const uint64_t ch1 = r / (p.filter_w * p.filter_h);
            const int64_t h = oh * int64_t(p.stride_h) + kh * int64_t(p.dil_h) - pad_t;
            const int64_t w = ow * int64_t(p.stride_w) + kw * int64_t(p.dil_w) - pad_l;
            const bool inside = oh < ho && h >= 0 && h < H && w >= 0 && w < W && ch1 < c1 && ch1 * c0 + e < p.channels;
            const auto v = inside ? E::get(src, ((ch1 * uint64_t(H) + uint64_t(h)) * uint64_t(W) + uint64_t(w)) * c0 + e)
                                  : pad;
            uint64_t at_;
            if (kDav3510 && nz_t) at_ = ((i / c0) * ds + j / 16) * 16 * c0 + (j % 16) * c0 + i % c0;
            else if (kDav3510) at_ = ((j / c0) * ds + i / 16) * 16 * c0 + (i % 16) * c0 + j % c0;
            else if (b) at_ = ((i / c0) * cf + j / 16) * 16 * c0 + (j % 16) * c0 + i % c0;      // zN, B[i][j]
            else if (p.transpose) at_ = ((j / 16) * cf + i / c0) * 16 * c0 + (j % 16) * c0 + i % c0;
            else at_ = ((i / 16) * cf + j / c0) * 16 * c0 + (i % 16) * c0 + j % c0;
            E::set(dst, at_, v);
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, E::bytes(p.m_ext * p.k_ext));
}
template <class T>
inline void img2col(int hw, T* dst, const T* src, const Img2col& p, const char* name) {
    img2col_elems<PlainElems<T>>(hw, dst, src, p, name);
}

// ---- mad -------------------------------------------------------------------------------------------

template <class A> struct cube_in { static constexpr bool ok = false; using acc = void; };   // static_assert names it
template <> struct cube_in<half> { static constexpr bool ok = true; using acc = float; };
template <> struct cube_in<bfloat16_t> { static constexpr bool ok = true; using acc = float; };
template <> struct cube_in<float> { static constexpr bool ok = true; using acc = float; };
template <> struct cube_in<int8_t> { static constexpr bool ok = true; using acc = int32_t; };

// Unit flag: 0 off, 2 "more Mmads follow into this L0C block", 3 "the last one". The core runs pipes in
// program order, so it orders nothing here; other values are a programming error the device rejects.
inline void check_unit_flag(uint64_t unit_flag, const char* name) {
    if (unwinding()) return;
    if (unit_flag != 0 && unit_flag != 2 && unit_flag != 3)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: unitFlag %llu is not 0 (off), 2 (not last) or 3 (last)", name,
                           (unsigned long long)unit_flag);
}

// L0C (m x n block, NZ) = bias (from BT, one value per column) or 0 or the old L0C, + A x B, for A and B
// already checked and in gemm.h's layout (mad_s4 hands over its operands unpacked to int8).
template <class C, class A>
inline void mad_accumulate(C* c, const A* a, const A* b, const C* bias, uint64_t m, uint64_t k, uint64_t n, bool init,
                           bool gemv, const char* name) {
    const uint64_t mf = (m + 15) / 16, nf = (n + 15) / 16;
    check_buf(HW_L0C, c, mf * nf * 256 * sizeof(C), name, "c (L0C)");
    if (bias) check_buf(HW_BIAS, bias, n * sizeof(C), name, "bias (BT)");
    if (bias) {
        for (uint64_t j = 0; j < n; ++j)
            for (uint64_t i = 0; i < m; ++i) c[((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16] = bias[j];
        init = false;
    }
    ::ascgen::gemm::mmad(c, a, b, int64_t(m), int64_t(n), int64_t(k), init, gemv);
    ::ascgen::rt::cost(::ascgen::rt::pipe::M, m * n * k);
}

// dav_3510: A in L0A is Nz (fractal (row block i, column block t) at t * mf + i); gemm.h reads zZ
// (i * kf + t). Copies the fractals into that order.
template <class A>
inline const A* l0a_nz_to_zz(const A* a, uint64_t mf, uint64_t kf) {
    constexpr uint64_t fe = FRACTAL / sizeof(A);
    static thread_local std::vector<A> tmp;
    tmp.resize(mf * kf * fe);
    for (uint64_t i = 0; i < mf; ++i)
        for (uint64_t t = 0; t < kf; ++t) std::memcpy(&tmp[(i * kf + t) * fe], a + (t * mf + i) * fe, FRACTAL);
    return tmp.data();
}

// ---- fp8 inputs (dav_3510) ---------------------------------------------------------------------------
// e4m3fn and e5m2 (fp8.h) are exact in half, so mad widens both operands to half in the layout gemm.h reads
// (C0 16 instead of 32) and runs the half kernel: the same products, summed in float. hifloat8 is not
// decoded (mad's type check names it).
template <class T> struct fp8_of {
    static constexpr bool ok = fp8::of<T>::ok;
    static half decode(uint8_t v) { return half(fp8::decode(fp8::of<T>::format, v)); }
};

// Operand `x` (1-byte elements, zZ for A / zN for B with C0 32, `rows` x `cols` in fractals of 16 x 32)
// as half with C0 16: element (r, c) of the 16-row block layout moves from C0 32 to C0 16.
template <class F>
inline const half* fp8_widen(const F* x, uint64_t rb, uint64_t k, bool b_side, std::vector<half>& out) {
    const uint64_t k32 = (k + 31) / 32, k16 = (k + 15) / 16;
    out.assign(rb * k16 * 256, half(0.0f));
    const auto* v = reinterpret_cast<const uint8_t*>(x);
    for (uint64_t blk = 0; blk < rb; ++blk)
        for (uint64_t r = 0; r < 16; ++r)
            for (uint64_t t = 0; t < k16 * 16; ++t) {
                // A (zZ): fractal (row block, k block) at blk * kf + t / C0; B (zN): at (t / C0) * rb + blk
                const uint64_t src = (b_side ? (t / 32) * rb + blk : blk * k32 + t / 32) * 512 + r * 32 + t % 32;
                const uint64_t dst = (b_side ? (t / 16) * rb + blk : blk * k16 + t / 16) * 256 + r * 16 + t % 16;
                out[dst] = fp8_of<F>::decode(v[src]);
            }
    return out.data();
}

// The input types mad computes in natively (gemm.h's operands), or fp8 A and B on dav_3510 (fp8_of).
template <class C, class A, class B>
constexpr bool mad_types_ok() {
    return (cube_in<A>::ok && std::is_same<A, B>::value && std::is_same<C, typename cube_in<A>::acc>::value) ||
           (kDav3510 && fp8_of<A>::ok && fp8_of<B>::ok && std::is_same<C, float>::value);
}

// dav_3510: L0A is Nz (copied into zZ for gemm.h); fp8 operands are widened to half first. `disable_gemv`
// false with m == 1 would be GEMV mode, which is not modelled here.
template <class C, class A, class B>
inline void mad_nz(C* c, A* a, B* b, const C* bias, uint64_t m, uint64_t k, uint64_t n, bool disable_gemv,
                   bool init, const char* name) {
    if (m == 1 && !disable_gemv) unsupported(name, "GEMV mode (m == 1 with disableGemv false) on dav_3510");
    constexpr uint64_t c0 = 32 / sizeof(A);
    const uint64_t mf = (m + 15) / 16, nf = (n + 15) / 16, kf = (k + c0 - 1) / c0;
    check_buf(HW_L0A, a, mf * kf * FRACTAL, name, "a (L0A, Nz)");
    check_buf(HW_L0B, b, kf * nf * FRACTAL, name, "b (L0B)");
    const A* az = l0a_nz_to_zz(a, mf, kf);
    if constexpr (fp8_of<A>::ok) {
        static thread_local std::vector<half> ha, hb;
        mad_accumulate(c, fp8_widen(az, mf, k, false, ha), fp8_widen(b, nf, k, true, hb), bias, m, k, n, init,
                       false, name);
    } else {
        mad_accumulate(c, az, b, bias, m, k, n, init, false, name);
    }
}

// dav_c220: L0A is zZ; m == 1 is GEMV mode (L0A one contiguous row of k elements); kDirectionAlign (float)
// pads L0A's rows to whole 16-element K pairs of fractals (a transposing load writes them so), B unchanged.
template <class C, class A, class B>
inline void mad_zz(C* c, A* a, B* b, const C* bias, uint64_t m, uint64_t k, uint64_t n, bool k_align, bool init,
                   const char* name) {
    constexpr uint64_t c0 = 32 / sizeof(A);
    const uint64_t mf = (m + 15) / 16, nf = (n + 15) / 16, kf = (k + c0 - 1) / c0;
    const bool gemv = m == 1;
    // The K extent per 16 rows of A: kf, rounded up to even with kDirectionAlign.
    const uint64_t kfa = (k_align && sizeof(A) == 4 && !gemv) ? (kf + 1) / 2 * 2 : kf;
    check_buf(HW_L0A, a, gemv ? k * sizeof(A) : mf * kfa * FRACTAL, name, gemv ? "a (L0A, GEMV mode m == 1)" : "a (L0A)");
    check_buf(HW_L0B, b, kf * nf * FRACTAL, name, "b (L0B)");
    const A* ap = a;
    if (kfa != kf) {   // repack L0A to kf fractals per row block, the layout gemm.h reads
        static thread_local std::vector<A> tmp;
        tmp.resize(mf * kf * (FRACTAL / sizeof(A)));
        for (uint64_t i = 0; i < mf; ++i)
            std::memcpy(&tmp[i * kf * (FRACTAL / sizeof(A))], a + i * kfa * (FRACTAL / sizeof(A)), kf * FRACTAL);
        ap = tmp.data();
    }
    mad_accumulate(c, ap, b, bias, m, k, n, init, gemv, name);
}

// L0C (m x n block, NZ) = bias (from BT, one value per column) or 0 or the old L0C, + A x B. `arg8` is
// kDirectionAlign on dav_c220 and disableGemv on dav_3510.
template <class C, class A, class B>
inline void mad_impl(C* c, A* a, B* b, const C* bias, uint64_t m, uint64_t k, uint64_t n, uint64_t unit_flag,
                     bool arg8, bool init) {
    constexpr const char* name = "mad";
    static_assert(mad_types_ok<C, A, B>(),
                  "ascgen devkit: mad is emulated for half / bfloat16 / float into float and int8 into int32 "
                  "(and fp8 e4m3fn / e5m2 into float; not hifloat8, fp4 or other mixed input types)");
    tick();
    check_unit_flag(unit_flag, name);
    if (m == 0 || n == 0) return;
    if constexpr (kDav3510) mad_nz(c, a, b, bias, m, k, n, arg8, init, name);
    else mad_zz(c, a, b, bias, m, k, n, arg8, init, name);
}

// ---- Fixpipe: L0C -> GM / L1 --------------------------------------------------------------------------

// One L0C element on its way out: relu, then the quant mode's conversion.
struct FixOut {
    int quant = 0;           // QuantMode_t
    bool relu = false;
    const uint64_t* vq = nullptr;   // per-column quant parameters (vector modes), from FB
    uint64_t sq = 0;                // scalar quant parameter (QUANT_PRE)
};

// The quant parameter's scale: float bits [31:13] (sign, 8-bit exponent, 10-bit mantissa).
inline float quant_scale(uint64_t q) {
    uint32_t bits = uint32_t(q) & 0xffffe000u;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
inline float round_even(float v) { return std::nearbyint(v); }   // default FE_TONEAREST: ties to even
inline float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

// int8 / uint8 quantisation as the device does it: scale, round to nearest even, saturate to 9 bits, add
// the offset (bits [45:37]), saturate to int8 (sign bit 46 set) or uint8.
template <class D>
inline D quant8(float v, uint64_t p) {
    float x = round_even(clampf(v * quant_scale(p), -256.f, 255.f)) + float((p >> 37) & 0x1ff);
    return D(int(((p >> 46) & 1) ? clampf(x, -128.f, 127.f) : clampf(x, 0.f, 255.f)));
}

[[noreturn]] inline void bad_quant(int quant, int src_bytes, int dst_bytes) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at("Fixpipe"),
                       "Fixpipe: quant mode %d from a %d-byte L0C element to a %d-byte output is not emulated "
                       "(NoQuant, F322F16, F322BF16, QF322B8_PRE, VQF322B8_PRE, DEQF16, VDEQF16, REQ8, VREQ8 are)",
                       quant, src_bytes, dst_bytes);
}

// The parameter of column `col`: the scalar one, or the column's entry of the FB table.
inline uint64_t quant_param(const FixOut& o, uint64_t col) { return o.vq ? o.vq[col] : o.sq; }

template <class D, class S>
inline D fix_convert(S v, const FixOut& o, uint64_t col) {
    using QM = QuantMode_t;
    const QM q = QM(o.quant);
    if (o.relu && v < S(0)) v = S(0);
    if constexpr (std::is_same<S, float>::value) {
        if constexpr (std::is_same<D, float>::value) { if (q == QM::NoQuant) return v; }
        else if constexpr (std::is_same<D, half>::value) { if (q == QM::F322F16) return D(v); }
        else if constexpr (std::is_same<D, bfloat16_t>::value) { if (q == QM::F322BF16) return D(v); }
        else if constexpr (sizeof(D) == 1) {
            if (q == QM::QF322B8_PRE || q == QM::VQF322B8_PRE) return quant8<D>(v, quant_param(o, col));
        }
    } else if constexpr (std::is_same<S, int32_t>::value) {
        if constexpr (std::is_same<D, int32_t>::value) { if (q == QM::NoQuant) return v; }
        else if constexpr (std::is_same<D, half>::value) {
            if (q == QM::DEQF16 || q == QM::VDEQF16) return D(float(v) * quant_scale(quant_param(o, col)));
        } else if constexpr (sizeof(D) == 1) {
            if (q == QM::REQ8 || q == QM::VREQ8) return quant8<D>(float(v), quant_param(o, col));
        }
    }
    bad_quant(o.quant, int(sizeof(S)), int(sizeof(D)));
}

inline bool vector_quant(int q) {
    using QM = QuantMode_t;
    const QM m = QM(q);
    return m == QM::VDEQF16 || m == QM::VREQ8 || m == QM::VQF322B8_PRE || m == QM::VDEQS16 || m == QM::VQF322F16_PRE;
}

// L0C -> dst: n_size x m_size from L0C (NZ, src_stride rows between 16-column blocks); ND (nz2nd:
// dst[m * dst_stride + n], dst_stride in elements; ND_PARA: ndNum matrices, L0C srcNdStride x 1024 bytes
// and dst dstNdStride elements apart) or NZ (16-column blocks
// dst_stride * 32 bytes apart; 8-column with channel split). to_gm: GM bounds, races and atomics.
// The output layouts: NZ (dst_stride: 32-byte units on dav_c220, elements on dav_3510, between 16-column
// blocks), ND (row-major, dst_stride elements per row) and DN (dav_3510: column-major, dst_stride elements
// per column).
enum class FixLayout { NZ, ND, DN };
inline uint64_t nz_block_bytes(uint64_t dst_stride, uint64_t esize) {
    return kDav3510 ? dst_stride * esize : dst_stride * 32;
}

// Where Fixpipe writes: GM (bounds, races and atomics through rt), or a local buffer checked against `buf`
// (this core's L1; on dav_3510 also an AIV's UB).
struct FixDst {
    int hw = HW_GM;
    LocalBuf buf{};
    void* inbox = nullptr;   // a peer's buffer: its inbox (peer.h)
};
inline FixDst fix_to_gm() { return FixDst{}; }
inline FixDst fix_to_local(int hw) { return FixDst{hw, bufs[hw]}; }

template <class D, class S>
inline void fixpipe(D* dst, S* src, uint64_t n_size, uint64_t m_size, uint64_t dst_stride, uint64_t src_stride,
                    uint64_t unit_flag, int quant, uint64_t relu, bool channel_split, FixLayout layout,
                    const FixDst& to, const char* name) {
    const bool nz2nd = layout == FixLayout::ND, to_gm = to.hw == HW_GM;
    tick();
    check_unit_flag(unit_flag, name);
    if (relu > 1) unsupported(name, "a relu mode other than 0 (off) and 1 (normal relu)");
    if (n_size == 0 || m_size == 0) return;
    FixOut o;
    o.quant = quant, o.relu = relu == 1, o.sq = regs.quant_pre;
    if (vector_quant(quant)) {
        // FPC[15:8] holds the quant table's FB address in 128-byte units; the library's CPU mode stores the
        // whole pointer shifted right by 7, dropping its low bits. The table sits 128-byte aligned within FB
        // (as on the device), so those bits are FB's base modulo 128.
        o.vq = reinterpret_cast<const uint64_t*>(((regs.fpc >> 8) << 7) + (bufs[HW_FIXBUF].base & 127));
        check_buf(HW_FIXBUF, o.vq, n_size * 8, name, "quant table (FB, from FPC)");
    }
    const uint64_t nd = nz2nd ? ((regs.nd_para & 0xffff) ? (regs.nd_para & 0xffff) : 1) : 1;
    const uint64_t src_nd = (regs.nd_para >> 16) & 0xffff, dst_nd = (regs.nd_para >> 32) & 0xffff;
    if (nd > 1 && src_nd == 0) unsupported(name, "ndNum > 1 with srcNdStride 0");
    const uint64_t c0o = channel_split ? 8 : (sizeof(D) == 1 ? 32 : 16);   // NZ output columns per block
    if (channel_split && (sizeof(S) != 4 || sizeof(D) != 4 || layout != FixLayout::NZ))
        unsupported(name, "channel split other than float L0C to float NZ output");
    // L0C extent read.
    const uint64_t src_need = ((nd - 1) * src_nd * 256 + ((n_size - 1) / 16) * src_stride * 16 + (m_size - 1) * 16 +
                               (n_size - 1) % 16 + 1) * sizeof(S);
    check_buf(HW_L0C, src, src_need, name, "src (L0C)");
    static thread_local std::vector<D> row;
    row.resize(n_size > c0o ? n_size : c0o);
    PeerWriter local(to.buf, to.inbox);
    const auto put = [&](D* d, const D* s, uint64_t count) {
        if (to_gm) store_gm(reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(s), count * sizeof(D));
        else local.put(reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(s), count * sizeof(D));
    };
    for (uint64_t k = 0; k < nd; ++k) {
        const S* sk = src + k * src_nd * 256;     // srcNdStride: 1024-byte units (16 x 16 of 4 bytes)
        D* dk = dst + k * dst_nd;
        if (layout == FixLayout::DN) {
            // Column j of the block goes to dst + j * dst_stride, its m_size elements contiguous.
            if (to_gm) gm_side(dk, m_size * sizeof(D), n_size, dst_stride * sizeof(D), true, name);
            else check_in(to.buf, to.hw, dk, ((n_size - 1) * dst_stride + m_size) * sizeof(D), name, "dst");
            row.resize(m_size);
            for (uint64_t j = 0; j < n_size; ++j) {
                for (uint64_t i = 0; i < m_size; ++i)
                    row[i] = fix_convert<D>(sk[(j / 16) * src_stride * 16 + i * 16 + j % 16], o, j);
                put(dk + j * dst_stride, row.data(), m_size);
            }
        } else if (nz2nd) {
            if (to_gm) gm_side(dk, n_size * sizeof(D), m_size, dst_stride * sizeof(D), true, name);
            else check_in(to.buf, to.hw, dk, ((m_size - 1) * dst_stride + n_size) * sizeof(D), name, "dst");
            for (uint64_t i = 0; i < m_size; ++i) {
                for (uint64_t j = 0; j < n_size; ++j)
                    row[j] = fix_convert<D>(sk[(j / 16) * src_stride * 16 + i * 16 + j % 16], o, j);
                put(dk + i * dst_stride, row.data(), n_size);
            }
        } else {
            // NZ out: column block b of c0o columns is m_size rows of c0o elements, block_bytes apart.
            const uint64_t blocks = (n_size + c0o - 1) / c0o, block_bytes = nz_block_bytes(dst_stride, sizeof(D));
            if (block_bytes < m_size * c0o * sizeof(D) && blocks > 1)
                ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, at(name),
                                   "%s: dstStride %llu (%llu bytes) is shorter than one NZ block of %llu rows",
                                   name, (unsigned long long)dst_stride, (unsigned long long)block_bytes,
                                   (unsigned long long)m_size);
            auto* db = reinterpret_cast<uint8_t*>(dk);
            if (to_gm) gm_side(db, m_size * c0o * sizeof(D), blocks, block_bytes, true, name);
            else check_in(to.buf, to.hw, db, (blocks - 1) * block_bytes + m_size * c0o * sizeof(D), name, "dst");
            for (uint64_t bl = 0; bl < blocks; ++bl) {
                const uint64_t cols = (n_size - bl * c0o) < c0o ? n_size - bl * c0o : c0o;
                for (uint64_t i = 0; i < m_size; ++i) {
                    for (uint64_t jj = 0; jj < cols; ++jj) {
                        const uint64_t j = bl * c0o + jj;
                        row[jj] = fix_convert<D>(sk[(j / 16) * src_stride * 16 + i * 16 + j % 16], o, j);
                    }
                    put(reinterpret_cast<D*>(db + bl * block_bytes) + i * c0o, row.data(), cols);
                }
            }
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::FIX, nd * m_size * n_size * sizeof(D));
}

}  // namespace ascgen_devkit

// ---- the intrinsics -----------------------------------------------------------------------------------

#define ASCGEN_DEVKIT_ND2NZ(suffix, es)                                                                        \
    template <class D, class S>                                                                               \
    inline void copy_gm_to_cbuf_multi_nd2nz_##suffix(D* dst, S* src, uint64_t /*sid*/, uint64_t nd,          \
                                                     uint64_t n, uint64_t d, uint64_t src_nd_stride,         \
                                                     uint64_t src_d, uint64_t c0_stride, uint64_t n_stride,  \
                                                     uint64_t dst_nd_stride) {                                \
        ascgen_devkit::nd2nz<es>((void*)dst, (const void*)src, nd, n, d, src_nd_stride, src_d, c0_stride,     \
                                 n_stride, dst_nd_stride, "copy_gm_to_cbuf_multi_nd2nz_" #suffix);            \
    }
ASCGEN_DEVKIT_ND2NZ(b8, 1)
ASCGEN_DEVKIT_ND2NZ(b16, 2)
ASCGEN_DEVKIT_ND2NZ(b32s, 4)
#undef ASCGEN_DEVKIT_ND2NZ

template <class T>
inline void load_cbuf_to_ca(T* dst, T* src, uint64_t start, uint64_t repeat, uint64_t src_stride, uint64_t dst_gap,
                            uint64_t /*sid*/, uint64_t transpose, addr_cal_mode_t mode) {
    ascgen_devkit::load2d(ascgen_devkit::HW_L0A, dst, src, sizeof(T), start, repeat, src_stride, dst_gap,
                          transpose != 0, int(mode), "load_cbuf_to_ca");
}
template <class T>
inline void load_cbuf_to_cb(T* dst, T* src, uint64_t start, uint64_t repeat, uint64_t src_stride, uint64_t dst_gap,
                            uint64_t /*sid*/, uint64_t transpose, addr_cal_mode_t mode) {
    ascgen_devkit::load2d(ascgen_devkit::HW_L0B, dst, src, sizeof(T), start, repeat, src_stride, dst_gap,
                          transpose != 0, int(mode), "load_cbuf_to_cb");
}

template <class C, class A, class B>
inline void mad(C* c, A* a, B* b, uint64_t m, uint64_t k, uint64_t n, uint64_t unit_flag, bool k_align,
                bool c_from_bt, bool init) {
    // C from the bias table without an explicit address: the table starts at BT's base (the library's
    // CPU-mode BT, also when no TPipe reported it: static-tensor kernels).
    const C* bias = c_from_bt ? reinterpret_cast<const C*>(ascgen_devkit::library_bt_base()) : nullptr;
    ascgen_devkit::mad_impl(c, a, b, bias, m, k, n, unit_flag, k_align, init);
}
template <class C, class A, class B>
inline void mad(C* c, A* a, B* b, uint64_t bias_addr, uint64_t m, uint64_t k, uint64_t n, uint64_t unit_flag,
                bool k_align, bool c_from_bt, bool init) {
    // With a bias tensor: in BT, C starts from it; in L0C (c_from_bt false), C accumulates onto L0C.
    const C* bias = c_from_bt ? reinterpret_cast<const C*>(bias_addr) : nullptr;
    ascgen_devkit::mad_impl(c, a, b, bias, m, k, n, unit_flag, k_align, c_from_bt ? init : false);
}

template <class D, class S>
inline void copy_matrix_cc_to_gm(D* dst, S* src, uint64_t /*sid*/, uint64_t n_size, uint64_t m_size,
                                 uint64_t dst_stride, uint64_t src_stride, uint64_t unit_flag, QuantMode_t quant,
                                 uint64_t relu, bool channel_split, bool nz2nd) {
    ascgen_devkit::fixpipe(dst, src, n_size, m_size, dst_stride, src_stride, unit_flag, int(quant), relu,
                           channel_split, nz2nd ? ascgen_devkit::FixLayout::ND : ascgen_devkit::FixLayout::NZ,
                           ascgen_devkit::fix_to_gm(), "copy_matrix_cc_to_gm");
}
template <class D, class S>
inline void copy_matrix_cc_to_cbuf(D* dst, S* src, uint64_t /*sid*/, uint64_t n_size, uint64_t m_size,
                                   uint64_t dst_stride, uint64_t src_stride, uint64_t unit_flag, QuantMode_t quant,
                                   uint64_t relu, bool channel_split, bool nz2nd) {
    ascgen_devkit::fixpipe(dst, src, n_size, m_size, dst_stride, src_stride, unit_flag, int(quant), relu,
                           channel_split, nz2nd ? ascgen_devkit::FixLayout::ND : ascgen_devkit::FixLayout::NZ,
                           ascgen_devkit::fix_to_local(ascgen_devkit::HW_L1), "copy_matrix_cc_to_cbuf");
}

inline void set_fpc(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::regs.fpc = v; }
// ND_PARA is also the library's g_fixpipeNdNzParam (CANN's CPU model keeps the two equal): its CPU-mode
// checks of a Fixpipe DataCopy read the global.
inline void set_nd_para(uint64_t v) {
    ascgen_devkit::tick();
    ascgen_devkit::regs.nd_para = v;
    g_fixpipeNdNzParam = v;
}
inline void set_quant_pre(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::regs.quant_pre = v; }

// L1 -> FB: nburst bursts of len x 128 bytes (FB units); gaps in the same units.
template <class D, class S>
inline void copy_cbuf_to_fbuf(D* dst, S* src, uint64_t nburst, uint64_t len, uint64_t src_gap, uint64_t dst_gap) {
    using namespace ascgen_devkit;
    tick();
    constexpr const char* name = "copy_cbuf_to_fbuf";
    const uint64_t b = len * 128, ss = b + src_gap * 128, ds = b + dst_gap * 128;
    if (nburst == 0 || b == 0) return;
    check_buf(HW_L1, src, (nburst - 1) * ss + b, name, "src (L1)");
    check_buf(HW_FIXBUF, dst, (nburst - 1) * ds + b, name, "dst (FB)");
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, ds, ss, false);
    ::ascgen::rt::cost(::ascgen::rt::pipe::FIX, nburst * b);
}

// L1 -> BT: nburst bursts of len x 64 bytes of BT; `conv` converts half in L1 to float in BT (the L1
// side then holds half as many bytes). Gaps: L1 in 32-byte blocks, BT in 64-byte blocks.
template <class S>
inline void copy_cbuf_to_bt(uint64_t dst, S* src, uint64_t conv, uint64_t nburst, uint64_t len, uint64_t src_gap,
                            uint64_t dst_gap) {
    using namespace ascgen_devkit;
    tick();
    constexpr const char* name = "copy_cbuf_to_bt";
    const uint64_t db = len * 64, sb = conv ? db / 2 : db;
    const uint64_t ss = sb + src_gap * 32, ds = db + dst_gap * 64;
    if (nburst == 0 || db == 0) return;
    auto* d = reinterpret_cast<uint8_t*>(dst);
    auto* s = reinterpret_cast<const uint8_t*>(src);
    check_buf(HW_L1, s, (nburst - 1) * ss + sb, name, "src (L1)");
    check_buf(HW_BIAS, d, (nburst - 1) * ds + db, name, "dst (BT)");
    for (uint64_t i = 0; i < nburst; ++i) {
        if (!conv) {
            std::memmove(d + i * ds, s + i * ss, db);
        } else {
            const auto* h = reinterpret_cast<const half*>(s + i * ss);
            auto* f = reinterpret_cast<float*>(d + i * ds);
            for (uint64_t e = 0; e < db / 4; ++e) f[e] = float(h[e]);
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, nburst * db);
}

inline void set_fmatrix(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::regs.fmatrix = v; }
inline void set_fmatrix_b(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::regs.fmatrix_b = v; }

#define ASCGEN_DEVKIT_IMG2COL(name, hw)                                                                        \
    template <class T>                                                                                        \
    inline void name(T* dst, T* src, uint16_t k_ext, uint16_t m_ext, uint16_t k_start, uint16_t m_start,       \
                     uint8_t stride_w, uint8_t stride_h, uint8_t filter_w, uint8_t filter_h, uint8_t dil_w,   \
                     uint8_t dil_h, bool filter_size_w, bool filter_size_h, bool transpose, bool fmatrix_ctrl, \
                     uint16_t channels) {                                                                     \
        /* filterSizeW/H add 256 to the 8-bit filter sizes */                                                  \
        ascgen_devkit::Img2col p{k_ext, m_ext, k_start, m_start, stride_w, stride_h,                           \
                                 uint64_t(filter_w) + (filter_size_w ? 256u : 0u),                            \
                                 uint64_t(filter_h) + (filter_size_h ? 256u : 0u), dil_w, dil_h, channels,    \
                                 transpose, fmatrix_ctrl};                                                     \
        ascgen_devkit::img2col(hw, dst, src, p, #name);                                                        \
    }
ASCGEN_DEVKIT_IMG2COL(img2colv2_cbuf_to_ca, ascgen_devkit::HW_L0A)
ASCGEN_DEVKIT_IMG2COL(img2colv2_cbuf_to_cb, ascgen_devkit::HW_L0B)
#undef ASCGEN_DEVKIT_IMG2COL

template <class T>
inline void load_cbuf_to_ca_transpose(T* dst, T* src, uint64_t start, uint64_t repeat, uint64_t src_stride,
                                      uint64_t dst_gap, addr_cal_mode_t mode, uint64_t frac_gap) {
    ascgen_devkit::load_transpose(ascgen_devkit::HW_L0A, dst, src, start, repeat, src_stride, dst_gap, int(mode),
                                  frac_gap, "load_cbuf_to_ca_transpose");
}
template <class T>
inline void load_cbuf_to_cb_transpose(T* dst, T* src, uint64_t start, uint64_t repeat, uint64_t src_stride,
                                      uint64_t dst_gap, addr_cal_mode_t mode, uint64_t frac_gap) {
    ascgen_devkit::load_transpose(ascgen_devkit::HW_L0B, dst, src, start, repeat, src_stride, dst_gap, int(mode),
                                  frac_gap, "load_cbuf_to_cb_transpose");
}

// ---- constant fill of L1 / L0A / L0B (InitConstValue: create_cbuf_matrix, create_ca_matrix, create_cb_matrix) --

// Each repeat writes `blocks` blocks of `value`'s bits, then skips `gap` blocks. dav_c220 packs the shape in
// the config word as InitConstValueParams does: repeat in bits 0-15, blocks per repeat in 16-31, gap in
// 32-47, a block 32 bytes in L1 and 512 bytes in L0A / L0B; dav_m200 takes the repeat only, 512 bytes per
// repeat and no gap (the InitConstValue API page: "each iteration processes 512 B" on the training and
// inference products). dav_3510 has its own rules and stays named-missing (missing.h).
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ != 3510
namespace ascgen_devkit {
template <class V>
inline void fill_matrix(int hw, void* dst, uint64_t config, V value, const char* name) {
    tick();
    uint64_t repeat, block, blocks, gap;
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
    repeat = config & 0xFF, block = FRACTAL, blocks = 1, gap = 0;
#else
    repeat = config & 0x7FFF, blocks = (config >> 16) & 0x7FFF, gap = (config >> 32) & 0x7FFF;
    block = hw == HW_L1 ? 32 : FRACTAL;
#endif
    if (repeat == 0 || blocks == 0) return;
    const uint64_t run = blocks * block, stride = (blocks + gap) * block;
    check_buf(hw, dst, (repeat - 1) * stride + run, name, "dst");
    V pattern[512 / sizeof(V)];
    for (auto& p : pattern) p = value;
    for (uint64_t r = 0; r < repeat; ++r) {
        auto* d = static_cast<uint8_t*>(dst) + r * stride;
        for (uint64_t off = 0; off < run; off += sizeof(pattern))
            std::memcpy(d + off, pattern, std::min<uint64_t>(sizeof(pattern), run - off));
    }
    ::ascgen::rt::cost(hw == HW_L1 ? ::ascgen::rt::pipe::MTE2 : ::ascgen::rt::pipe::MTE1, repeat * run);
}
}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_FILL(name, hw, V)                                                             \
    template <class T>                                                                              \
    inline void name(T* dst, int64_t config, V value) {                                             \
        ascgen_devkit::fill_matrix<V>(hw, (void*)dst, uint64_t(config), value, #name);              \
    }
ASCGEN_DEVKIT_FILL(create_cbuf_matrix, ascgen_devkit::HW_L1, half)
ASCGEN_DEVKIT_FILL(create_cbuf_matrix, ascgen_devkit::HW_L1, uint32_t)
ASCGEN_DEVKIT_FILL(create_cbuf_matrix_bf16, ascgen_devkit::HW_L1, bfloat16_t)
ASCGEN_DEVKIT_FILL(create_ca_matrix, ascgen_devkit::HW_L0A, half)
ASCGEN_DEVKIT_FILL(create_ca_matrix, ascgen_devkit::HW_L0A, uint32_t)
ASCGEN_DEVKIT_FILL(create_ca_matrix_bf16, ascgen_devkit::HW_L0A, bfloat16_t)
ASCGEN_DEVKIT_FILL(create_cb_matrix, ascgen_devkit::HW_L0B, half)
ASCGEN_DEVKIT_FILL(create_cb_matrix, ascgen_devkit::HW_L0B, uint32_t)
ASCGEN_DEVKIT_FILL(create_cb_matrix_bf16, ascgen_devkit::HW_L0B, bfloat16_t)
#undef ASCGEN_DEVKIT_FILL
#endif
