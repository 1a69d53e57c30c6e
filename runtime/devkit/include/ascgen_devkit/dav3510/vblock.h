// dav_3510 block-strided register loads and stores: vsldb / vsstb, the library's LoadAlign / StoreAlign
// with DataCopyMode::DATA_BLOCK_COPY (its level-0 GatherMask, BilinearInterpolation... reach them); and the
// register gathers vgatherb (Reg::GatherB, whole blocks) and vgather2 (Reg::Gather, elements), which opbase's
// atvoss broadcast schedule reaches through the library's Broadcast, and the scatter vscatter (Reg::Scatter).
//
// A register is 8 data blocks of 32 bytes; block k moves from / to UB at address + k * blockStride * 32.
// The configuration word is (blockStride << 16) | repeatStride, both counted in 32-byte blocks (the
// library's C API spells the same word as a union of two 16-bit fields). The post-update form advances the
// address by repeatStride * 32 bytes after the move. The library's non-post calls fold the repeat offset
// into the address and pass repeatStride 0; what the hardware does with a non-zero repeatStride there is
// not documented, so the model refuses it by name rather than guess.
//
// The mask selects whole blocks: the API reference ("non-contiguous aligned move-in / move-out") says a
// block moves when any of its 32 predicate bits is set. A store leaves an unselected block's UB bytes
// alone. For a load the reference says only that such a block is not moved in; the model keeps the
// destination register's previous bytes there (the library's kernels never read those lanes).
#pragma once
#include "vreg.h"

namespace ascgen_devkit {
namespace d3510 {
constexpr int kBlock = 32;
constexpr int kBlocks = VL / kBlock;

inline bool block_selected(const vector_bool& m, int block) {
    for (int i = 0; i < kBlock; ++i)
        if (m.get(block * kBlock + i)) return true;
    return false;
}
inline uint32_t block_stride_of(uint32_t config) { return config >> 16; }
inline uint32_t repeat_stride_of(uint32_t config) { return config & 0xFFFFu; }

// The non-post forms with a repeat stride the library never passes: a named fault, not a guess.
inline void refuse_repeat_without_post(uint32_t config, const char* name) {
    if (repeat_stride_of(config) == 0) return;
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at(name),
                       "%s: repeatStride %u without post-update is not modelled (its meaning is not documented; "
                       "the library folds the repeat offset into the address): runtime/devkit dav3510/vblock.h",
                       name, repeat_stride_of(config));
}

// Block k's UB address, checked against the UB and for 32-byte alignment like every aligned access.
template <class P> inline uint8_t* block_at(P* base, uint32_t config, int k, const char* name) {
    uint8_t* p = reinterpret_cast<uint8_t*>(base) + uint64_t(k) * block_stride_of(config) * kBlock;
    check_local(p, kBlock, true, name);
    return p;
}

template <class V, class P> inline void load_blocks(V& d, P* src, uint32_t config, const vector_bool& m) {
    for (int k = 0; k < kBlocks; ++k)
        if (block_selected(m, k)) std::memcpy(d.b + k * kBlock, block_at(src, config, k, "vsldb"), kBlock);
    cost(V::lanes);
}
template <class V, class P> inline void store_blocks(const V& s, P* dst, uint32_t config, const vector_bool& m) {
    for (int k = 0; k < kBlocks; ++k)
        if (block_selected(m, k)) std::memcpy(block_at(dst, config, k, "vsstb"), s.b + k * kBlock, kBlock);
    cost(V::lanes);
}
// vgatherb: block k comes from UB at base + index lane k, a byte offset (the library's reg_load_gather example
// passes block number * 32); lanes 8 and up of the uint32 index register are not read.
// The mask selects whole blocks, as for vsldb.
template <class V, class P, class I> inline void gather_blocks(V& d, P* base, const I& index, const vector_bool& m) {
    static_assert(sizeof(typename I::elem) == 4, "vgatherb: the index register holds uint32 byte offsets");
    for (int k = 0; k < kBlocks; ++k) {
        if (!block_selected(m, k)) continue;
        uint8_t* p = reinterpret_cast<uint8_t*>(base) + uint64_t(index.e()[k]);
        check_local(p, kBlock, true, "vgatherb");
        std::memcpy(d.b + k * kBlock, p, kBlock);
    }
    cost(V::lanes);
}
// vgather2, same-width forms: lane i is base[index lane i], the index counting elements of the base's type
// (the library's reg_load_gather example: x[index]; its 64-bit Gather doubles the index over a uint32 base).
// Inactive lanes are zero, as in the register ops' only mode (the instruction takes no mode argument; the
// library's callers store under the same mask). The widening b8 -> b16 form stays declared-only (others.h):
// whether it sign-extends is not documented.
template <class V, class P, class I> inline void gather_lanes(V& d, P* base, const I& index, const vector_bool& m) {
    using T = typename V::elem;
    static_assert(sizeof(T) == sizeof(P) && sizeof(typename I::elem) == sizeof(T), "vgather2: same-width form");
    V out;
    std::memset(out.b, 0, VL);
    for (int i = 0; i < V::lanes; ++i) {
        if (!active(m, i, sizeof(T))) continue;
        P* p = base + uint64_t(index.e()[i]);
        check_local(p, sizeof(T), false, "vgather2");
        std::memcpy(&out.e()[i], p, sizeof(T));
    }
    d = out;
    cost(V::lanes);
}
// vscatter, same-width forms: base[index lane i] = lane i for the active lanes, in lane order (two lanes with
// one index: the later lane's value stays; the order is not documented). The b8 form (u16 indices) stays
// declared-only (others.h).
template <class V, class P, class I> inline void scatter_lanes(const V& s, P* base, const I& index, const vector_bool& m) {
    using T = typename V::elem;
    static_assert(sizeof(T) == sizeof(P) && sizeof(typename I::elem) == sizeof(T), "vscatter: same-width form");
    for (int i = 0; i < V::lanes; ++i) {
        if (!active(m, i, sizeof(T))) continue;
        P* p = base + uint64_t(index.e()[i]);
        check_local(p, sizeof(T), false, "vscatter");
        std::memcpy(p, &s.e()[i], sizeof(T));
    }
    cost(V::lanes);
}
// The same-width forms of vgather2 / vscatter: the pointer's element is as wide as the register's lane (the
// data's and the index's). Any other form is the declared-only one of others.h: named as missing at link.
template <class R, class P>
constexpr bool lane_sized =
    sizeof(P) == sizeof(typename std::remove_reference_t<decltype(vr(std::declval<R&>()))>::elem);
template <class P> inline P* after_repeat(P* p, uint32_t config) {
    return reinterpret_cast<P*>(reinterpret_cast<uint8_t*>(p) + uint64_t(repeat_stride_of(config)) * kBlock);
}
}  // namespace d3510
}  // namespace ascgen_devkit

template <class D, class P, ASCGEN_D3510_REG_ONLY(D)>
inline void vsldb(D& dst, P* src, uint32_t config, vector_bool& mask) {
    ascgen_devkit::d3510::refuse_repeat_without_post(config, "vsldb");
    ascgen_devkit::d3510::load_blocks(ascgen_devkit::d3510::vr(dst), src, config, mask);
}
template <class D, class P, ASCGEN_D3510_REG_ONLY(D)>
inline void vsldb(D& dst, P*& src, uint32_t config, vector_bool& mask, std::integral_constant<Post, Post(1)>) {
    ascgen_devkit::d3510::load_blocks(ascgen_devkit::d3510::vr(dst), src, config, mask);
    src = ascgen_devkit::d3510::after_repeat(src, config);
}
template <class S, class P, ASCGEN_D3510_REG_ONLY(S)>
inline void vsstb(S& src, P* dst, uint32_t config, vector_bool& mask) {
    ascgen_devkit::d3510::refuse_repeat_without_post(config, "vsstb");
    ascgen_devkit::d3510::store_blocks(ascgen_devkit::d3510::vr(src), dst, config, mask);
}
template <class S, class P, ASCGEN_D3510_REG_ONLY(S)>
inline void vsstb(S& src, P*& dst, uint32_t config, vector_bool& mask, std::integral_constant<Post, Post(1)>) {
    ascgen_devkit::d3510::store_blocks(ascgen_devkit::d3510::vr(src), dst, config, mask);
    dst = ascgen_devkit::d3510::after_repeat(dst, config);
}
// The register form (the level-0 vgatherb over a UB list of offsets is rearrange.h's).
template <class D, class P, class I, ASCGEN_D3510_REG_ONLY(D), ASCGEN_D3510_REG_ONLY(I)>
inline void vgatherb(D& dst, P* base, I& index, vector_bool& mask) {
    ascgen_devkit::d3510::gather_blocks(ascgen_devkit::d3510::vr(dst), base, ascgen_devkit::d3510::vr(index), mask);
}
template <class D, class P, class I, ASCGEN_D3510_REG_ONLY(D), ASCGEN_D3510_REG_ONLY(I),
          std::enable_if_t<ascgen_devkit::d3510::lane_sized<D, P> && ascgen_devkit::d3510::lane_sized<I, P>, int> = 0>
inline void vgather2(D& dst, P* base, I& index, vector_bool& mask) {
    ascgen_devkit::d3510::gather_lanes(ascgen_devkit::d3510::vr(dst), base, ascgen_devkit::d3510::vr(index), mask);
}
template <class S, class P, class I, ASCGEN_D3510_REG_ONLY(S), ASCGEN_D3510_REG_ONLY(I),
          std::enable_if_t<ascgen_devkit::d3510::lane_sized<S, P> && ascgen_devkit::d3510::lane_sized<I, P>, int> = 0>
inline void vscatter(S& src, P* base, I& index, vector_bool& mask) {
    ascgen_devkit::d3510::scatter_lanes(ascgen_devkit::d3510::vr(src), base, ascgen_devkit::d3510::vr(index), mask);
}
