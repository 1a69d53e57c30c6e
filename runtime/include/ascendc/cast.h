// Cast between float, half, bfloat16_t and integer tensors with every RoundMode.
//
// Narrowing float conversions round with the requested mode: the value is first rounded to nearest
// even, then stepped by one unit in the last place when the mode wants the other neighbour (decided by
// comparing with the exact source value in double). Float -> integer rounds with the mode and
// saturates (NaN -> 0); integer -> integer saturates.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ascendc/mathfn.h"
#include "ascgen_common/elementwise.h"
#include "ascendc/vec_engine.h"

namespace ascgen {
namespace lib {
namespace cast {

using AscendC::RoundMode;

// Sign-magnitude binary formats: nearest-even rounding from double, decoding, one-ulp steps.
template <class T> struct Fmt;
template <> struct Fmt<half> {
    using B = uint16_t;
    static constexpr B kSign = 0x8000u;
    static B rne(double x) { return f32_to_f16(float(x)); }   // exact for sources narrower than 2^24
    static double value(B b) { return f16_to_f32(b); }
    static half make(B b) { return half::from_bits(b); }
};
template <> struct Fmt<bfloat16_t> {
    using B = uint16_t;
    static constexpr B kSign = 0x8000u;
    static B rne(double x) { return f32_to_bf16(float(x)); }
    static double value(B b) { return bf16_to_f32(b); }
    static bfloat16_t make(B b) { return bfloat16_t::from_bits(b); }
};
template <> struct Fmt<float> {
    using B = uint32_t;
    static constexpr B kSign = 0x80000000u;
    static B rne(double x) { return f32_bits(float(x)); }
    static double value(B b) { return bits_f32(b); }
    static float make(B b) { return bits_f32(b); }
};

// One ulp toward +inf / -inf (sign-magnitude: the magnitude moves).
template <class F>
typename F::B step_up(typename F::B b) {
    using B = typename F::B;
    if (b == F::kSign) return B(1);              // -0 -> smallest positive
    return (b & F::kSign) ? B(b - 1) : B(b + 1);
}
template <class F>
typename F::B step_down(typename F::B b) {
    using B = typename F::B;
    if (b == 0) return B(F::kSign | 1u);          // +0 -> smallest negative
    return (b & F::kSign) ? B(b + 1) : B(b - 1);
}

template <class F>
typename F::B round_bits(double x, RoundMode mode) {
    using B = typename F::B;
    B b = F::rne(x);
    if (m::isnan(x) || m::isinf(x)) return b;
    double v = F::value(b);
    if (v == x) return b;
    switch (mode) {
        case RoundMode::CAST_FLOOR: return v > x ? step_down<F>(b) : b;
        case RoundMode::CAST_CEIL: return v < x ? step_up<F>(b) : b;
        case RoundMode::CAST_TRUNC: return m::fabs(v) > m::fabs(x) ? (x > 0 ? step_down<F>(b) : step_up<F>(b)) : b;
        case RoundMode::CAST_ROUND: {   // nearest, ties away from zero
            B n = v > x ? step_down<F>(b) : step_up<F>(b);
            double w = F::value(n);
            bool tie = m::fabs(x - w) == m::fabs(x - v);
            return tie && m::fabs(w) > m::fabs(v) ? n : b;
        }
        case RoundMode::CAST_ODD: {     // truncate, then force the last bit to 1 when inexact
            B t = m::fabs(v) > m::fabs(x) ? (x > 0 ? step_down<F>(b) : step_up<F>(b)) : b;
            if ((t & 1u) == 0) t = x > 0 ? step_up<F>(t) : step_down<F>(t);
            return t;
        }
        default: return b;   // CAST_NONE, CAST_RINT: nearest even
    }
}

// Float -> integer: the shared rule (ascgen_common/elementwise.h), with the RoundMode named the shared way.
inline double round_int(double x, RoundMode mode) {
    using R = elem::Round;
    switch (mode) {
        case RoundMode::CAST_FLOOR: return elem::round_integral(x, R::Floor);
        case RoundMode::CAST_CEIL: return elem::round_integral(x, R::Ceil);
        case RoundMode::CAST_ROUND: return elem::round_integral(x, R::Away);
        case RoundMode::CAST_TRUNC:
        case RoundMode::CAST_ODD: return elem::round_integral(x, R::Trunc);
        default: return elem::round_integral(x, R::Rint);   // CAST_NONE, CAST_RINT
    }
}
using elem::saturate;

template <class T>
double to_double(T v) {
    if constexpr (is_low_float<T>::value) return double(float(v));
    else return double(v);
}

// One element.
template <class D, class S>
D one(S s, RoundMode mode) {
    if constexpr (std::is_same<D, S>::value) {
        return s;
    } else if constexpr (std::is_integral<D>::value) {
        double x = to_double(s);
        return saturate<D>(std::is_integral<S>::value ? x : round_int(x, mode));
    } else if constexpr (std::is_same<D, double>::value) {
        return to_double(s);
    } else {
        using F = Fmt<D>;
        return F::make(round_bits<F>(to_double(s), mode));
    }
}

// To a 4-bit signed value: round with the mode, saturate to -8..7.
template <class S>
int to_int4(S s, RoundMode mode) {
    double x = to_double(s);
    if (!std::is_integral<S>::value) x = round_int(x, mode);
    return ::ascgen::int4::saturate(x);
}

template <class D, class S>
void run(D* d, const S* s, int64_t n, RoundMode mode) {
    constexpr bool widen_exact = !std::is_integral<D>::value && is_float_like<S>::value &&
                                 (std::is_same<D, float>::value || std::is_same<D, double>::value);
    if (widen_exact || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) {
        if constexpr (!std::is_integral<D>::value && is_float_like<S>::value) {
            // Float to float, nearest even: the storage types' own conversions (the fast path).
            chunked(n, [=](int64_t i) { d[i] = D(compute_t<S>(s[i])); });
            return;
        }
    }
    for (int64_t i = 0; i < n; ++i) d[i] = one<D>(s[i], mode);
}

}  // namespace cast
}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, uint32_t count,
                 ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(!std::is_same<U, int4b_t>::value, "ascgen: Cast from int4b_t is not emulated");
    L::enter(loc);
    L::vec_operand(dst, count, "Cast", "dst", loc);
    L::vec_operand(src, count, "Cast", "src", loc);
    ASCGEN_ARG_CHECK(roundMode != RoundMode::UNKNOWN && uint8_t(roundMode) <= uint8_t(RoundMode::CAST_ODD), loc,
                     "Cast: unsupported RoundMode %d", int(roundMode));
    if constexpr (L::is_int4<T>::value) {
        for (uint32_t i = 0; i < count; ++i) L::set_nibble(dst.data(), i, L::cast::to_int4(src.data()[i], roundMode));
    } else {
        L::cast::run(dst.data(), src.data(), int64_t(count), roundMode);
    }
    ::ascgen::rt::cost(PIPE_V, count);
}

// Level 0: lanes of one repeat cover 256 bytes of the wider type.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, uint64_t mask,
                 uint8_t repeatTimes, const UnaryRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(!std::is_same<U, int4b_t>::value, "ascgen: Cast from int4b_t is not emulated");
    L::enter(loc);
    using W = std::conditional_t<(sizeof(T) > sizeof(U)), T, U>;
    RoundMode m = roundMode;
    if constexpr (L::is_int4<T>::value) {
        // Destination blocks of 64 nibbles; lane i of repeat r goes to nibble r*rep*64 + (i/64)*blk*64 + i%64.
        const L::Plan pl = L::plan_count<U, isSetMask>(mask, repeatTimes, "Cast", loc);
        L::masked_operand(src, pl, p.srcBlkStride, p.srcRepStride, "Cast", "src", loc);
        int64_t need = 0;
        for (int r = 0; r < pl.repeats; ++r)
            if (pl.at(r).last >= 0) {
                int i = pl.at(r).last;
                int64_t k = int64_t(r) * p.dstRepStride * 64 + int64_t(i / 64) * p.dstBlkStride * 64 + i % 64 + 1;
                need = k > need ? k : need;
            }
        L::vec_operand(dst, need, "Cast", "dst", loc);
        for (int r = 0; r < pl.repeats; ++r)
            for (int i = 0; i <= pl.at(r).last; ++i)
                if (pl.at(r).on(i))
                    L::set_nibble(dst.data(),
                                  uint64_t(int64_t(r) * p.dstRepStride * 64 + int64_t(i / 64) * p.dstBlkStride * 64 + i % 64),
                                  L::cast::to_int4(src.data()[L::lane_index<U>(r, i, p.srcBlkStride, p.srcRepStride)], m));
        ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * L::lanes_per_repeat<U>());
    } else {
        L::unary_masked_apply("Cast", dst, src, L::plan_count<W, isSetMask>(mask, repeatTimes, "Cast", loc), p,
                              [m](L::compute_t<U> x) { return L::cast::one<T>(U(x), m); }, loc);
    }
}

}  // namespace AscendC
