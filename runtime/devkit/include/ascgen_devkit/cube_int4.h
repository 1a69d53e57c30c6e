// The int4 cube path of dav_c220: `load_cbuf_to_c[ab]_s4` (load2d), `load_cbuf_to_cb_transpose_s4`,
// `img2colv2_cbuf_to_ca_s4` (load3d v2) and `mad_s4`, as the library's LoadData / LoadDataWithTranspose /
// Mmad on int4b_t tensors call them (with void pointers; the tensors' addresses are bytes, element 2i in
// the low nibble, ascgen/int4.h).
//
// An int4 fractal is 16 rows of 64 elements: 512 bytes, like int8's 16 x 32, so every layout of cube.h
// holds with C0 = 64 nibbles (L1 NZ, L0A zZ, L0B zN) and the fractal-granular moves (load2d) are the
// byte moves of int8. `mad_s4` unpacks its operands to int8 fractals (exact: -8..7 is int8) and runs
// the int8 product, int32 accumulation, of ascgen/gemm.h.
#pragma once
#include <cstring>
#include <vector>
#include "ascgen/int4.h"
#include "cube.h"

namespace ascgen_devkit {

constexpr uint64_t S4_C0 = 64;                  // int4 elements per fractal row
constexpr uint64_t S4_SQUARE = 4 * FRACTAL;     // a 64 x 64 square: four fractals stacked

// LoadDataWithTranspose on int4: each repeat reads one 64 x 64 square S (four consecutive source fractals
// stacked as in NZ, square start + i * srcStride, both in units of squares) and writes S transposed as
// four fractals, rows 16q..16q+15 of the transpose as fractal q: fractal 0 at i * (1 + dstGap) fractals,
// each next one (1 + dstFracGap) fractals after the previous (the b8 rule of load_transpose with four
// fractals instead of two). The asc-devkit example load_data_l12l0 (scenario 2) turns a K x N B in L1
// into L0B's zN this way.
inline void load_transpose_s4(int hw, void* dst, const void* src, uint64_t start, uint64_t repeat,
                              uint64_t src_stride, uint64_t dst_gap, int mode, uint64_t frac_gap, const char* name) {
    tick();
    if (mode != 0) unsupported(name, "the decrementing address mode (addr_cal_mode_t dec)");
    if (repeat == 0) return;
    const auto* s0 = static_cast<const uint8_t*>(src);
    auto* d0 = static_cast<uint8_t*>(dst);
    check_buf(HW_L1, s0 + start * S4_SQUARE, ((repeat - 1) * src_stride + 1) * S4_SQUARE, name, "src");
    check_buf(hw, d0, ((repeat - 1) * (1 + dst_gap) + 1 + 3 * (1 + frac_gap)) * FRACTAL, name, "dst");
    uint8_t sq[S4_SQUARE], out[FRACTAL];
    for (uint64_t i = 0; i < repeat; ++i) {
        std::memcpy(sq, s0 + (start + i * src_stride) * S4_SQUARE, S4_SQUARE);
        for (uint64_t q = 0; q < 4; ++q) {
            for (uint64_t r = 0; r < 16; ++r)           // out row r = column 16q + r of S
                for (uint64_t c = 0; c < S4_C0; ++c)
                    ::ascgen::int4::set_nibble(out, r * S4_C0 + c, ::ascgen::int4::get_nibble(sq, c * S4_C0 + 16 * q + r));
            std::memcpy(d0 + (i * (1 + dst_gap) + q * (1 + frac_gap)) * FRACTAL, out, FRACTAL);
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, repeat * S4_SQUARE);
}

// L0A (zZ) / L0B (zN) of int4 -> the same matrix in int8 fractals (C0 = 32), the layout gemm.h reads.
// In both the K index t runs along C0; `rows` (m for A, n for B) along the 16 rows of a fractal.
// Fractal (row block, t block) sits at rb * kblocks + tb for A (zZ) and tb * rblocks + rb for B (zN).
// Elements outside rows x k are zeros.
inline const int8_t* unpack_s4(const uint8_t* src, uint64_t rows, uint64_t k, bool zn, int slot) {
    static thread_local std::vector<int8_t> buf[2];
    const uint64_t rb = (rows + 15) / 16, kb4 = (k + S4_C0 - 1) / S4_C0, kb8 = (k + 31) / 32;
    std::vector<int8_t>& out = buf[slot];
    out.assign(rb * kb8 * FRACTAL, 0);
    for (uint64_t i = 0; i < rows; ++i)
        for (uint64_t t = 0; t < k; ++t) {
            const uint64_t f4 = zn ? (t / S4_C0) * rb + i / 16 : (i / 16) * kb4 + t / S4_C0;
            const uint64_t f8 = zn ? (t / 32) * rb + i / 16 : (i / 16) * kb8 + t / 32;
            out[f8 * FRACTAL + (i % 16) * 32 + t % 32] =
                int8_t(::ascgen::int4::get_nibble(src, f4 * 2 * FRACTAL + (i % 16) * S4_C0 + t % S4_C0));
        }
    return out.data();
}

// mad_s4: L0C (int32) = bias / 0 / old L0C + A x B on int4 A (m x k, zZ) and B (k x n, zN). k must be
// even (the library asserts it: two int4 per byte). m == 1 is GEMV mode as for mad: A is one row of k
// contiguous elements.
inline void mad_s4_impl(int32_t* c, const void* a, const void* b, const int32_t* bias, uint64_t m, uint64_t k,
                        uint64_t n, uint64_t unit_flag, bool init) {
    constexpr const char* name = "mad_s4";
    tick();
    check_unit_flag(unit_flag, name);
    if (m == 0 || n == 0) return;
    if (k % 2 != 0 && !unwinding())
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: k = %llu is odd; int4 operands need an even k (two elements per byte)", name,
                           (unsigned long long)k);
    const uint64_t mf = (m + 15) / 16, nf = (n + 15) / 16, kf = (k + S4_C0 - 1) / S4_C0;
    const bool gemv = m == 1;
    check_buf(HW_L0A, a, gemv ? (k + 1) / 2 : mf * kf * FRACTAL, name, gemv ? "a (L0A, GEMV mode m == 1)" : "a (L0A)");
    check_buf(HW_L0B, b, kf * nf * FRACTAL, name, "b (L0B)");
    const auto* a4 = static_cast<const uint8_t*>(a);
    const int8_t* a8;
    if (gemv) {
        static thread_local std::vector<int8_t> row;
        row.resize(k);
        for (uint64_t t = 0; t < k; ++t) row[t] = int8_t(::ascgen::int4::get_nibble(a4, t));
        a8 = row.data();
    } else {
        a8 = unpack_s4(a4, m, k, false, 0);
    }
    const int8_t* b8 = unpack_s4(static_cast<const uint8_t*>(b), n, k, true, 1);
    mad_accumulate(c, a8, b8, bias, m, k, n, init, gemv, name);
}

}  // namespace ascgen_devkit

// ---- the intrinsics -----------------------------------------------------------------------------------
// missing.h also declares each name as a variadic catch-all for the arities the library's non-template
// wrappers use (LoadCbufToCaS4's config form, ...); these deduce every argument, so they are more
// specialised and win for the forms the library's LoadData / Mmad call.

template <class D, class S, class I0, class I1, class I2, class I3, class I4, class I5>
inline void load_cbuf_to_ca_s4(D* dst, S* src, I0 start, I1 repeat, I2 src_stride, I3 dst_gap, I4 /*sid*/,
                               I5 transpose, addr_cal_mode_t mode) {
    ascgen_devkit::load2d(ascgen_devkit::HW_L0A, (void*)dst, (const void*)src, 1, uint64_t(start), uint64_t(repeat),
                          uint64_t(src_stride), uint64_t(dst_gap), transpose != 0, int(mode), "load_cbuf_to_ca_s4");
}
template <class D, class S, class I0, class I1, class I2, class I3, class I4, class I5>
inline void load_cbuf_to_cb_s4(D* dst, S* src, I0 start, I1 repeat, I2 src_stride, I3 dst_gap, I4 /*sid*/,
                               I5 transpose, addr_cal_mode_t mode) {
    ascgen_devkit::load2d(ascgen_devkit::HW_L0B, (void*)dst, (const void*)src, 1, uint64_t(start), uint64_t(repeat),
                          uint64_t(src_stride), uint64_t(dst_gap), transpose != 0, int(mode), "load_cbuf_to_cb_s4");
}
template <class D, class S, class I0, class I1, class I2, class I3, class I4>
inline void load_cbuf_to_cb_transpose_s4(D* dst, S* src, I0 start, I1 repeat, I2 src_stride, I3 dst_gap,
                                         addr_cal_mode_t mode, I4 frac_gap) {
    ascgen_devkit::load_transpose_s4(ascgen_devkit::HW_L0B, (void*)dst, (const void*)src, uint64_t(start),
                                     uint64_t(repeat), uint64_t(src_stride), uint64_t(dst_gap), int(mode),
                                     uint64_t(frac_gap), "load_cbuf_to_cb_transpose_s4");
}

template <class D, class S, class I0, class I1, class I2, class I3, class I4, class I5, class I6, class I7,
          class I8, class I9, class B0, class B1, class B2, class B3, class I10>
inline void img2colv2_cbuf_to_ca_s4(D* dst, S* src, I0 k_ext, I1 m_ext, I2 k_start, I3 m_start, I4 stride_w,
                                    I5 stride_h, I6 filter_w, I7 filter_h, I8 dil_w, I9 dil_h, B0 filter_size_w,
                                    B1 filter_size_h, B2 transpose, B3 fmatrix_ctrl, I10 channels) {
    // The same truncations as the typed img2colv2_cbuf_to_ca (the 3dv2Pro form passes shifted configs).
    ascgen_devkit::Img2col p{uint16_t(k_ext), uint16_t(m_ext), uint16_t(k_start), uint16_t(m_start),
                             uint8_t(stride_w), uint8_t(stride_h),
                             uint64_t(uint8_t(filter_w)) + (filter_size_w ? 256u : 0u),
                             uint64_t(uint8_t(filter_h)) + (filter_size_h ? 256u : 0u), uint8_t(dil_w), uint8_t(dil_h),
                             uint16_t(channels), bool(transpose), bool(fmatrix_ctrl)};
    ascgen_devkit::img2col_elems<ascgen_devkit::Int4Elems>(ascgen_devkit::HW_L0A, (void*)dst, (const void*)src, p,
                                                           "img2colv2_cbuf_to_ca_s4");
}

template <class C, class A, class B, class I0, class I1, class I2, class I3>
inline void mad_s4(C* c, A* a, B* b, I0 m, I1 k, I2 n, I3 unit_flag, bool /*k_align*/, bool c_from_bt, bool init) {
    static_assert(std::is_same<C, int32_t>::value, "ascgen devkit: mad_s4 accumulates into int32_t");
    // C from the bias table: as for mad (cube.h), the table starts at BT's base.
    const int32_t* bias = c_from_bt ? reinterpret_cast<const int32_t*>(ascgen_devkit::library_bt_base()) : nullptr;
    ascgen_devkit::mad_s4_impl(c, (const void*)a, (const void*)b, bias, uint64_t(m), uint64_t(k), uint64_t(n),
                               uint64_t(unit_flag), init);
}
