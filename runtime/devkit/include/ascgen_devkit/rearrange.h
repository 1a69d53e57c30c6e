// Data-rearranging vector intrinsics: broadcast of elements to blocks (vbrcb), gathers by byte offset
// (vgather, vgatherb), the masked compaction behind GatherMask (vreducev2, get_rsvd_cnt), the 16 x 16
// transpose (vtranspose) and the NCHW -> NC1HWC0 scatter (scatter_vnchwconv_b8/b16/b32 over the VA address
// registers that set_va_reg_sb fills).
//
// Every UB operand is checked against this core's UB once per instruction, or per block where the
// instruction addresses blocks one by one (address lists, offsets).
#pragma once
#include <cstring>
#include <vector>
#include "vector.h"

namespace ascgen_devkit {

inline uint8_t* bytes_of(const void* p) { return reinterpret_cast<uint8_t*>(const_cast<void*>(p)); }

// A block read from an address list: inside UB and 32-byte aligned, like every vector operand.
inline uint8_t* list_block(uint64_t addr, const char* name) {
    uint8_t* p = reinterpret_cast<uint8_t*>(addr);
    check_ub(p, BLOCK, name);
    check_aligned32(p, name);
    return p;
}

// GatherMask's built-in patterns 1..7: which lanes of every group a pattern keeps.
inline bool builtin_pattern(uint64_t mode, uint64_t lane) {
    switch (mode) {
        case 1: return lane % 2 == 0;
        case 2: return lane % 2 == 1;
        case 3: return lane % 4 == 0;
        case 4: return lane % 4 == 1;
        case 5: return lane % 4 == 2;
        case 6: return lane % 4 == 3;
        default: return true;  // 7
    }
}

// The 16 x 16 (or 16 x 8, 16 x 16-byte) matrix of one scatter_vnchwconv iteration, by element size.
template <int ESIZE>
inline void vnchwconv_repeat(const uint64_t (&dst)[16], const uint64_t (&src)[16], uint64_t r, uint64_t dr,
                             uint64_t sr, bool dst_high, bool src_high, const char* name) {
    uint8_t m[16][BLOCK];  // the 16 source blocks, read before any write (the library transposes in place)
    for (int i = 0; i < 16; ++i) std::memcpy(m[i], list_block(src[i] + r * sr * BLOCK, name), BLOCK);
    uint8_t* out[16];
    for (int k = 0; k < 16; ++k) out[k] = list_block(dst[k] + r * dr * BLOCK, name);
    if constexpr (ESIZE == 2) {  // column k of the 16 x 16 matrix -> destination block k
        for (int k = 0; k < 16; ++k)
            for (int i = 0; i < 16; ++i) std::memcpy(out[k] + i * 2, m[i] + k * 2, 2);
    } else if constexpr (ESIZE == 4) {  // column k (8 per block) -> blocks 2k (rows 0-7) and 2k+1 (rows 8-15)
        for (int k = 0; k < 8; ++k)
            for (int i = 0; i < 16; ++i) std::memcpy(out[2 * k + i / 8] + (i % 8) * 4, m[i] + k * 4, 4);
    } else {  // bytes: one half of each source block; column k -> one half of destination block k
        const int s0 = src_high ? 16 : 0, d0 = dst_high ? 16 : 0;
        for (int k = 0; k < 16; ++k)
            for (int i = 0; i < 16; ++i) out[k][d0 + i] = m[i][s0 + k];
    }
}

template <int ESIZE>
inline void vnchwconv(int dst_reg, int src_reg, uint64_t repeat, uint64_t dr, uint64_t sr, bool dst_high,
                      bool src_high, const char* name) {
    tick();
    if (dst_reg < 0 || dst_reg > 6 || src_reg < 0 || src_reg > 6)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name), "%s: address registers VA%d / VA%d out of range",
                           name, dst_reg, src_reg);
    uint64_t dst[16], src[16];
    for (int i = 0; i < 8; ++i) {
        dst[i] = regs.va[dst_reg][i], dst[8 + i] = regs.va[dst_reg + 1][i];
        src[i] = regs.va[src_reg][i], src[8 + i] = regs.va[src_reg + 1][i];
    }
    for (uint64_t r = 0; r < repeat; ++r) vnchwconv_repeat<ESIZE>(dst, src, r, dr, sr, dst_high, src_high, name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * 16 * BLOCK / ESIZE);
}

}  // namespace ascgen_devkit

// vbrcb(dst, src, dst block stride, dst repeat stride, repeat): iteration r reads 8 consecutive source
// elements; element j fills the whole 32-byte block r * dst repeat stride + j * dst block stride of dst.
template <class T>
inline void vbrcb(T* dst, T* src, uint64_t db, uint64_t dr, uint64_t repeat) {
    using namespace ascgen_devkit;
    tick();
    constexpr uint64_t epb = BLOCK / sizeof(T);
    check_ub(src, repeat * 8 * sizeof(T), "vbrcb");
    if (repeat) check_ub(dst, ((repeat - 1) * dr + 7 * db) * BLOCK + BLOCK, "vbrcb");
    // Every source element is read before any block is written: the library broadcasts in place
    // (AntiQuant's Brcb(t, t[k], ...), RmsNorm's reduction broadcast).
    const std::vector<T> values(src, src + repeat * 8);
    for (uint64_t r = 0; r < repeat; ++r)
        for (uint64_t j = 0; j < 8; ++j) {
            const T v = values[r * 8 + j];
            T* blk = reinterpret_cast<T*>(bytes_of(dst) + (r * dr + j * db) * BLOCK);
            for (uint64_t e = 0; e < epb; ++e) blk[e] = v;
        }
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * 8 * epb);
}

// vgather(dst, offsets, source address, dst repeat stride, repeat): active element e of iteration r is the
// element at byte offset offsets[r * lanes + e] from the source. The instruction carries only the low 32
// bits of the source address; the library's CPU mode passes the whole address first
// (AscendC::SetModelGatherbSrc0Tensor, model.h), which is where the high bits come from.
namespace ascgen_devkit {
inline uint8_t* gather_base(uint64_t low32, const char* name) {
    if (regs.gather_src == 0 || (regs.gather_src & 0xffffffffull) != (low32 & 0xffffffffull))
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: no source tensor was announced for this gather (SetModelGatherbSrc0Tensor)", name);
    return reinterpret_cast<uint8_t*>(regs.gather_src);
}
}  // namespace ascgen_devkit

// (Integer parameters are deduced so this form, not missing.h's dav_m200 declaration, is the exact match.)
template <class T, class A, class R, class N>
inline void vgather(T* dst, uint32_t* offsets, A src_addr, R dr, N repeat) {
    using namespace ascgen_devkit;
    tick();
    const uint64_t per = 256 / sizeof(T);
    uint8_t* base = gather_base(src_addr, "vgather");
    Operand d = op(dst, 1, dr);
    Plan p = plan(repeat, per);
    check_ub(d.base, d.extent(p.repeats, per), "vgather");
    check_ub(offsets, p.repeats * per * 4, "vgather");
    // A repeat reads all its sources before it writes (as vbrcb does): a gather of a buffer into itself
    // (a RoPE pair swap) must not read lanes the same repeat already overwrote.
    std::vector<T> lanes(per);
    for (uint64_t r = 0; r < p.repeats; ++r) {
        for (uint64_t e = 0; e < per; ++e) {
            if (!p.active(r, e)) continue;
            const uint8_t* s = base + offsets[r * per + e];
            check_ub(s, sizeof(T), "vgather");
            std::memcpy(&lanes[e], s, sizeof(T));
        }
        for (uint64_t e = 0; e < per; ++e)
            if (p.active(r, e)) std::memcpy(d.at(r, e), &lanes[e], sizeof(T));
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per);
}

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
// dav_m200's form: the same gather, its operands packed in one config word (the library's GatherImpl
// writes it): source address low 32 bits in bits 0-31, dst repeat stride in bits 32-39, repeat in 56-63.
template <class T, class C>
inline void vgather(T* dst, uint32_t* offsets, C config) {
    const uint64_t word = static_cast<uint64_t>(config);
    vgather(dst, offsets, word & 0xffffffffull, (word >> 32) & 0xffull, (word >> 56) & 0xffull);
}
#endif

// vgatherb(dst, offsets, source address, dst repeat stride, dst block stride, repeat): block j of iteration
// r is the 32-byte block at byte offset offsets[8 r + j] from the source.
template <class T>
inline void vgatherb(T* dst, uint32_t* offsets, uint64_t src_addr, uint64_t dr, uint64_t db, uint64_t repeat) {
    using namespace ascgen_devkit;
    tick();
    uint8_t* base = gather_base(src_addr, "vgatherb");
    check_ub(offsets, repeat * 8 * 4, "vgatherb");
    if (repeat) check_ub(dst, ((repeat - 1) * dr + 7 * db) * BLOCK + BLOCK, "vgatherb");
    uint8_t blocks[8 * BLOCK];   // a repeat's 8 source blocks, read before any is written (see vgather)
    for (uint64_t r = 0; r < repeat; ++r) {
        for (uint64_t j = 0; j < 8; ++j)
            std::memcpy(blocks + j * BLOCK, list_block(uint64_t(base + offsets[r * 8 + j]), "vgatherb"), BLOCK);
        for (uint64_t j = 0; j < 8; ++j) std::memcpy(bytes_of(dst) + (r * dr + j * db) * BLOCK, blocks + j * BLOCK, BLOCK);
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * 8 * BLOCK / sizeof(T));
}

// vreducev2(dst, src0, src1, repeat, src0 block stride, pattern mode, src0 repeat stride, src1 repeat
// stride): keep the lanes whose pattern bit is set, packed in order into dst; get_rsvd_cnt() then says how
// many. Pattern mode 0 reads the bits from src1 (iteration r's at src1 + r * src1 repeat stride blocks),
// 1..7 are the built-in patterns. Normal mode: 256 bytes of lanes per iteration (the mask register is not
// used); counter mode: the mask register's count of lanes per iteration, `repeat` iterations.
template <class T, class U>
inline void vreducev2(T* dst, T* src0, U* src1, uint64_t repeat, uint64_t sb, uint64_t mode, uint64_t sr,
                      uint64_t pr) {
    using namespace ascgen_devkit;
    tick();
    if (mode > 7)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at("vreducev2"), "vreducev2: pattern mode %llu outside 0..7",
                           (unsigned long long)mode);
    const uint64_t per = counter_mode() ? regs.mask_lo : 256 / sizeof(T);
    Operand s = op(src0, sb, sr);
    check_ub(s.base, s.extent(repeat, per), "vreducev2");
    const uint8_t* pattern = reinterpret_cast<const uint8_t*>(src1);
    if (mode == 0 && repeat && per) check_ub(pattern, ((repeat - 1) * pr * 256 + per + 7) / 8, "vreducev2");
    std::vector<T> kept;  // collected first: dst may overlap src0
    for (uint64_t r = 0; r < repeat; ++r)
        for (uint64_t e = 0; e < per; ++e)
            if (mode == 0 ? get_bit(pattern, r * pr * 256 + e) : builtin_pattern(mode, e))
                kept.push_back(*reinterpret_cast<const T*>(s.at(r, e)));
    check_ub(dst, kept.size() * sizeof(T), "vreducev2");
    if (!kept.empty()) std::memcpy(dst, kept.data(), kept.size() * sizeof(T));
    regs.rsvd_cnt = kept.size();
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * per);
}
inline int64_t get_rsvd_cnt() { return int64_t(ascgen_devkit::regs.rsvd_cnt); }

// vtranspose(dst, src): one 16 x 16 matrix of 2-byte elements, transposed (dst may be src).
inline void vtranspose(uint16_t* dst, uint16_t* src) {
    using namespace ascgen_devkit;
    tick();
    check_ub(src, 512, "vtranspose");
    check_ub(dst, 512, "vtranspose");
    uint16_t m[256];
    std::memcpy(m, src, sizeof m);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) dst[j * 16 + i] = m[i * 16 + j];
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, 256);
}

// set_va_reg_sb(VAn, addresses): 8 UB addresses into address register VAn. scatter_vnchwconv_bN(dst VA,
// src VA, repeat, dst repeat stride, src repeat stride[, dst high half, src high half]) reads 16 source
// blocks (the 8 addresses of src VA then of the next register) and writes 16 destination blocks, each
// address advanced by its repeat stride (in blocks) per iteration.
template <class R>
inline void set_va_reg_sb(R reg, uint64_t* addrs) {
    const int n = int(reg);
    if (n < 0 || n > 7)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ascgen_devkit::at("set_va_reg_sb"),
                           "set_va_reg_sb: address register VA%d out of range", n);
    std::memcpy(ascgen_devkit::regs.va[n], addrs, sizeof ascgen_devkit::regs.va[n]);
}
template <class R>
inline void scatter_vnchwconv_b16(R dst, R src, uint64_t repeat, uint64_t dr, uint64_t sr) {
    ascgen_devkit::vnchwconv<2>(int(dst), int(src), repeat, dr, sr, false, false, "scatter_vnchwconv_b16");
}
template <class R>
inline void scatter_vnchwconv_b32(R dst, R src, uint64_t repeat, uint64_t dr, uint64_t sr) {
    ascgen_devkit::vnchwconv<4>(int(dst), int(src), repeat, dr, sr, false, false, "scatter_vnchwconv_b32");
}
template <class R>
inline void scatter_vnchwconv_b8(R dst, R src, uint64_t repeat, uint64_t dr, uint64_t sr, bool dst_high,
                                 bool src_high) {
    ascgen_devkit::vnchwconv<1>(int(dst), int(src), repeat, dr, sr, dst_high, src_high, "scatter_vnchwconv_b8");
}
