// dav_3510 data movement between GM and UB / L1: the `_align_v2` forms. A transfer is `nburst` bursts of
// `len` bytes; the strides are byte distances from one burst's start to the next (GM side and local
// side). GM -> local may pad each burst with `left` / `right` elements of the pad value
// (set_mov_pad_val). Around the bursts run two loops (set_loop_size_*: loop1 size bits [20:0], loop2
// size [42:21]; set_loop1/2_stride_*: the local stride in bits [63:40], the GM stride in [39:0], bytes).
// GM sides go through rt::gm_access (bounds, races), local sides are checked against the core's UB / L1.
#pragma once
#include "../dma.h"

namespace ascgen_devkit {
namespace d3510 {
struct DmaLoops {
    uint64_t size = (1ull << 21) | 1ull;   // loop1 = loop2 = 1
    uint64_t stride1 = 0, stride2 = 0;
};
inline DmaLoops loops_in, loops_out;       // GM -> local (outtoub), local -> GM (ubtoout)
inline uint64_t st_atomic_cfg = 0;

inline uint64_t loop1_n(const DmaLoops& l) { return l.size & ((1ull << 21) - 1); }
inline uint64_t loop2_n(const DmaLoops& l) { return (l.size >> 21) & ((1ull << 22) - 1); }
inline uint64_t gm_stride(uint64_t s) { return s & ((1ull << 40) - 1); }
inline uint64_t local_stride(uint64_t s) { return s >> 40; }

inline uint64_t align32(uint64_t n) { return (n + 31) / 32 * 32; }

// Fills [from, to) with the pad value, element by element from `from` (an element boundary).
template <int ES>
inline void fill_pad(uint8_t* base, uint64_t from, uint64_t to) {
    for (uint64_t k = from; k < to; ++k) base[k] = reinterpret_cast<const uint8_t*>(&regs.pad_val)[(k - from) % ES];
}

// One set of bursts GM -> local (UB or L1), with padding. The local side is written in 32-byte units: in the
// library's Normal mode (a local stride of at least the 32-byte-aligned row) each burst's row is filled up
// to its 32-byte end with the pad value; in Compact mode (the stride is the row itself: bursts back to back)
// only the end of the whole set is. The example data_copy_pad_gm2ub_ub2gm documents both (scenario 5: 40 B
// rows padded to 64 B; scenario 4: two 40 B rows packed, then padded from 80 B to 96 B).
template <int ES>
inline void bursts_in(uint8_t* dst, const uint8_t* src, uint64_t nburst, uint64_t len, uint64_t left,
                      uint64_t right, uint64_t src_stride, uint64_t dst_stride, bool l1, const char* name) {
    const uint64_t row = left * ES + len + right * ES;
    const uint64_t aligned_row = align32(row);
    const bool compact = dst_stride < aligned_row;
    const uint64_t end = nburst ? (compact ? align32((nburst - 1) * dst_stride + row)
                                           : (nburst - 1) * dst_stride + aligned_row) : 0;
    gm_side(src, len, nburst, src_stride, false, name);
    if (nburst) {
        if (l1) check_l1(dst, end, name);
        else { check_aligned32(dst, name); check_ub(dst, end, name); }
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, len * nburst);
    for (uint64_t i = 0; i < nburst; ++i) {
        uint8_t* r = dst + i * dst_stride;
        fill_pad<ES>(r, 0, left * ES);
        std::memmove(r + left * ES, src + i * src_stride, len);
        fill_pad<ES>(r, left * ES + len, compact ? row : aligned_row);
    }
    if (compact && nburst) fill_pad<ES>(dst, (nburst - 1) * dst_stride + row, end);
}
template <int ES>
inline void copy_in(void* dst, void* src, uint64_t nburst, uint64_t len, uint64_t left, uint64_t right,
                    uint64_t src_stride, uint64_t dst_stride, bool l1, const char* name) {
    ascgen_devkit::tick();
    const DmaLoops& l = loops_in;
    for (uint64_t j = 0; j < loop2_n(l); ++j)
        for (uint64_t i = 0; i < loop1_n(l); ++i)
            bursts_in<ES>(static_cast<uint8_t*>(dst) + i * local_stride(l.stride1) + j * local_stride(l.stride2),
                          static_cast<const uint8_t*>(src) + i * gm_stride(l.stride1) + j * gm_stride(l.stride2),
                          nburst, len, left, right, src_stride, dst_stride, l1, name);
}
inline void copy_out(void* dst, void* src, uint64_t nburst, uint64_t len, uint64_t dst_stride, uint64_t src_stride,
                     const char* name) {
    ascgen_devkit::tick();
    const DmaLoops& l = loops_out;
    for (uint64_t j = 0; j < loop2_n(l); ++j)
        for (uint64_t i = 0; i < loop1_n(l); ++i) {
            uint8_t* d = static_cast<uint8_t*>(dst) + i * gm_stride(l.stride1) + j * gm_stride(l.stride2);
            uint8_t* s = static_cast<uint8_t*>(src) + i * local_stride(l.stride1) + j * local_stride(l.stride2);
            gm_side(d, len, nburst, dst_stride, true, name);
            if (nburst) { check_aligned32(s, name); check_ub(s, (nburst - 1) * src_stride + len, name); }
            ::ascgen::rt::cost(::ascgen::rt::pipe::MTE3, len * nburst);
            copy_rows(d, s, nburst, len, dst_stride, src_stride, true);
        }
}
}  // namespace d3510
}  // namespace ascgen_devkit

// copy_gm_to_ubuf_align_v2(ub, gm, sid, nburst, len, left, right, pad, cache, gm_stride, ub_stride)
template <class T>
inline void copy_gm_to_ubuf_align_v2(T* dst, T* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t left,
                                     uint64_t right, bool /*pad*/, uint64_t /*cache*/, uint64_t src_stride,
                                     uint64_t dst_stride) {
    ascgen_devkit::d3510::copy_in<sizeof(T)>(dst, src, nburst, len, left, right, src_stride, dst_stride, false,
                                             "copy_gm_to_ubuf_align_v2");
}
template <class T>
inline void copy_gm_to_cbuf_align_v2(T* dst, T* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t left,
                                     uint64_t right, bool /*pad*/, uint64_t /*cache*/, uint64_t src_stride,
                                     uint64_t dst_stride) {
    ascgen_devkit::d3510::copy_in<sizeof(T)>(dst, src, nburst, len, left, right, src_stride, dst_stride, true,
                                             "copy_gm_to_cbuf_align_v2");
}
// copy_ubuf_to_gm_align_v2(gm, ub, sid, nburst, len, cache, gm_stride, ub_stride)
inline void copy_ubuf_to_gm_align_v2(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len,
                                     uint64_t /*cache*/, uint64_t dst_stride, uint64_t src_stride) {
    ascgen_devkit::d3510::copy_out(dst, src, nburst, len, dst_stride, src_stride, "copy_ubuf_to_gm_align_v2");
}

inline void set_loop_size_outtoub(uint64_t v) { ascgen_devkit::d3510::loops_in.size = v; }
inline void set_loop1_stride_outtoub(uint64_t v) { ascgen_devkit::d3510::loops_in.stride1 = v; }
inline void set_loop2_stride_outtoub(uint64_t v) { ascgen_devkit::d3510::loops_in.stride2 = v; }
inline void set_loop_size_ubtoout(uint64_t v) { ascgen_devkit::d3510::loops_out.size = v; }
inline void set_loop1_stride_ubtoout(uint64_t v) { ascgen_devkit::d3510::loops_out.stride1 = v; }
inline void set_loop2_stride_ubtoout(uint64_t v) { ascgen_devkit::d3510::loops_out.stride2 = v; }
// The store-atomic configuration register (InitSocState writes its reset value); the atomic modes the
// library selects go through set_atomic_* as on dav_c220.
inline void set_st_atomic_cfg(uint64_t v) { ascgen_devkit::d3510::st_atomic_cfg = v; }
// SetStoreAtomicConfig<type, op>: the same modes as set_atomic_<type>() + set_atomic_<op>().
inline void set_st_atomic_cfg(atomic_type_t type, atomic_op_t op) {
    ascgen_devkit::regs.atomic = type == ATOMIC_NONE ? 0 : int64_t(type) + 1;
    ascgen_devkit::regs.atomic_op = int64_t(op);
}
