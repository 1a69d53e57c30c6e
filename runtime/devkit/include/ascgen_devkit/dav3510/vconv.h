// dav_3510 conversions on registers: vcvt (same width, widening 2x / 4x, narrowing 2x / 4x) and vtrc
// (round a float to an integral value of the same type).
//
// The mode arguments come in several orders (round, saturation, part, merge mode); they are told apart
// by type. Widening by r (2: Part, 4: Part_T; part: the library's RegLayout ZERO..THREE) reads the source
// element at r * i + part into lane i; narrowing writes lane i's result to destination lane r * i + part,
// the other lanes of each group zero (in zeroing mode). The mask governs the wider type's lanes in both
// cases. Float -> integer rounds as asked and saturates (NaN -> 0); integer narrowing saturates in SAT
// mode and keeps the low bits in NO_SAT mode. A 16-bit float result (float -> half/bf16, int16 -> half,
// half <-> bf16) is rounded once from the exact value as ROUND says: rint, away, floor, ceil, trunc
// (IEEE 754's roundings) or odd (truncate, then the last bit set when inexact), by the vector engine's rule
// (convert.h `narrow`); past the type's range IEEE's result (Inf/NaN mode, the only overflow mode of Atlas
// 350: aclrtFloatOverflowMode). An int32 / int64 -> float result is rounded once from the exact integer in
// the same six modes (elementwise.h int_to_float). An fp8 result (e4m3fn, e5m2: the library's float ->
// fp8 Cast, 4x with Part_T) is rounded once in the same six modes and saturates or not as RoundingSaturation
// says (the rules: ../fp8.h); fp8 -> float / half / bf16 is exact. A hifloat8 result (float 4x with
// Part_T, half 2x with Part: the library's forms) is rounded in ROUND A, nearest with ties away, the one
// hifloat8 rounding a public source defines, and saturates or not as asked (the rule: ../hif8.h);
// hifloat8 -> float / half is exact. hifloat8 in ROUND H (HYBRID, the library's CAST_HYBRID) compiles,
// so that a kernel instantiating every output type runs its other cases, and stops a kernel that reaches
// it with a named fault. Other HYBRID forms, hifloat8 in other modes, fp4 and int4 call a declared-only
// ascgen_devkit::unimpl::vcvt, named at link.
#pragma once
#include <cfenv>
#include <limits>
#include "valu.h"
#include "../convert.h"
#include "../hif8.h"
#include "ascgen_common/elementwise.h"

namespace ascgen_devkit {
namespace d3510 {
struct CvtModes {
    int round = 0;      // ROUND: 0 rint, 1 round (away), 2 floor, 3 ceil, 4 trunc, 5 odd, 6 hybrid
    int sat = -1;       // RoundingSaturation: 0 off, 1 on, -1 not given
    int part = 0;       // Part: 0 even, 1 odd; Part_T: 0..3
    int merge = 2;      // CpuMode
    bool pp = false;    // a Part_T (4x) form
};
template <class X> constexpr void cvt_mode(CvtModes&, X) {}   // not a mode: ignored
template <ROUND V> constexpr void cvt_mode(CvtModes& m, std::integral_constant<ROUND, V>) { m.round = int(V); }
template <RoundingSaturation V> constexpr void cvt_mode(CvtModes& m, std::integral_constant<RoundingSaturation, V>) {
    m.sat = int(V);
}
template <Part V> constexpr void cvt_mode(CvtModes& m, std::integral_constant<Part, V>) { m.part = int(V); }
template <Part_T V> constexpr void cvt_mode(CvtModes& m, std::integral_constant<Part_T, V>) {
    m.part = int(V);
    m.pp = true;
}
template <CpuMode V> constexpr void cvt_mode(CvtModes& m, std::integral_constant<CpuMode, V>) { m.merge = int(V); }

// The library's ROUND order, mapped to the shared rounding rule (ascgen_common/elementwise.h).
inline double round_as(double v, int mode) {
    using R = ::ascgen::elem::Round;
    constexpr R order[] = {R::Rint, R::Away, R::Floor, R::Ceil, R::Trunc};
    return ::ascgen::elem::round_integral(v, mode >= 0 && mode < 5 ? order[mode] : R::Rint);
}
// The ROUND modes a float result is modelled in (0 rint ... 5 odd), as the vector engine's mode letters.
constexpr int kFloatRounds = 6;
constexpr char float_round_letter(int mode) { return "rafczo"[mode >= 0 && mode < kFloatRounds ? mode : 0]; }
template <class T> constexpr bool is_low_float = std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
template <class T> constexpr bool is_num = std::is_arithmetic<T>::value || is_low_float<T>;
template <class T> constexpr bool is_float = std::is_floating_point<T>::value || is_low_float<T>;
template <class T> constexpr bool is_hif8 = std::is_same<T, hifloat8_t>::value;
// The types the library converts hifloat8 from and to (float and half, not bfloat16).
template <class T> constexpr bool hif8_peer = std::is_same<T, float>::value || std::is_same<T, half>::value;
constexpr int kRoundAway = 1, kRoundHybrid = 6;   // ROUND A and H

// ROUND H to hifloat8: no public source defines it precisely enough to model (../hif8.h).
[[noreturn]] inline void refuse_hif8_hybrid() {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at("vcvt"),
                       "vcvt to hifloat8 in ROUND H (RoundMode::CAST_HYBRID) is not modelled: no public source "
                       "defines HiFloat8's hybrid rounding precisely; ROUND A (CAST_ROUND) is "
                       "(runtime/devkit ascgen_devkit/hif8.h)");
}

// Whether the model converts From -> To in these modes: same width, 2x (Part) or 4x (Part_T). Decided at
// compile time from the mode constants' types, so a modelled form never references unimpl::vcvt, whatever
// the optimizer folds, and an unmodelled one always does.
template <class To, class From>
constexpr bool converts(const CvtModes& m) {
    constexpr int tw = sizeof(To), fw = sizeof(From);
    constexpr int ratio = tw > fw ? tw / fw : fw / tw;
    if (ratio > 2 && !m.pp) return false;
    if (ratio != 4 && m.pp) return false;
    if constexpr (is_hif8<To>) return hif8_peer<From> && (m.round == kRoundAway || m.round == kRoundHybrid);
    else if constexpr (is_hif8<From>) return hif8_peer<To>;
    else if constexpr (fp8::of<To>::ok) return is_float<From> && m.round < kFloatRounds;
    else if constexpr (fp8::of<From>::ok) return is_float<To>;
    else if constexpr (!is_num<To> || !is_num<From>) return false;
    else if constexpr (std::is_integral<To>::value && !std::is_integral<From>::value) return true;
    else if constexpr (!std::is_integral<To>::value && std::is_integral<From>::value)
        return (tw == 4 || fw < 4) ? m.round < kFloatRounds : m.round == 0;   // int32 -> half: rint only
    else if constexpr (!std::is_integral<To>::value) return tw > fw || m.round < kFloatRounds;
    else return tw >= fw || m.sat == 0 || m.sat == 1;
}
// One element, in a form converts() accepts.
template <class To, class From>
inline void convert(To& out, From v, const CvtModes& m) {
    if constexpr (is_hif8<To>) {                                     // to hifloat8: ties away (hif8.h)
        if (m.round == kRoundHybrid) refuse_hif8_hybrid();
        out.val = hif8::encode(double(float(v)), m.sat == 1);
    } else if constexpr (is_hif8<From>) {                            // hifloat8 -> float / half: exact
        out = To(hif8::decode(v.val));
    } else if constexpr (fp8::of<To>::ok) {                          // to fp8: one rounding (fp8.h)
        out.val = fp8::encode(fp8::of<To>::format, double(float(v)), ::ascgen::elem::IntRound(m.round), m.sat == 1);
    } else if constexpr (fp8::of<From>::ok) {                        // fp8 -> float / half / bf16: exact
        out = To(fp8::decode(fp8::of<From>::format, v.val));
    } else if constexpr (std::is_integral<To>::value && !std::is_integral<From>::value) {
        out = ::ascgen::elem::saturate<To>(round_as(double(float(v)), m.round));   // NaN -> 0, saturating
    } else if constexpr (!std::is_integral<To>::value && sizeof(To) == 2) {   // to half / bf16: one rounding
        const double x = std::is_integral<From>::value ? double(v) : double(float(v));   // exact
        out = ::ascgen_devkit::narrow<To>(x, float_round_letter(m.round));
    } else if constexpr (!std::is_integral<To>::value && std::is_integral<From>::value) {   // int -> float
        out = ::ascgen::elem::int_to_float(v, ::ascgen::elem::IntRound(m.round));   // ROUND's order: rafczo
    } else if constexpr (!std::is_integral<To>::value) {             // half / bf16 -> float: exact
        out = To(float(v));
    } else if (sizeof(To) >= sizeof(From)) {                         // integer -> integer
        out = To(v);
    } else if (m.sat == 1) {
        const int64_t x = int64_t(v);
        const int64_t lo = int64_t(std::numeric_limits<To>::min()), hi = int64_t(std::numeric_limits<To>::max());
        out = To(x < lo ? lo : x > hi ? hi : x);
    } else {
        out = narrow<To>(v);
    }
}

template <class D, class S>
inline void cvt_reg(D& d, const S& s, const vector_bool& mask, const CvtModes& m) {
    D out = d;
    const int dw = D::esize, sw = S::esize;
    if (dw >= sw) {                                                  // same width, or widening: lane r * i + part
        const int r = dw / sw;
        for (int i = 0; i < D::lanes; ++i) {
            if (active(mask, i, dw)) convert(out.e()[i], s.e()[r * i + m.part], m);
            else if (m.merge != MERGING) std::memset(&out.e()[i], 0, dw);
        }
    } else {                                                         // narrowing: destination lane r * i + part
        const int r = sw / dw;
        for (int i = 0; i < S::lanes; ++i) {
            if (m.merge != MERGING) std::memset(&out.e()[r * i], 0, size_t(r) * dw);
            if (active(mask, i, sw)) convert(out.e()[r * i + m.part], s.e()[i], m);
        }
    }
    d = out;
    cost(D::lanes);
}
}  // namespace d3510
}  // namespace ascgen_devkit

namespace ascgen_devkit {
namespace d3510 {
template <class... M> constexpr CvtModes modes_of() {
    CvtModes m;
    (cvt_mode(m, M{}), ...);
    return m;
}
}  // namespace d3510
}  // namespace ascgen_devkit
template <class D, class S, class... M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcvt(D& dst, S& src, vector_bool& mask, M... modes) {
    constexpr ascgen_devkit::d3510::CvtModes m = ascgen_devkit::d3510::modes_of<M...>();
    using To = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(dst))>::elem;
    using From = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(src))>::elem;
    if constexpr (ascgen_devkit::d3510::converts<To, From>(m))
        ascgen_devkit::d3510::cvt_reg(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, m);
    else
        ascgen_devkit::unimpl::vcvt(dst, src, mask, modes...);
}

// vtrc: each active float lane rounded to an integral value as `round` says, same type.
template <class D, class S, ROUND R, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vtrc(D& dst, S& src, std::integral_constant<ROUND, R>, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    if constexpr (std::is_integral<T>::value) {
        ascgen_devkit::unimpl::vtrc(dst, src, mask);
    } else {
        ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) {
            const double x = double(float(s.e()[i]));
            return T(float(std::isfinite(x) ? ascgen_devkit::d3510::round_as(x, int(R)) : x));
        });
    }
}

// vcpadd: lane i of dst is the sum of source lanes 2i and 2i + 1 (inactive lanes count as 0); the upper
// half of dst is zero.
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcpadd(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src);
    using V = std::remove_reference_t<decltype(s)>;
    using T = typename V::elem;
    using C = ascgen_devkit::d3510::compute_t<T>;
    V out;
    std::memset(out.b, 0, ascgen_devkit::d3510::VL);
    for (int i = 0; i < V::lanes / 2; ++i) {
        C a = ascgen_devkit::d3510::active(mask, 2 * i, V::esize) ? C(s.e()[2 * i]) : C(0);
        C b = ascgen_devkit::d3510::active(mask, 2 * i + 1, V::esize) ? C(s.e()[2 * i + 1]) : C(0);
        out.e()[i] = ascgen_devkit::d3510::narrow<T>(C(a + b));
    }
    std::memcpy(d.b, out.b, ascgen_devkit::d3510::VL);
    ascgen_devkit::d3510::cost(V::lanes);
}

// plds: a predicate from UB. NORM (0): 32 bytes as they are; US (1): 16 bytes, each bit doubled;
// DS (2): 64 bytes, every other bit.
namespace ascgen_devkit {
namespace d3510 {
inline void load_pred(vector_bool& m, const uint8_t* src, int dist) {
    const int bytes = dist == 1 ? VL / 16 : dist == 2 ? VL / 4 : VL / 8;
    check_local(src, uint64_t(bytes), false, "plds");
    vector_bool out{};
    for (int i = 0; i < VL; ++i) {
        const int bit = dist == 1 ? i / 2 : dist == 2 ? 2 * i : i;
        out.set(i, (src[bit / 8] >> (bit % 8)) & 1u);
    }
    m = out;
}
}  // namespace d3510
}  // namespace ascgen_devkit
// The offset and the post-update stride of a predicate load or store count bytes, whatever the pointer's
// type (the library passes them unscaled with the pointer cast to uint32_t*: the select example's mask
// loads step 32 bytes per repeat, VL / 8).
template <class P> inline P* byte_step(P* p, int64_t bytes) {
    return reinterpret_cast<P*>(reinterpret_cast<uint8_t*>(p) + bytes);
}
template <class P, Dist Dt>
inline void plds(vector_bool& m, P* src, int32_t offset, std::integral_constant<Dist, Dt>) {
    ascgen_devkit::d3510::load_pred(m, reinterpret_cast<const uint8_t*>(byte_step(src, offset)), int(Dt));
}
template <class P, Dist Dt>
inline void plds(vector_bool& m, P*& src, int32_t stride, std::integral_constant<Dist, Dt>,
                 std::integral_constant<Post, Post(1)>) {
    ascgen_devkit::d3510::load_pred(m, reinterpret_cast<const uint8_t*>(src), int(Dt));
    src = byte_step(src, stride);
}

// vunpack / vpack: change the lane width by 2x without converting values (the library's Reg::UnPack / Pack).
// vunpack: dst lane i = src lane i + part * (lanes of dst), extended to the wider lane (signed lanes
// sign-extend, unsigned ones zero-extend: the library asks for pairs of one signedness); part LOWER (0) takes
// the lower half of src, HIGHER (1) the upper. vpack: the low half of each src lane, packed into the lower
// (LOWER) or upper (HIGHER) half of dst, the other half zero. Both as the library builds the 64-bit forms
// it cannot hand to the instructions (kernel_reg_compute_pack_impl.h): UnPack's int32 -> int64 interleaves
// src with its sign (src >> 31) or zero, Pack's 64 -> 32 deinterleaves src against a zero register.
template <class D, class S, HiloPart H, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vunpack(D& dst, S& src, std::integral_constant<HiloPart, H>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src);
    using DV = std::remove_reference_t<decltype(d)>;
    using SV = std::remove_reference_t<decltype(s)>;
    static_assert(DV::esize == 2 * SV::esize, "vunpack: the destination lanes are twice the source's");
    const SV in = s;
    for (int i = 0; i < DV::lanes; ++i) d.e()[i] = typename DV::elem(in.e()[i + int(H) * DV::lanes]);
    ascgen_devkit::d3510::cost(DV::lanes);
}
template <class D, class S, HiloPart H, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vpack(D& dst, S& src, std::integral_constant<HiloPart, H>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src);
    using DV = std::remove_reference_t<decltype(d)>;
    using SV = std::remove_reference_t<decltype(s)>;
    static_assert(SV::esize == 2 * DV::esize, "vpack: the source lanes are twice the destination's");
    using Bits = ascgen_devkit::d3510::bits_t<SV::esize>;
    const SV in = s;
    DV out;
    std::memset(out.b, 0, ascgen_devkit::d3510::VL);
    for (int i = 0; i < SV::lanes; ++i) {
        Bits v;
        std::memcpy(&v, in.b + i * SV::esize, SV::esize);
        out.e()[i + int(H) * SV::lanes] = typename DV::elem(v);   // the low half: modulo the narrower width
    }
    d = out;
    ascgen_devkit::d3510::cost(SV::lanes);
}
