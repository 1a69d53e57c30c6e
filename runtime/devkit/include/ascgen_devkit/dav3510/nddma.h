// dav_3510 multi-dimensional DMA, GM -> UB (nddma_out_to_ub_b8/_b16/_b32): the library's
// DataCopy(LocalTensor, GlobalTensor, MultiCopyParams) (kernel_operator_data_copy_impl.h,
// DataCopyWithNDDMAImpl; 64-bit elements go through it as pairs of 32-bit ones).
//
// Up to 5 nested loops, loop 0 innermost. Loop d has a size n_d, a source and a destination stride in
// elements (set_loopD_stride_nddma: source [59:20], destination [19:0]) and a left / right padding lp_d /
// rp_d (loop 0's in the instruction; loops 1-4 in set_pad_cnt_nddma, byte (2d - 2) left and (2d - 1)
// right). The destination index j_d runs over [0, lp_d + n_d + rp_d) and element j lands at
// dst + sum j_d * dstStride_d. Inside the data (lp_d <= j_d < lp_d + n_d for every d) it is
// src[sum (j_d - lp_d) * srcStride_d]; in the padding it is the pad value (set_pad_val_nddma) in constant
// mode, or in nearest-value mode the source element whose indices are j_d - lp_d clamped into [0, n_d).
// That is how the library's multidimensional_data_movement example describes its scenarios (padding a
// [16, 32] block to [32, 64] with zeros, a [28, 15] block to [32, 32] with the boundary values, a
// transpose by strides, a broadcast by a zero stride). A loop of size 0 leaves nothing to be nearest to and
// no source says what it pads: the model refuses it by name.
#pragma once
#include "../dma.h"

namespace ascgen_devkit {
namespace d3510 {
constexpr int kNdLoops = 5;
struct NdDmaRegs {
    uint64_t stride[kNdLoops] = {};   // [59:20] source, [19:0] destination, in elements
    uint64_t pad_cnt = 0;             // loops 1-4: left at byte 2(d - 1), right at byte 2(d - 1) + 1
    uint64_t pad_val = 0;             // the element's bits
};
inline NdDmaRegs nddma;

struct NdLoop {
    uint64_t n, lp, rp, src_stride, dst_stride;
    uint64_t extent() const { return lp + n + rp; }
};

inline NdLoop nd_loop(int d, uint64_t n, uint64_t lp0, uint64_t rp0) {
    const uint64_t s = nddma.stride[d];
    const uint64_t lp = d == 0 ? lp0 : (nddma.pad_cnt >> (16 * (d - 1))) & 0xff;
    const uint64_t rp = d == 0 ? rp0 : (nddma.pad_cnt >> (16 * (d - 1) + 8)) & 0xff;
    return {n, lp, rp, s >> 20, s & 0xfffff};
}

// The source index along one loop for destination index j: inside the data j - lp, in the padding the
// clamped index (nearest mode) or -1 (constant mode).
inline int64_t nd_source_index(const NdLoop& l, uint64_t j, bool constant) {
    if (j >= l.lp && j < l.lp + l.n) return int64_t(j - l.lp);
    if (constant) return -1;
    return j < l.lp ? 0 : int64_t(l.n - 1);
}

template <int ES>
inline void nddma_in(void* dst, const void* src, const uint64_t (&sizes)[kNdLoops], uint64_t lp0, uint64_t rp0,
                     bool constant, const char* name) {
    ascgen_devkit::tick();
    NdLoop l[kNdLoops];
    for (int d = 0; d < kNdLoops; ++d) {
        l[d] = nd_loop(d, sizes[d], lp0, rp0);
        if (l[d].n == 0)
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at(name),
                               "%s: loop %d has size 0, which the model does not define (runtime/devkit "
                               "dav3510/nddma.h); give every loop of the MultiCopyParams a size of at least 1",
                               name, d);
    }
    auto* d8 = static_cast<uint8_t*>(dst);
    const auto* s8 = static_cast<const uint8_t*>(src);
    uint64_t moved = 0;
    for (uint64_t j4 = 0; j4 < l[4].extent(); ++j4)
    for (uint64_t j3 = 0; j3 < l[3].extent(); ++j3)
    for (uint64_t j2 = 0; j2 < l[2].extent(); ++j2)
    for (uint64_t j1 = 0; j1 < l[1].extent(); ++j1)
    for (uint64_t j0 = 0; j0 < l[0].extent(); ++j0) {
        const uint64_t j[kNdLoops] = {j0, j1, j2, j3, j4};
        uint64_t to = 0, from = 0;
        bool pad = false;
        for (int d = 0; d < kNdLoops; ++d) {
            to += j[d] * l[d].dst_stride;
            const int64_t i = nd_source_index(l[d], j[d], constant);
            if (i < 0) pad = true;
            else from += uint64_t(i) * l[d].src_stride;
        }
        uint8_t* out = d8 + to * ES;
        check_ub(out, ES, name);
        if (pad) {
            std::memcpy(out, &nddma.pad_val, ES);   // the low ES bytes: little-endian, as the host
        } else {
            gm_side(s8 + from * ES, ES, 1, ES, false, name);
            std::memcpy(out, s8 + from * ES, ES);
            ++moved;
        }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, moved * ES);
}
}  // namespace d3510
}  // namespace ascgen_devkit

inline void set_loop0_stride_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.stride[0] = v; }
inline void set_loop1_stride_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.stride[1] = v; }
inline void set_loop2_stride_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.stride[2] = v; }
inline void set_loop3_stride_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.stride[3] = v; }
inline void set_loop4_stride_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.stride[4] = v; }
inline void set_pad_cnt_nddma(uint64_t v) { ascgen_devkit::d3510::nddma.pad_cnt = v; }
template <class V> inline void set_pad_val_nddma(V v) {
    static_assert(std::is_integral<V>::value && sizeof(V) <= 8, "the library passes the pad value's bits");
    ascgen_devkit::d3510::nddma.pad_val = uint64_t(v);
}
// PCIe read control: how the DMA reads host memory over PCIe, nothing the data depends on here.
inline void set_pcie_rd_ctrl(uint64_t) {}

// nddma_out_to_ub_bN(ub, gm, sid, loop0..loop4 sizes, loop0 left / right padding, constant mode, cache)
#define ASCGEN_D3510_NDDMA(bits, ES)                                                                          \
    template <class T>                                                                                        \
    inline void nddma_out_to_ub_##bits(T* dst, T* src, uint64_t /*sid*/, uint64_t n0, uint64_t n1, uint64_t n2, \
                                       uint64_t n3, uint64_t n4, uint64_t lp0, uint64_t rp0, bool constant,   \
                                       uint64_t /*cache*/) {                                                  \
        const uint64_t sizes[ascgen_devkit::d3510::kNdLoops] = {n0, n1, n2, n3, n4};                          \
        ascgen_devkit::d3510::nddma_in<ES>(dst, src, sizes, lp0, rp0, constant, "nddma_out_to_ub_" #bits);    \
    }
ASCGEN_D3510_NDDMA(b8, 1)
ASCGEN_D3510_NDDMA(b16, 2)
ASCGEN_D3510_NDDMA(b32, 4)
#undef ASCGEN_D3510_NDDMA
