// vconv_<src><dst>[mode]: element type conversion on the vector engine. An iteration covers
// 256 / max(element sizes) elements. Modes: r nearest-even, a nearest-away, f floor, c ceil, z toward zero,
// o round-to-odd (float narrowing only); no suffix: nearest-even. Integer results saturate.
// int4 (vconv_f162s4*, vconv_s42f16): the int4 side is packed two per byte (ascgen/int4.h) and its 32-byte
// blocks hold 64 elements, so one iteration of 128 elements covers two of its blocks; the library's
// level-2 Cast passes repeat stride 2 for it (ONE_FOURTH_DEFAULT_REPEAT_STRIDE).
#pragma once
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include "ascgen/int4.h"
#include "vector.h"
#include "ascgen_common/elementwise.h"

namespace ascgen_devkit {

// Rounding to an integral value and float -> integer saturation: the shared rule (ascgen_common/elementwise.h).
inline double round_mode(double x, char mode) {
    using R = ::ascgen::elem::Round;
    return ::ascgen::elem::round_integral(x, mode == 'a' ? R::Away : mode == 'f' ? R::Floor : mode == 'c' ? R::Ceil
                                             : mode == 'z' ? R::Trunc : R::Rint);   // r, none: ties to even
}
using ::ascgen::elem::saturate;

// A narrower float (half, bfloat16_t, float from double) rounded with `mode` from the exact value x.
template <class D>
inline D narrow(double x, char mode) {
    D n = D(float(x));  // nearest-even for float -> half/bf16 (the storage types round that way)
    if (mode == 'r' || mode == 0 || std::isnan(x) || std::isinf(x)) return n;
    double nv = double(float(n));
    if (nv == x) return n;
    auto step = [](D v, bool up) {  // one ulp toward +inf or -inf, on the bit pattern
        D out = v;
        float f = float(v);
        bool neg = std::signbit(f);
        if (f == 0) { out.bits = up ? 1 : 0x8001; return out; }
        out.bits = uint16_t(v.bits + ((up != neg) ? 1 : -1));
        return out;
    };
    switch (mode) {
        case 'f': return nv > x ? step(n, false) : n;
        case 'c': return nv < x ? step(n, true) : n;
        case 'z': return std::fabs(nv) > std::fabs(x) ? step(n, x < 0) : n;
        case 'a': {
            D other = nv < x ? step(n, true) : step(n, false);
            double ov = double(float(other));
            if (std::fabs(ov - x) == std::fabs(nv - x)) return std::fabs(ov) > std::fabs(nv) ? other : n;
            return n;
        }
        case 'o': {  // truncate, then make the last bit 1 when inexact
            D t = std::fabs(nv) > std::fabs(x) ? step(n, x < 0) : n;
            t.bits |= 1;
            return t;
        }
        default: return n;
    }
}

template <class D, class S>
inline D convert(S s, char mode) {
    double x = double(wide_t<S>(s));
    if constexpr (std::is_integral<D>::value) {
        if constexpr (std::is_integral<S>::value) return saturate<D>(x);
        else return saturate<D>(round_mode(x, mode));
    } else if constexpr (std::is_same<D, float>::value) {
        if constexpr (std::is_same<S, float>::value) return float(round_mode(x, mode));   // f32 -> integral f32
        else return float(x);                                                             // exact widening
    } else {
        return narrow<D>(x, mode);
    }
}

template <class D, class S>
inline void vconv(const char* name, D* dst, S* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr,
                  uint64_t sr, char mode) {
    unary(name, dst, src, repeat, db, sb, dr, sr, [mode](wide_t<S> x) -> D { return convert<D>(S(x), mode); });
}

// x rounded once to the nearest half, ties to even (narrow<half> goes through float, a second rounding):
// to half's last significand bit (11 bits; 2^-24 for subnormals), then exactly into float and half.
// Beyond half's range: infinity, as every float -> half conversion here.
inline half round_to_half(double x) {
    if (!std::isfinite(x) || x == 0) return half(float(x));
    int e = 0;
    std::frexp(x, &e);                  // |x| in [2^(e-1), 2^e)
    int lsb = std::max(e - 11, -24);
    return half(float(std::ldexp(round_mode(std::ldexp(x, -lsb), 'r'), lsb)));
}

// vconv_deq: int32 -> half times DEQSCALE (set_deqscale), the product rounded once to nearest-even.
// The product is exact in double (31 + 11 significant bits).
inline void vconv_deq(half* dst, int32_t* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {
    half scale;
    scale.bits = regs.deqscale;
    const double s = double(float(scale));
    unary("vconv_deq", dst, src, repeat, db, sb, dr, sr,
          [s](wide_t<int32_t> x) -> half { return round_to_half(double(x) * s); });
}

// An int4 operand: element e of iteration r is nibble (r * rep + (e / 64) * blk) * 64 + e % 64.
struct Int4Operand {
    uint8_t* base;
    uint64_t blk, rep;
    uint64_t nibble(uint64_t r, uint64_t e) const { return (r * rep + (e / 64) * blk) * 64 + e % 64; }
    uint64_t extent(uint64_t repeats, uint64_t per_repeat) const {
        if (repeats == 0 || per_repeat == 0) return 0;
        return ((repeats - 1) * rep + ((per_repeat - 1) / 64) * blk) * BLOCK + BLOCK;
    }
};

// half <-> int4, one iteration = 128 elements. `to_int4`: dst int4 (rounded with `mode`, saturated to
// -8..7), else dst half (exact). Masks and counter mode as for every vector instruction (vector.h).
inline void vconv_int4(const char* name, void* dst, void* src, uint64_t repeat, uint64_t db, uint64_t sb,
                       uint64_t dr, uint64_t sr, char mode, bool to_int4) {
    tick();
    constexpr uint64_t per_repeat = 128;
    const Plan p = plan(repeat, per_repeat);
    Int4Operand q{static_cast<uint8_t*>(to_int4 ? dst : src), to_int4 ? db : sb, to_int4 ? dr : sr};
    Operand h = op(static_cast<half*>(to_int4 ? src : dst), to_int4 ? sb : db, to_int4 ? sr : dr);
    check_ub(q.base, q.extent(p.repeats, per_repeat), name);
    check_ub(h.base, h.extent(p.repeats, per_repeat), name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per_repeat);
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t e = 0; e < per_repeat; ++e) {
            if (!p.active(r, e)) continue;
            auto* hp = reinterpret_cast<half*>(h.at(r, e));
            if (to_int4)
                ::ascgen::int4::set_nibble(q.base, q.nibble(r, e),
                                           ::ascgen::int4::saturate(round_mode(double(float(*hp)), mode)));
            else
                *hp = half(float(::ascgen::int4::get_nibble(q.base, q.nibble(r, e))));
        }
}

}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_VCONV_S4(name, mode)                                                                   \
    template <class DP, class SP>                                                                             \
    inline void name(DP* dst, SP* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) { \
        ascgen_devkit::vconv_int4(#name, (void*)dst, (void*)src, repeat, db, sb, dr, sr, mode, true);         \
    }
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4, 0)
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4r, 'r')
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4a, 'a')
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4f, 'f')
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4c, 'c')
ASCGEN_DEVKIT_VCONV_S4(vconv_f162s4z, 'z')
#undef ASCGEN_DEVKIT_VCONV_S4
template <class DP, class SP>
inline void vconv_s42f16(DP* dst, SP* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {
    ascgen_devkit::vconv_int4("vconv_s42f16", (void*)dst, (void*)src, repeat, db, sb, dr, sr, 0, false);
}

// DEQSCALE as the library's SetDeqScale(half) sets it for vconv_deq. The register's other forms (a 64-bit
// scale/offset/sign config, a VDEQ table address: the int16 -> int8 dequantisations) are declared missing.
inline void set_deqscale(half scale) { ascgen_devkit::regs.deqscale = scale.bits; }
template <class DP, class SP>
inline void vconv_deq(DP* dst, SP* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {
    ascgen_devkit::vconv_deq(reinterpret_cast<half*>(dst), reinterpret_cast<int32_t*>(src), repeat, db, sb, dr, sr);
}

#define ASCGEN_DEVKIT_VCONV(name, D, S, mode)                                                                  \
    template <class DP, class SP>                                                                             \
    inline void name(DP* dst, SP* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) { \
        ascgen_devkit::vconv(#name, reinterpret_cast<D*>(dst), reinterpret_cast<S*>(src), repeat, db, sb, dr, sr, mode); \
    }
#define ASCGEN_DEVKIT_VCONV_MODES(stem, D, S)                                                                  \
    ASCGEN_DEVKIT_VCONV(stem##r, D, S, 'r') ASCGEN_DEVKIT_VCONV(stem##a, D, S, 'a')                           \
    ASCGEN_DEVKIT_VCONV(stem##f, D, S, 'f') ASCGEN_DEVKIT_VCONV(stem##c, D, S, 'c')                           \
    ASCGEN_DEVKIT_VCONV(stem##z, D, S, 'z')

ASCGEN_DEVKIT_VCONV(vconv_f162f32, float, half, 0)
ASCGEN_DEVKIT_VCONV(vconv_bf162f32, float, bfloat16_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_f322f16, half, float, 0)
ASCGEN_DEVKIT_VCONV(vconv_f322f16o, half, float, 'o')
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322f16, half, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322bf16, bfloat16_t, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322f32, float, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322s32, int32_t, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322s16, int16_t, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f322s64, int64_t, float)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f162s32, int32_t, half)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f162s16, int16_t, half)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f162s8, int8_t, half)
ASCGEN_DEVKIT_VCONV_MODES(vconv_f162u8, uint8_t, half)
ASCGEN_DEVKIT_VCONV_MODES(vconv_bf162s32, int32_t, bfloat16_t)
ASCGEN_DEVKIT_VCONV_MODES(vconv_s322f32, float, int32_t)
ASCGEN_DEVKIT_VCONV_MODES(vconv_s162f16, half, int16_t)
ASCGEN_DEVKIT_VCONV_MODES(vconv_s642f32, float, int64_t)
ASCGEN_DEVKIT_VCONV(vconv_f162s8, int8_t, half, 0)
ASCGEN_DEVKIT_VCONV(vconv_f162u8, uint8_t, half, 0)
ASCGEN_DEVKIT_VCONV(vconv_s162f16, half, int16_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s162f32, float, int16_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s322f32, float, int32_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s322s16, int16_t, int32_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s322s64, int64_t, int32_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s642s32, int32_t, int64_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_s82f16, half, int8_t, 0)
ASCGEN_DEVKIT_VCONV(vconv_u82f16, half, uint8_t, 0)
#undef ASCGEN_DEVKIT_VCONV_MODES
#undef ASCGEN_DEVKIT_VCONV

// conv_f322*: the scalar unit's float conversions (the library's scalar Cast / ScalarCast<float, half or
// int32_t, mode>), one element by the vector rule above: f16 round-to-odd, s32 rounded as the suffix says
// and saturated.
inline half conv_f322f16o(float v) { return ascgen_devkit::convert<half>(v, 'o'); }
inline int32_t conv_f322s32a(float v) { return ascgen_devkit::convert<int32_t>(v, 'a'); }
inline int32_t conv_f322s32c(float v) { return ascgen_devkit::convert<int32_t>(v, 'c'); }
inline int32_t conv_f322s32f(float v) { return ascgen_devkit::convert<int32_t>(v, 'f'); }
inline int32_t conv_f322s32r(float v) { return ascgen_devkit::convert<int32_t>(v, 'r'); }
