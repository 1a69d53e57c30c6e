// Data movement between GM and UB (MTE2 / MTE3) and within UB. Every GM side goes through
// rt::gm_access_strided (bounds against registered allocations, and a race record); every UB side is
// checked against this core's UB.
//
// Plain forms: `nburst` bursts of `len` 32-byte blocks; the gaps between bursts are in 32-byte blocks.
// Pad forms (_align_bN): `len` is in bytes; a GM->UB burst lands in UB as left padding, the data and right
// padding (elements of N bits, value from set_mov_pad_val), each UB row starting 32-byte aligned; the GM
// gap is in bytes and the UB gap in blocks.
#pragma once
#include <cstring>
#include "state.h"
#include "tasksync.h"

namespace ascgen_devkit {

inline uint64_t align32(uint64_t n) { return (n + 31) & ~uint64_t(31); }

inline void gm_side(const void* gm, uint64_t burst_bytes, uint64_t nburst, uint64_t stride_bytes, bool write,
                    const char* name) {
    if (nburst == 0 || burst_bytes == 0 || unwinding()) return;
    if (nburst == 1 || stride_bytes == burst_bytes)
        ::ascgen::rt::gm_access(gm, burst_bytes * nburst, write, at(name));
    else
        ::ascgen::rt::gm_access_strided(gm, burst_bytes, nburst, stride_bytes, write, at(name));
}
inline void ub_side(const void* ub, uint64_t burst_bytes, uint64_t nburst, uint64_t stride_bytes, const char* name) {
    if (nburst == 0 || burst_bytes == 0) return;
    check_aligned32(ub, name);
    check_ub(ub, (nburst - 1) * stride_bytes + burst_bytes, name);
}

// Atomic accumulation (set_atomic_*): MTE3 combines each element with what GM holds.
template <class T>
inline void accumulate(T* dst, const T* src, uint64_t n) {
    using W = std::conditional_t<std::is_integral<T>::value, T, float>;
    for (uint64_t i = 0; i < n; ++i) {
        W a = W(dst[i]), b = W(src[i]);
        W r = regs.atomic_op == ATOMIC_MAX ? (a > b ? a : b) : regs.atomic_op == ATOMIC_MIN ? (a < b ? a : b) : W(a + b);
        dst[i] = T(r);
    }
}
inline void store_gm(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    switch (regs.atomic - 1) {
        case ATOMIC_F32: return accumulate((float*)dst, (const float*)src, bytes / 4);
        case ATOMIC_F16: return accumulate((half*)dst, (const half*)src, bytes / 2);
        case ATOMIC_BF16: return accumulate((bfloat16_t*)dst, (const bfloat16_t*)src, bytes / 2);
        case ATOMIC_S32: return accumulate((int32_t*)dst, (const int32_t*)src, bytes / 4);
        case ATOMIC_S16: return accumulate((int16_t*)dst, (const int16_t*)src, bytes / 2);
        case ATOMIC_S8: return accumulate((int8_t*)dst, (const int8_t*)src, bytes);
        default: std::memcpy(dst, src, bytes);
    }
}

inline void copy_rows(uint8_t* dst, const uint8_t* src, uint64_t nburst, uint64_t bytes, uint64_t dst_stride,
                      uint64_t src_stride, bool to_gm) {
    for (uint64_t i = 0; i < nburst; ++i) {
        if (to_gm) store_gm(dst + i * dst_stride, src + i * src_stride, bytes);
        else std::memmove(dst + i * dst_stride, src + i * src_stride, bytes);
    }
}

template <int ESIZE>
inline void gm_to_ub_pad(void* dst, void* src, uint64_t nburst, uint64_t len, uint64_t left, uint64_t right,
                         uint64_t src_gap, uint64_t dst_gap, const char* name) {
    ascgen_devkit::tick();
    uint64_t row = align32((left + right) * ESIZE + len);
    gm_side(src, len, nburst, len + src_gap, false, name);
    ub_side(dst, row, nburst, row + dst_gap * 32, name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, len * nburst);
    auto* d = static_cast<uint8_t*>(dst);
    auto* s = static_cast<const uint8_t*>(src);
    for (uint64_t i = 0; i < nburst; ++i) {
        uint8_t* r = d + i * (row + dst_gap * 32);
        for (uint64_t k = 0; k < left; ++k) std::memcpy(r + k * ESIZE, &regs.pad_val, ESIZE);
        std::memcpy(r + left * ESIZE, s + i * (len + src_gap), len);
        for (uint64_t k = 0; k < right; ++k) std::memcpy(r + left * ESIZE + len + k * ESIZE, &regs.pad_val, ESIZE);
    }
}
inline void ub_to_gm_pad(void* dst, void* src, uint64_t nburst, uint64_t len, uint64_t src_gap, uint64_t dst_gap,
                         const char* name) {
    ascgen_devkit::tick();
    uint64_t row = align32(len);
    gm_side(dst, len, nburst, len + dst_gap, true, name);
    ub_side(src, len, nburst, row + src_gap * 32, name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE3, len * nburst);
    copy_rows(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), nburst, len, len + dst_gap,
              row + src_gap * 32, true);
}

}  // namespace ascgen_devkit

inline void copy_gm_to_ubuf(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                            uint64_t dst_gap) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    uint64_t b = len * BLOCK;
    gm_side(src, b, nburst, b + src_gap * BLOCK, false, "copy_gm_to_ubuf");
    ub_side(dst, b, nburst, b + dst_gap * BLOCK, "copy_gm_to_ubuf");
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, b * nburst);
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, b + dst_gap * BLOCK, b + src_gap * BLOCK, false);
}
inline void copy_ubuf_to_gm(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                            uint64_t dst_gap) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    uint64_t b = len * BLOCK;
    gm_side(dst, b, nburst, b + dst_gap * BLOCK, true, "copy_ubuf_to_gm");
    ub_side(src, b, nburst, b + src_gap * BLOCK, "copy_ubuf_to_gm");
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE3, b * nburst);
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, b + dst_gap * BLOCK, b + src_gap * BLOCK, true);
}
inline void copy_ubuf_to_ubuf(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                              uint64_t dst_gap) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    uint64_t b = len * BLOCK;
    ub_side(dst, b, nburst, b + dst_gap * BLOCK, "copy_ubuf_to_ubuf");
    ub_side(src, b, nburst, b + src_gap * BLOCK, "copy_ubuf_to_ubuf");
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, b * nburst);
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, b + dst_gap * BLOCK, b + src_gap * BLOCK, false);
}

#define ASCGEN_DEVKIT_PAD(bits, esize)                                                                         \
    template <class D, class S>                                                                               \
    inline void copy_gm_to_ubuf_align_b##bits(D* dst, S* src, uint64_t, uint64_t nburst, uint64_t len,        \
                                              uint64_t left, uint64_t right, uint64_t src_gap, uint64_t dst_gap) { \
        ascgen_devkit::gm_to_ub_pad<esize>((void*)dst, (void*)src, nburst, len, left, right, src_gap, dst_gap, \
                                           "copy_gm_to_ubuf_align_b" #bits);                                  \
    }                                                                                                         \
    template <class D, class S>                                                                               \
    inline void copy_ubuf_to_gm_align_b##bits(D* dst, S* src, uint64_t, uint64_t nburst, uint64_t len,        \
                                              uint64_t, uint64_t, uint64_t src_gap, uint64_t dst_gap) {       \
        ascgen_devkit::ub_to_gm_pad((void*)dst, (void*)src, nburst, len, src_gap, dst_gap,                     \
                                    "copy_ubuf_to_gm_align_b" #bits);                                         \
    }
ASCGEN_DEVKIT_PAD(8, 1)
ASCGEN_DEVKIT_PAD(16, 2)
ASCGEN_DEVKIT_PAD(32, 4)
#undef ASCGEN_DEVKIT_PAD

// GM <-> L1 (MTE2 / MTE3 on the cube side): the plain burst form, L1 checked like UB.
inline void copy_gm_to_cbuf(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                            uint64_t dst_gap, pad_t = PAD_NONE) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    uint64_t b = len * BLOCK;
    gm_side(src, b, nburst, b + src_gap * BLOCK, false, "copy_gm_to_cbuf");
    if (nburst) check_l1(dst, (nburst - 1) * (b + dst_gap * BLOCK) + b, "copy_gm_to_cbuf");
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE2, b * nburst);
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, b + dst_gap * BLOCK, b + src_gap * BLOCK, false);
}
inline void copy_cbuf_to_gm(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                            uint64_t dst_gap) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    uint64_t b = len * BLOCK;
    gm_side(dst, b, nburst, b + dst_gap * BLOCK, true, "copy_cbuf_to_gm");
    if (nburst) check_l1(src, (nburst - 1) * (b + src_gap * BLOCK) + b, "copy_cbuf_to_gm");
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE3, b * nburst);
    copy_rows((uint8_t*)dst, (const uint8_t*)src, nburst, b, b + dst_gap * BLOCK, b + src_gap * BLOCK, true);
}

// Scalar GM accesses that bypass the data cache (ReadGmByPassDCache / WriteGmByPassDCache): checked and
// recorded like a DMA of one element. `offset` counts elements (the library passes 0).
template <class T>
inline uint64_t ld_dev(T* src, int64_t offset) {
    ascgen_devkit::tick();
    T* p = src + offset;
    ::ascgen::rt::gm_access(p, sizeof(T), false, ascgen_devkit::at("ld_dev"));
    uint64_t out = 0;
    std::memcpy(&out, p, sizeof(T));
    return out;
}
template <class V, class T>
inline void st_dev(V value, T* dst, int64_t offset) {
    ascgen_devkit::tick();
    T* p = dst + offset;
    ::ascgen::rt::gm_access(p, sizeof(T), true, ascgen_devkit::at("st_dev"));
    T v = T(value);
    std::memcpy(p, &v, sizeof(T));
}
