// dav_3510 register engine: the register-based vector instructions (vlds/vsts, vadd..., vcmp, vsel,
// vintlv...) and the predicate instructions (pset, plt, pand..., ppack/punpack, pintlv) the library's
// Reg:: layer and its dav_3510 basic API call.
//
// Operands arrive either as register objects (vector_f32...) or as the library's RegTensor<T> (which
// converts to its register); vr() takes both. A vector register is 256 bytes of lanes; a predicate bit
// per byte lane, an element of N bytes governed by the bit of its first byte (types.h). Masked lanes of
// a destination register keep their value in merging mode and become zero otherwise (the library's
// MaskMergeMode: 1 merging, 2 zeroing). Memory operands are UB: every load and store is checked against
// the core's UB (bounds) like the other intrinsics, aligned forms also for 32-byte alignment. Offsets and
// post-update strides count elements of the pointer's type.
//
// What is not implemented (other load/store distributions, type pairs of vcvt...) calls a declared-only
// ascgen_devkit::unimpl function named after the intrinsic, so the link names it (never a silent no-op).
#pragma once
#include <cmath>
#include <type_traits>
#include "../state.h"
#include "types.h"

namespace ascgen_devkit {
namespace unimpl {
// Declared only: a form of a dav_3510 intrinsic the register engine does not model.
#define ASCGEN_D3510_UNIMPL(name) template <class... A> ::ascgen_devkit::Missing name(A&&...);
ASCGEN_D3510_UNIMPL(vlds) ASCGEN_D3510_UNIMPL(vsts) ASCGEN_D3510_UNIMPL(vld) ASCGEN_D3510_UNIMPL(vst)
ASCGEN_D3510_UNIMPL(vdup) ASCGEN_D3510_UNIMPL(pset)
ASCGEN_D3510_UNIMPL(vcvt) ASCGEN_D3510_UNIMPL(vtrc) ASCGEN_D3510_UNIMPL(vexp) ASCGEN_D3510_UNIMPL(vln) ASCGEN_D3510_UNIMPL(vsqrt)
#undef ASCGEN_D3510_UNIMPL
}  // namespace unimpl

namespace d3510 {
constexpr int MERGING = 1;

template <class R, class = void> struct is_vreg : std::false_type {};
template <class R> struct is_vreg<R, std::enable_if_t<R::is_vreg>> : std::true_type {};
template <class R, class = void> struct is_reg : is_vreg<R> {};
template <class R> struct is_reg<R, std::void_t<typename R::RegType>> : is_vreg<typename R::RegType> {};
template <class R> constexpr bool is_reg_v = is_reg<std::remove_cv_t<R>>::value;

// The register behind an operand: itself, or a RegTensor's (through its conversion).
template <class R> inline auto& vr(R& r) {
    if constexpr (is_vreg<R>::value) return r;
    else return static_cast<typename R::RegType&>(r);
}

template <class T> using compute_t = std::conditional_t<
    std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value, float,
    std::conditional_t<std::is_integral<T>::value && (sizeof(T) < 8), int64_t, T>>;
template <int N> using bits_t = std::conditional_t<N == 1, uint8_t, std::conditional_t<N == 2, uint16_t,
                                std::conditional_t<N == 4, uint32_t, uint64_t>>>;

inline bool active(const vector_bool& m, int lane, int esize) { return m.get(lane * esize); }

// Writes r(i) to every active lane of d; inactive lanes merge or zero. out is computed whole first:
// a source may be the destination.
template <class V, class F>
inline void apply(V& d, const vector_bool& m, int mode, F r) {
    V out = d;
    for (int i = 0; i < V::lanes; ++i) {
        if (active(m, i, V::esize)) out.e()[i] = r(i);
        else if (mode != MERGING) std::memset(&out.e()[i], 0, V::esize);
    }
    d = out;
}
template <class T, class C> inline T narrow(C v) {
    if constexpr (std::is_integral<T>::value) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(
        static_cast<uint64_t>(v)));             // wraps, as the vector ALU does
    else return T(v);
}
inline void cost(int lanes) { ::ascgen::rt::cost(::ascgen::rt::pipe::V, uint64_t(lanes)); }

// ---- memory --------------------------------------------------------------------------------------------

template <class P> inline void check_local(P* p, uint64_t bytes, bool aligned, const char* name) {
    if (aligned) check_aligned32(p, name);
    check_ub(p, bytes, name);
}
template <class E> inline int dist_of(E) { return int(E::value); }
#define ASCGEN_D3510_REG_ONLY(R) std::enable_if_t<ascgen_devkit::d3510::is_reg_v<R>, int> = 0

}  // namespace d3510
}  // namespace ascgen_devkit

// ---- loads: vlds(dst, ub, offset, dist) / vlds(dst, ub&, stride, dist, POST_UPDATE) -------------------
// Distributions (the library's LoadDist; the width is the distribution's, not the register type's):
// 0 NORM (VL bytes), 1-3 BRC_B8/16/32 (one element to every lane), 6-7 US_B8/16 (half VL, each element
// twice), 8-9 DS_B8/16 (2 VL, every other element), 13/14/18 UNPACK_B8/16/32 (half VL, each element
// zero-extended into a lane twice its width), 16-17 E2B_B16/32 (8 elements, each to every lane of one
// 32-byte block: the library's comment at its uses, "8 elements, one broadcast per UB block"; softmax steps
// its source by 8 elements per load, so no 32-byte alignment is asked). Two destinations: 11/12/19 DINTLV_B8/16/32 (2 VL: even
// elements to dst0, odd to dst1).
namespace ascgen_devkit {
namespace d3510 {
// The element width a distribution names (BRC_B16, UNPACK_B32...), else the register's.
inline int load_width(int dist, int reg_es) {
    switch (dist) {
        case 1: case 6: case 8: case 11: case 13: return 1;
        case 2: case 7: case 9: case 12: case 14: case 16: return 2;
        case 3: case 17: case 18: case 19: return 4;
        default: return reg_es;
    }
}
// The distributions load_one / load_two / store_one / store_two model. The wrappers below test these at
// compile time, so an unmodelled one references unimpl::vlds / vsts with the distribution in its type (the
// link report names the form) and a modelled one never references it, whatever the optimizer inlines.
constexpr bool load_modelled(int d) { return (d >= 0 && d <= 3) || d == 6 || d == 7 || d == 8 || d == 9 ||
                                             d == 13 || d == 14 || d == 18 || d == 16 || d == 17; }
constexpr bool load_two_modelled(int d) { return d == 11 || d == 12 || d == 19; }
constexpr bool store_modelled(int d) { return (d >= 0 && d <= 7) || d == 10 || d == 12 || d == 16; }
constexpr bool store_two_modelled(int d) { return d == 8 || d == 9 || d == 11; }
// Unreachable behind the compile-time guards; a fault rather than a silent no-op if they ever disagree.
inline void unmodelled(const char* name, int dist) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at(name),
                       "%s: distribution %d is not modelled (runtime/devkit dav3510/vreg.h)", name, dist);
}
template <class V, class P>
inline void load_one(V& d, P* p, int dist) {
    uint8_t* src = reinterpret_cast<uint8_t*>(p);
    const int es = load_width(dist, V::esize), n = VL / es;
    switch (dist) {
        case 0:
            check_local(src, VL, true, "vlds");
            std::memcpy(d.b, src, VL);
            break;
        case 1: case 2: case 3:
            check_local(src, es, false, "vlds");
            for (int i = 0; i < n; ++i) std::memcpy(d.b + i * es, src, es);
            break;
        case 6: case 7:
            check_local(src, VL / 2, false, "vlds");
            for (int i = 0; i < n; ++i) std::memcpy(d.b + i * es, src + (i / 2) * es, es);
            break;
        case 8: case 9:
            check_local(src, 2 * VL, false, "vlds");
            for (int i = 0; i < n; ++i) std::memcpy(d.b + i * es, src + 2 * i * es, es);
            break;
        case 13: case 14: case 18:      // es-byte elements, each zero-extended into a lane twice as wide
            check_local(src, VL / 2, false, "vlds");
            std::memset(d.b, 0, VL);
            for (int i = 0; i < n / 2; ++i) std::memcpy(d.b + i * 2 * es, src + i * es, es);
            break;
        case 16: case 17: {
            constexpr int blocks = 8, block = VL / blocks;
            check_local(src, blocks * es, false, "vlds");
            for (int i = 0; i < n; ++i) std::memcpy(d.b + i * es, src + (i * es / block) * es, es);
            break;
        }
        default:
            unmodelled("vlds", dist);
    }
}
template <class V, class P>
inline void load_two(V& d0, V& d1, P* p, int dist) {
    uint8_t* src = reinterpret_cast<uint8_t*>(p);
    if (dist == 11 || dist == 12 || dist == 19) {
        const int es = load_width(dist, V::esize), n = VL / es;
        check_local(src, 2 * VL, true, "vlds");
        V a, b;
        for (int i = 0; i < n; ++i) {
            std::memcpy(a.b + i * es, src + (2 * i) * es, es);
            std::memcpy(b.b + i * es, src + (2 * i + 1) * es, es);
        }
        d0 = a;
        d1 = b;
    } else {
        unmodelled("vlds", dist);
    }
}
}  // namespace d3510
}  // namespace ascgen_devkit

template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vlds(D& dst, P* src, int32_t offset, std::integral_constant<Dist, Dt>) {
    if constexpr (!ascgen_devkit::d3510::load_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vlds(dst, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_one(ascgen_devkit::d3510::vr(dst), src + offset, int(Dt));
}
template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vlds(D& dst, P*& src, int32_t stride, std::integral_constant<Dist, Dt>, std::integral_constant<Post, Post(1)>) {
    if constexpr (!ascgen_devkit::d3510::load_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vlds(dst, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_one(ascgen_devkit::d3510::vr(dst), src, int(Dt));
    src += stride;
}
template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vlds(D& dst0, D& dst1, P* src, int32_t offset, std::integral_constant<Dist, Dt>) {
    if constexpr (!ascgen_devkit::d3510::load_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vlds(dst0, dst1, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_two(ascgen_devkit::d3510::vr(dst0), ascgen_devkit::d3510::vr(dst1), src + offset, int(Dt));
}
template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vlds(D& dst0, D& dst1, P*& src, int32_t stride, std::integral_constant<Dist, Dt>,
                 std::integral_constant<Post, Post(1)>) {
    if constexpr (!ascgen_devkit::d3510::load_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vlds(dst0, dst1, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_two(ascgen_devkit::d3510::vr(dst0), ascgen_devkit::d3510::vr(dst1), src, int(Dt));
    src += stride;
}

// ---- stores: vsts(src, ub, offset, dist, mask) / vsts(src, ub&, stride, dist, mask, POST_UPDATE) -------
// Distributions (the library's StoreDist): 0-2 and 16 NORM (active elements, VL bytes), 3-5
// FIRST_ELEMENT (element 0 only), 6/7/10 PACK_B16/32/64 (the low half of each active element, VL/2
// bytes), 12 PACK4_B32 (the lowest byte of each active 32-bit element, VL/4 bytes: the library's int8
// quantisation casts float lanes to int8 at byte 4i of lane i, then stores with it, ascend_quant_3510_impl.h).
// Two sources: 8/9/11 INTLV_B8/16/32 (s0[0], s1[0], s0[1]... over 2 VL, masks per source lane).
namespace ascgen_devkit {
namespace d3510 {
// The element width a store distribution names (NORM_B16, PACK_B32, INTLV_B8...), else the register's.
inline int store_width(int dist, int reg_es) {
    switch (dist) {
        case 0: case 3: case 8: return 1;
        case 1: case 4: case 6: case 9: return 2;
        case 2: case 5: case 7: case 11: case 12: return 4;
        case 10: return 8;
        default: return reg_es;
    }
}
template <class V, class P>
inline void store_one(const V& s, P* p, int dist, const vector_bool& m) {
    uint8_t* dst = reinterpret_cast<uint8_t*>(p);
    const int es = store_width(dist, V::esize), n = VL / es;
    switch (dist) {
        case 0: case 1: case 2: case 16:
            check_local(dst, VL, true, "vsts");
            for (int i = 0; i < n; ++i)
                if (active(m, i, es)) std::memcpy(dst + i * es, s.b + i * es, es);
            break;
        case 3: case 4: case 5:
            check_local(dst, es, false, "vsts");
            std::memcpy(dst, s.b, es);
            break;
        case 6: case 7: case 10: case 12: {   // the low half (PACK4: quarter) of each active lane, packed
            const int part = dist == 12 ? es / 4 : es / 2;
            check_local(dst, uint64_t(n) * part, true, "vsts");
            for (int i = 0; i < n; ++i)
                if (active(m, i, es)) std::memcpy(dst + i * part, s.b + i * es, part);
            break;
        }
        default:
            unmodelled("vsts", dist);
            return;
    }
    cost(n);
}
template <class V, class P>
inline void store_two(const V& s0, const V& s1, P* p, int dist, const vector_bool& m) {
    uint8_t* dst = reinterpret_cast<uint8_t*>(p);
    const int es = store_width(dist, V::esize), n = VL / es;
    if (dist == 8 || dist == 9 || dist == 11) {
        check_local(dst, 2 * VL, true, "vsts");
        // element k of the interleaved sequence comes from lane k / 2 of s0 (k even) or s1; the mask
        // governs the destination lanes as they land (k % n of the register holding that half)
        for (int k = 0; k < 2 * n; ++k) {
            const V& src = (k % 2) ? s1 : s0;
            if (active(m, k % n, es)) std::memcpy(dst + k * es, src.b + (k / 2) * es, es);
        }
    } else {
        unmodelled("vsts", dist);
        return;
    }
    cost(2 * n);
}
}  // namespace d3510
}  // namespace ascgen_devkit

template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vsts(S& src, P* dst, int32_t offset, std::integral_constant<DistVST, Dt>, vector_bool& mask) {
    if constexpr (!ascgen_devkit::d3510::store_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vsts(src, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_one(ascgen_devkit::d3510::vr(src), dst + offset, int(Dt), mask);
}
template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vsts(S& src, P*& dst, int32_t stride, std::integral_constant<DistVST, Dt>, vector_bool& mask,
                 std::integral_constant<Post, Post(1)>) {
    if constexpr (!ascgen_devkit::d3510::store_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vsts(src, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_one(ascgen_devkit::d3510::vr(src), dst, int(Dt), mask);
    dst += stride;
}
template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vsts(S& src0, S& src1, P* dst, int32_t offset, std::integral_constant<DistVST, Dt>, vector_bool& mask) {
    if constexpr (!ascgen_devkit::d3510::store_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vsts(src0, src1, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_two(ascgen_devkit::d3510::vr(src0), ascgen_devkit::d3510::vr(src1), dst + offset,
                                    int(Dt), mask);
}
template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vsts(S& src0, S& src1, P*& dst, int32_t stride, std::integral_constant<DistVST, Dt>, vector_bool& mask,
                 std::integral_constant<Post, Post(1)>) {
    if constexpr (!ascgen_devkit::d3510::store_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vsts(src0, src1, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_two(ascgen_devkit::d3510::vr(src0), ascgen_devkit::d3510::vr(src1), dst, int(Dt), mask);
    dst += stride;
}

// ---- loads / stores at an address register: vld / vst (the library's LoadAlign / StoreAlign with an AddrReg)
// CreateAddrReg<T>(index0, stride0, ... index3, stride3) is, in the library's CPU-debug build,
// VagCpuSim(sizeof(T), index0, stride0, ...): the offset sum(index_k * stride_k) elements of T (on the device
// the indices are the hardware loops' counters and vag_b* take only the strides). It is kept in bytes, since
// vld / vst receive the address through another pointer type (b64 data as int32_t*); vld / vst are then vlds /
// vsts at that address with the same distributions.
inline vector_address VagCpuSim(uint64_t esize, uint16_t i0, uint32_t s0, uint16_t i1 = 0, uint32_t s1 = 0,
                                uint16_t i2 = 0, uint32_t s2 = 0, uint16_t i3 = 0, uint32_t s3 = 0) {
    const int64_t elements = int64_t(i0) * s0 + int64_t(i1) * s1 + int64_t(i2) * s2 + int64_t(i3) * s3;
    return vector_address{elements * int64_t(esize)};
}
namespace ascgen_devkit {
namespace d3510 {
template <class P> inline P* at_address(P* base, const vector_address& a) {
    return reinterpret_cast<P*>(reinterpret_cast<uint8_t*>(base) + a.offset);
}
}  // namespace d3510
}  // namespace ascgen_devkit
template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vld(D& dst, P* src, vector_address a, std::integral_constant<Dist, Dt>) {
    if constexpr (!ascgen_devkit::d3510::load_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vld(dst, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_one(ascgen_devkit::d3510::vr(dst), ascgen_devkit::d3510::at_address(src, a), int(Dt));
}
template <class D, class P, Dist Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<D>, int> = 0>
inline void vld(D& dst0, D& dst1, P* src, vector_address a, std::integral_constant<Dist, Dt>) {
    if constexpr (!ascgen_devkit::d3510::load_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vld(dst0, dst1, src, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::load_two(ascgen_devkit::d3510::vr(dst0), ascgen_devkit::d3510::vr(dst1),
                                   ascgen_devkit::d3510::at_address(src, a), int(Dt));
}
template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vst(S& src, P* dst, vector_address a, std::integral_constant<DistVST, Dt>, vector_bool& mask) {
    if constexpr (!ascgen_devkit::d3510::store_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vst(src, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_one(ascgen_devkit::d3510::vr(src), ascgen_devkit::d3510::at_address(dst, a), int(Dt),
                                   mask);
}
template <class S, class P, DistVST Dt, std::enable_if_t<ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vst(S& src0, S& src1, P* dst, vector_address a, std::integral_constant<DistVST, Dt>, vector_bool& mask) {
    if constexpr (!ascgen_devkit::d3510::store_two_modelled(int(Dt))) {
        ascgen_devkit::unimpl::vst(src0, src1, dst, std::integral_constant<decltype(Dt), Dt>{});
        return;
    }
    ascgen_devkit::d3510::store_two(ascgen_devkit::d3510::vr(src0), ascgen_devkit::d3510::vr(src1),
                                    ascgen_devkit::d3510::at_address(dst, a), int(Dt), mask);
}

// Ordering barriers between the vector and scalar memory pipes: a core runs them in program order.
template <Mem_bar B> inline void mem_bar(std::integral_constant<Mem_bar, B>) {}

// ---- unaligned loads / stores and predicate stores ------------------------------------------------------
// The hardware stages unaligned data through an alignment register (vector_align) and writes the
// staged tail with a final flush (vstas). Here each unaligned store writes its elements at once and the
// flush writes nothing; a kernel that omits the flush therefore is not caught (the result it leaves in
// UB is the complete one). Loads read their bytes at once likewise.
template <class P> inline void vldas(vector_align& a, P* src) {
    a.count = 0;
    a.base = reinterpret_cast<uintptr_t>(src);
}
template <class D, class P, ASCGEN_D3510_REG_ONLY(D)>
inline void vldus(D& dst, vector_align&, P*& src, uint32_t count, std::integral_constant<Post, Post(1)>) {
    auto& d = ascgen_devkit::d3510::vr(dst);
    const uint64_t bytes = uint64_t(count) * sizeof(P) < uint64_t(ascgen_devkit::d3510::VL)
                               ? uint64_t(count) * sizeof(P) : uint64_t(ascgen_devkit::d3510::VL);
    ascgen_devkit::d3510::check_local(src, bytes, false, "vldus");
    std::memset(d.b, 0, ascgen_devkit::d3510::VL);
    std::memcpy(d.b, src, bytes);
    src += count;
}
// Without POST_UPDATE (the library's LoadUnAlign(dst, ureg, src)): a whole register from src, which stays.
template <class D, class P, ASCGEN_D3510_REG_ONLY(D)>
inline void vldus(D& dst, vector_align&, P* src) {
    auto& d = ascgen_devkit::d3510::vr(dst);
    ascgen_devkit::d3510::check_local(src, ascgen_devkit::d3510::VL, false, "vldus");
    std::memcpy(d.b, src, ascgen_devkit::d3510::VL);
}
template <class S, class P, ASCGEN_D3510_REG_ONLY(S)>
inline void vstus(vector_align&, uint32_t count, S& src, P*& dst, std::integral_constant<Post, Post(1)>) {
    auto& s = ascgen_devkit::d3510::vr(src);
    const uint64_t bytes = uint64_t(count) * sizeof(P);
    // More than a register holds: no source says what is stored. A fault at run time, not a reference to a
    // declared-only function: the count is a run-time value, so such a reference stayed in every kernel
    // that stores unaligned with a variable count (the level-0 GatherMask) and failed its link.
    if (bytes > uint64_t(ascgen_devkit::d3510::VL))
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at("vstus"),
                           "vstus: %u elements of %u bytes exceed one 256-byte register (StoreUnAlign's count)",
                           count, unsigned(sizeof(P)));
    ascgen_devkit::d3510::check_local(dst, bytes, false, "vstus");
    std::memcpy(dst, s.b, bytes);
    dst += count;
}
// The flush of the staged tail: nothing is staged here (see above). With POST_UPDATE the address moves on.
template <class P> inline void vstas(vector_align&, P*& dst, int32_t stride, std::integral_constant<Post, Post(1)>) {
    dst += stride;
}
template <class P> inline void vstas(vector_align&, P* /*dst*/, int32_t /*offset*/) {}

// Predicate stores. psts NORM (0): the 32 bytes of the predicate as they are (a bit per byte lane);
// PACK (1): every other bit, 16 bytes. pstu: one bit per element of the pointer's width (b16: every
// other bit, b32: every fourth), VL / width / 8 bytes, and the address moves past them.
namespace ascgen_devkit {
namespace d3510 {
inline void store_pred_bits(const vector_bool& m, uint8_t* dst, int step, const char* name, bool aligned) {
    const int nbits = VL / step;
    check_local(dst, uint64_t(nbits / 8), aligned, name);
    for (int k = 0; k < nbits / 8; ++k) {
        uint8_t byte = 0;
        for (int j = 0; j < 8; ++j) byte |= uint8_t(m.get((k * 8 + j) * step)) << j;
        dst[k] = byte;
    }
}
}  // namespace d3510
}  // namespace ascgen_devkit
// As for plds (vconv.h), psts's offset and post-update stride count bytes.
template <class P, Dist Dt>
inline void psts(vector_bool& m, P* dst, int32_t offset, std::integral_constant<Dist, Dt>) {
    ascgen_devkit::d3510::store_pred_bits(m, reinterpret_cast<uint8_t*>(dst) + offset, int(Dt) == 1 ? 2 : 1, "psts",
                                          false);
}
template <class P, Dist Dt>
inline void psts(vector_bool& m, P*& dst, int32_t stride, std::integral_constant<Dist, Dt>,
                 std::integral_constant<Post, Post(1)>) {
    ascgen_devkit::d3510::store_pred_bits(m, reinterpret_cast<uint8_t*>(dst), int(Dt) == 1 ? 2 : 1, "psts", false);
    dst = reinterpret_cast<P*>(reinterpret_cast<uint8_t*>(dst) + stride);
}
template <class P>
inline void pstu(vector_align&, vector_bool& m, P*& dst) {
    static_assert(sizeof(P) == 2 || sizeof(P) == 4, "pstu: b16 or b32");
    ascgen_devkit::d3510::store_pred_bits(m, reinterpret_cast<uint8_t*>(dst), int(sizeof(P)), "pstu", false);
    dst += ascgen_devkit::d3510::VL / sizeof(P) / 8 / sizeof(P);
}

// ---- squeeze: vsqz compacts the active lanes to the front (the rest zero); with STORE_REG (1) it also
// records their byte count for the next vstur, which writes that many bytes at base + AR and, with
// POST_UPDATE, advances AR (the special register sprclr(AR) clears). vstar flushes nothing (see vstus).
namespace ascgen_devkit {
namespace d3510 {
inline uint64_t ar = 0;              // AR, in bytes
inline uint64_t squeezed_bytes = 0;  // what the last STORE_REG vsqz kept
}  // namespace d3510
}  // namespace ascgen_devkit
template <class D, class S, StoreMode SM, ASCGEN_D3510_REG_ONLY(D), ASCGEN_D3510_REG_ONLY(S)>
inline void vsqz(D& dst, S& src, vector_bool& mask, std::integral_constant<StoreMode, SM>) {
    auto& d = ascgen_devkit::d3510::vr(dst); auto& s = ascgen_devkit::d3510::vr(src);
    using V = std::remove_reference_t<decltype(s)>;
    V out;
    std::memset(out.b, 0, ascgen_devkit::d3510::VL);
    int k = 0;
    for (int i = 0; i < V::lanes; ++i)
        if (ascgen_devkit::d3510::active(mask, i, V::esize)) std::memcpy(out.b + (k++) * V::esize, s.b + i * V::esize, V::esize);
    std::memcpy(d.b, out.b, ascgen_devkit::d3510::VL);
    if (int(SM) == 1) ascgen_devkit::d3510::squeezed_bytes = uint64_t(k) * V::esize;
    ascgen_devkit::d3510::cost(V::lanes);
}
template <class S, class P, Post PM, ASCGEN_D3510_REG_ONLY(S)>
inline void vstur(vector_align&, S& src, P* base, std::integral_constant<Post, PM>) {
    auto& s = ascgen_devkit::d3510::vr(src);
    uint8_t* dst = reinterpret_cast<uint8_t*>(base) + ascgen_devkit::d3510::ar;
    const uint64_t bytes = ascgen_devkit::d3510::squeezed_bytes;
    ascgen_devkit::d3510::check_local(dst, bytes, false, "vstur");
    std::memcpy(dst, s.b, bytes);
    if (int(PM) == 1) ascgen_devkit::d3510::ar += bytes;
}
template <class P> inline void vstar(vector_align&, P* /*base*/) {}
template <Spr R> inline void sprclr(std::integral_constant<Spr, R>) {
    static_assert(int(R) == 74, "sprclr: only AR (74) is modelled");
    ascgen_devkit::d3510::ar = 0;
}
// get_ar: AR as it stands, in bytes (the library's GetSpr<AR>; its level-0 GatherMask divides it by sizeof(T)
// for the number of elements kept).
inline int64_t get_ar() { return int64_t(ascgen_devkit::d3510::ar); }
