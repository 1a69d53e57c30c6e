// 4:2 structured-sparse matmul of dav_c220 (int8): LoadDataWithSparse (`SetIndexMatrix` +
// `load_cbuf_to_cb_sp`) and MmadWithSparse (`mad_sp`), as the library's basic API and its Matmul call them.
//
// B (K x N) keeps at most two nonzeros in every group of four consecutive k. L1 holds it densified: the
// kept values as a K/2 x N int8 matrix in zN fractals (16 n x 32 dense k, 512 bytes), and beside it an
// index matrix of 2-bit entries, one per dense value, in fractals of 16 n x 8 bytes (128 bytes, one per
// dense fractal, in the same order; the Matmul API addresses it at the dense offset / 4). Within an index
// row, entry t' % 32 of the fractal is bits 2 * (t' % 4) of byte (t' % 32) / 4. Dense values 2g and 2g + 1
// come from group g (k = 4g..4g+3): the first at 4g + v, the second at 4g + 1 + v (v its entry: "among the
// first three" / "among the last three", as the examples' golden generators encode it).
//
// load_cbuf_to_cb_sp(dst, src, start, repeat) moves dense fractals start..start+repeat-1 to consecutive
// L0B fractals (the intrinsic takes no strides) and their index fractals with them; the index is kept per
// L0B fractal on the side (the device keeps it inside the cube unit). mad_sp(c, a, b, m, k, n, ...) with k
// the full K: C = bias / 0 / old C + A (m x k, zZ int8 in L0A) x B rebuilt from the dense fractals in L0B
// and their indices (int32, exact).
#pragma once
#include <array>
#include <cstring>
#include <unordered_map>
#include <vector>
#include "cube.h"

namespace ascgen_devkit {

constexpr uint64_t SP_INDEX = FRACTAL / 4;   // index bytes per dense fractal

struct SparseState {
    uint64_t index_l1 = 0;                                                 // SetIndexMatrix
    std::unordered_map<uint64_t, std::array<uint8_t, SP_INDEX>> l0b;      // L0B fractal address -> its index
};
inline SparseState sparse;   // per core: one copy per module (state.h)

inline void load_sparse(void* dst, const void* src, uint64_t start, uint64_t repeat, const char* name) {
    tick();
    if (repeat == 0) return;
    if (sparse.index_l1 == 0 && !unwinding())
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: no index matrix was set (SetIndexMatrix; LoadDataWithSparse sets it)", name);
    const auto* s = static_cast<const uint8_t*>(src) + start * FRACTAL;
    const auto* ix = reinterpret_cast<const uint8_t*>(sparse.index_l1) + start * SP_INDEX;
    auto* d = static_cast<uint8_t*>(dst);
    check_buf(HW_L1, s, repeat * FRACTAL, name, "src (dense B)");
    check_buf(HW_L1, ix, repeat * SP_INDEX, name, "index matrix");
    check_buf(HW_L0B, d, repeat * FRACTAL, name, "dst");
    for (uint64_t i = 0; i < repeat; ++i) {
        std::memmove(d + i * FRACTAL, s + i * FRACTAL, FRACTAL);
        std::memcpy(sparse.l0b[reinterpret_cast<uint64_t>(d + i * FRACTAL)].data(), ix + i * SP_INDEX, SP_INDEX);
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, repeat * (FRACTAL + SP_INDEX));
}

// B (k x n, int32, row t = k index) rebuilt from L0B's dense fractals and their indices.
inline const std::vector<int32_t>& sparse_b(const int8_t* b, uint64_t k, uint64_t n, const char* name) {
    static thread_local std::vector<int32_t> full;
    full.assign(k * n, 0);
    const uint64_t nf = (n + 15) / 16, kd = k / 2;
    for (uint64_t tf = 0; tf < (kd + 31) / 32; ++tf)
        for (uint64_t jb = 0; jb < nf; ++jb) {
            const int8_t* frac = b + (tf * nf + jb) * FRACTAL;
            const auto it = sparse.l0b.find(reinterpret_cast<uint64_t>(frac));
            if (it == sparse.l0b.end())
                ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                                   "%s: the L0B fractal at L0B%+lld has no sparse index: load B with "
                                   "LoadDataWithSparse (load_cbuf_to_cb_sp)", name,
                                   (long long)(reinterpret_cast<uint64_t>(frac) - bufs[HW_L0B].base));
            for (uint64_t jj = 0; jj < 16 && jb * 16 + jj < n; ++jj)
                for (uint64_t tt = 0; tt < 32 && tf * 32 + tt < kd; ++tt) {
                    const uint64_t t = tf * 32 + tt, j = jb * 16 + jj;
                    const unsigned v = (it->second[jj * 8 + tt / 4] >> (2 * (tt % 4))) & 3u;
                    const uint64_t pos = 4 * (t / 2) + (t % 2) + v;
                    if (pos >= 4 * (t / 2) + 4 || pos >= k)
                        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                                           "%s: index %u of dense value %llu of column %llu points past its group of "
                                           "four (k %llu)", name, v, (unsigned long long)t, (unsigned long long)j,
                                           (unsigned long long)pos);
                    full[pos * n + j] += int32_t(frac[jj * 32 + tt]);
                }
        }
    return full;
}

inline void mad_sparse(int32_t* c, const int8_t* a, const int8_t* b, const int32_t* bias, uint64_t m, uint64_t k,
                       uint64_t n, uint64_t unit_flag, bool init) {
    constexpr const char* name = "mad_sp";
    tick();
    check_unit_flag(unit_flag, name);
    if (m == 0 || n == 0) return;
    if (k % 4 != 0 && !unwinding())
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: k = %llu is not a multiple of 4 (4:2 sparsity keeps 2 of every 4)", name,
                           (unsigned long long)k);
    const uint64_t mf = (m + 15) / 16, nf = (n + 15) / 16, kf = (k + 31) / 32;
    check_buf(HW_L0A, a, mf * kf * FRACTAL, name, "a (L0A)");
    check_buf(HW_L0B, b, ((k / 2 + 31) / 32) * nf * FRACTAL, name, "b (L0B, dense)");
    check_buf(HW_L0C, c, mf * nf * 256 * sizeof(int32_t), name, "c (L0C)");
    if (bias) check_buf(HW_BIAS, bias, n * sizeof(int32_t), name, "bias (BT)");
    const std::vector<int32_t>& bf = sparse_b(b, k, n, name);
    static thread_local std::vector<int32_t> row;
    row.resize(k);
    for (uint64_t i = 0; i < m; ++i) {
        for (uint64_t t = 0; t < k; ++t) row[t] = a[((i / 16) * kf + t / 32) * FRACTAL + (i % 16) * 32 + t % 32];
        for (uint64_t j = 0; j < n; ++j) {
            int32_t sum = 0;
            for (uint64_t t = 0; t < k; ++t) sum += row[t] * bf[t * n + j];
            int32_t& out = c[((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16];
            const int32_t base = bias ? bias[j] : init ? 0 : out;
            out = int32_t(uint32_t(base) + uint32_t(sum));
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::M, m * n * k / 2);
}

}  // namespace ascgen_devkit

// ---- the intrinsics -----------------------------------------------------------------------------------

template <class D, class S, class I0, class I1>
inline void load_cbuf_to_cb_sp(D* dst, S* src, I0 start, I1 repeat) {
    ascgen_devkit::load_sparse((void*)dst, (const void*)src, uint64_t(start), uint64_t(repeat), "load_cbuf_to_cb_sp");
}

template <class C, class A, class B, class I0, class I1, class I2, class I3>
inline void mad_sp(C* c, A* a, B* b, I0 m, I1 k, I2 n, I3 unit_flag, bool c_from_bt, bool init) {
    static_assert(std::is_same<C, int32_t>::value && sizeof(A) == 1 && sizeof(B) == 1,
                  "ascgen devkit: mad_sp is int8 x int8 into int32");
    // C from the bias table: as for mad (cube.h), the table starts at BT's base.
    const int32_t* bias = c_from_bt ? reinterpret_cast<const int32_t*>(ascgen_devkit::library_bt_base()) : nullptr;
    ascgen_devkit::mad_sparse(c, reinterpret_cast<const int8_t*>(a), reinterpret_cast<const int8_t*>(b), bias,
                              uint64_t(m), uint64_t(k), uint64_t(n), uint64_t(unit_flag), init);
}
