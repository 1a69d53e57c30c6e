// THE element rules: what one vector lane computes, shared by the three vector models (the builtin
// library, runtime/include/ascendc/vec_ops.h, compare.h, cast.h, gather.h; the dav_c220 model,
// runtime/devkit/include/ascgen_devkit/vector.h, convert.h; the dav_3510 register model,
// ascgen_devkit/dav3510/valu.h, vconv.h). docs/semantics.md "Element rules" lists each rule and its source.
//
// The functions take values of the compute type C (float for half / bfloat16, the element type otherwise;
// the dav_3510 model widens integers to int64_t and narrows by truncation, which gives the same bits) and
// never rely on C++ undefined behaviour: signed overflow, shifts by negative amounts or by the width,
// integer division by zero and INT_MIN / -1 all have a defined result here.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ascgen {
namespace elem {

template <class C> constexpr bool is_int = std::is_integral<C>::value;
template <class C> using bits_of = std::make_unsigned_t<C>;

// ---- integer add / sub / mul / neg wrap modulo 2^width (two's complement), as the vector ALU does ----
// Computed in uint64_t: unsigned arithmetic has no overflow and no promotion to int (a 16-bit product
// promoted to int could overflow it), then truncated to the width.
template <class C> inline C add(C a, C b) {
    if constexpr (is_int<C>) return C(bits_of<C>(uint64_t(bits_of<C>(a)) + uint64_t(bits_of<C>(b))));
    else return a + b;
}
template <class C> inline C sub(C a, C b) {
    if constexpr (is_int<C>) return C(bits_of<C>(uint64_t(bits_of<C>(a)) - uint64_t(bits_of<C>(b))));
    else return a - b;
}
template <class C> inline C mul(C a, C b) {
    if constexpr (is_int<C>) return C(bits_of<C>(uint64_t(bits_of<C>(a)) * uint64_t(bits_of<C>(b))));
    else return a * b;
}
template <class C> inline C neg(C a) {
    if constexpr (is_int<C>) return sub(C(0), a);
    else return -a;
}

// ---- fused multiply-add on float lanes: a * b + c rounded once, to the lane's type T ----
// dav_3510's register vmula / vmadd are fused: the library names MulDstAdd's implementation
// FusedMulDstAddImpl, and its precise square root (impl/basic_api/reg_compute/dav_3510/
// kernel_reg_compute_vec_unary_impl.h, the Newton step `err = b - x1*x1` through vmula, then
// `x2 = x2*err + x1` through vmadd) needs the product unrounded: with a rounded product that residual
// would be a cancellation of two equal floats, not the correction the algorithm adds.
// A float lane is std::fma. A half / bfloat16 lane computes in float and is narrowed (round to nearest
// even) afterwards, so this returns the exact value rounded to ODD at float precision: a value rounded to
// odd with at least two more bits than the target rounds to nearest exactly as the exact value would
// (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
// odd", IEEE Trans. Computers 57(4), 2008), so the narrowing is the one rounding of the fused op.
inline double to_odd(double r, double err) {            // r + err exactly, rounded to odd at double precision
    if (err == 0 || !std::isfinite(r)) return r;
    uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    return (bits & 1) ? r : std::nextafter(r, err > 0 ? INFINITY : -INFINITY);
}
inline float to_odd_float(double x) {                    // x rounded to odd at float precision
    const float f = float(x);
    if (double(f) == x || !std::isfinite(f)) return f;
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return (bits & 1) ? f : std::nextafter(f, double(f) < x ? INFINITY : -INFINITY);
}
template <class T, class C> inline C fused_mul_add(C a, C b, C c) {
    if constexpr (std::is_same<T, C>::value) {
        return std::fma(a, b, c);
    } else {
        static_assert(std::is_same<C, float>::value, "a narrow float lane computes in float");
        const double p = double(a) * double(b);          // exact: two 24-bit significands fit in 53 bits
        const double r = p + double(c);
        const double z = r - p;                          // TwoSum: r + err is p + c exactly
        const double err = (p - (r - z)) + (double(c) - z);
        return to_odd_float(to_odd(r, err));             // round-to-odd twice is round-to-odd once
    }
}

// ---- integer division ----
// By zero: every bit set (-1 signed, the maximum unsigned), the quotient the library's own 64-bit integer
// division returns for a zero divisor (asc-devkit impl/basic_api/reg_compute/dav_3510/
// kernel_reg_compute_vec_binary_impl.h, DivU64Impl / DivS64Impl: `VselUsingU32(dstReg, qZero, ..., zeroMask)`
// with qZero all ones). INT_MIN / -1 wraps to INT_MIN. Float division is IEEE (x / 0 = +-inf, 0 / 0 = NaN).
template <class C> inline C div(C a, C b) {
    if constexpr (is_int<C>) {
        if (b == C(0)) return C(~bits_of<C>(0));
        if (std::is_signed<C>::value && b == C(-1)) return neg(a);
        return C(a / b);
    } else {
        return a / b;
    }
}

// ---- max / min: NaN propagates; -0 orders below +0 (IEEE 754-2019 maximum / minimum) ----
// NaN: the library's Clamp on dav_3510 is Max(x, lo) then Min(., hi) (asc-devkit
// impl/adv_api/detail/math/clamp/clamp_3510_impl.h) and is documented to leave NaN values unchanged
// (examples/01_simd_cpp_api/04_advanced_api/10_math/clamp/README_en.md: "clamp input values (excluding
// NaN)"), so the vector max and min return the NaN. The same rule holds on every arch: no source states
// another one for dav_c220. -0 against +0: no source states it; ascgen follows IEEE 754-2019.
template <class C> inline C max(C a, C b) {
    if constexpr (is_int<C>) {
        return a > b ? a : b;
    } else {
        if (std::isnan(a)) return a;
        if (std::isnan(b)) return b;
        if (a == b) return std::signbit(a) ? b : a;   // max(-0, +0) = +0 in either order
        return a > b ? a : b;
    }
}
template <class C> inline C min(C a, C b) {
    if constexpr (is_int<C>) {
        return a < b ? a : b;
    } else {
        if (std::isnan(a)) return a;
        if (std::isnan(b)) return b;
        if (a == b) return std::signbit(a) ? a : b;   // min(-0, +0) = -0 in either order
        return a < b ? a : b;
    }
}
// Relu is max(x, +0): Relu(NaN) = NaN, Relu(-0) = +0.
template <class C> inline C relu(C a) { return max(a, C(0)); }
// LeakyRelu keeps x >= 0 (so -0 stays -0) and scales the rest, NaN included (NaN * s = NaN).
template <class C> inline C leaky_relu(C a, C s) { return a >= C(0) ? a : mul(a, s); }
// Abs clears the sign: Abs(-0) = +0, Abs(NaN) = NaN; integers wrap (Abs(INT_MIN) = INT_MIN).
template <class C> inline C abs(C a) {
    if constexpr (is_int<C>) return a < C(0) ? neg(a) : a;
    else return std::fabs(a);
}

// ---- compares are IEEE: NaN is unordered (every relation false except !=), -0 == +0 ----
// The library finds NaN lanes with Compare(x, x, NE) (asc-devkit impl/adv_api/detail/math/isfinite/
// is_finite_common_impl.h, "Use vcmp_ne for comparison ... nan"), which needs exactly this. C++'s
// relational operators on float are this rule; the models use them directly.

// ---- shifts of integer lanes by an amount k ----
// A negative amount shifts the other way; an amount of the width or more shifts every bit out: 0 for a
// left shift, the sign (0 or -1) for the arithmetic right shift of a signed lane, 0 for an unsigned one.
// Right shifts are arithmetic for signed types, logical for unsigned. (dav_c220's library allows a scalar
// amount in [0, width]: CheckValueRange(scalarValue, 0, sizeof(T) * 8) in asc-devkit impl/basic_api/dav_c220/
// kernel_operator_vec_binary_scalar_impl.h; dav_3510's register shifts take signed per-lane amounts.)
template <class T> inline T shr(T v, int64_t k);
template <class T> inline T shl(T v, int64_t k) {
    static_assert(is_int<T>, "shifts take integer lanes");
    if (k < 0) return k < -int64_t(sizeof(T) * 8) ? shr<T>(v, int64_t(sizeof(T) * 8)) : shr<T>(v, -k);
    if (k >= int64_t(sizeof(T) * 8)) return T(0);
    return T(bits_of<T>(bits_of<T>(v) << k));
}
template <class T> inline T shr(T v, int64_t k) {
    static_assert(is_int<T>, "shifts take integer lanes");
    const int64_t w = int64_t(sizeof(T) * 8);
    if (k < 0) return k < -w ? T(0) : shl<T>(v, -k);
    if (k >= w) return std::is_signed<T>::value && v < T(0) ? T(-1) : T(0);
    return T(v >> k);   // arithmetic for signed (C++20 defines it; every g++ / clang does so already)
}

// ---- float -> integer conversion ----
// The value is rounded to an integral value with the conversion's mode, then saturated to the integer
// type's range; NaN converts to 0 (the saturation-mode behaviour the library documents for the vector unit:
// "NaN output is saturated to 0", asc-devkit examples/01_simd_cpp_api/03_basic_api/09_utils/ctrl_spr/
// README_en.md; +-inf saturates to the type's extremes).
enum class Round { Rint, Away, Floor, Ceil, Trunc };
inline double round_integral(double x, Round r) {
    switch (r) {
        case Round::Away: return std::round(x);
        case Round::Floor: return std::floor(x);
        case Round::Ceil: return std::ceil(x);
        case Round::Trunc: return std::trunc(x);
        default: return std::nearbyint(x);   // the default floating-point environment: ties to even
    }
}
template <class D> inline D saturate(double r) {
    static_assert(is_int<D>, "saturate converts to an integer type");
    if (std::isnan(r)) return D(0);
    constexpr double lo = double(std::numeric_limits<D>::lowest()), hi = double(std::numeric_limits<D>::max());
    if (r <= lo) return std::numeric_limits<D>::lowest();
    if (r >= hi) return std::numeric_limits<D>::max();
    return D(r);
}
template <class D> inline D float_to_int(double x, Round r) { return saturate<D>(round_integral(x, r)); }

// ---- integer -> float: the exact integer rounded once to float's 24-bit significand in the mode asked ----
// dav_3510's vcvt takes a ROUND mode for int32 / int64 -> float (the library's Cast with CAST_RINT, ROUND,
// FLOOR, CEIL, TRUNC, ODD). Done on the integer's bits, never through double: an int64 does not fit
// double's 53 bits, and rounding it there first would round twice. Odd truncates, then sets the last
// significand bit when bits were dropped. No overflow is possible (2^64 < float's maximum).
enum class IntRound { Rint, Away, Floor, Ceil, Trunc, Odd };
inline float int_to_float(bool negative, uint64_t magnitude, IntRound r) {
    int drop = 0;
    while ((magnitude >> drop) >= (uint64_t(1) << 24)) ++drop;           // bits below float's significand
    uint64_t kept = magnitude >> drop;
    const uint64_t rest = drop ? magnitude & ((uint64_t(1) << drop) - 1) : 0, half = drop ? uint64_t(1) << (drop - 1) : 0;
    bool up = false;
    switch (r) {
        case IntRound::Rint: up = rest > half || (rest == half && rest && (kept & 1)); break;
        case IntRound::Away: up = rest && rest >= half; break;
        case IntRound::Floor: up = negative && rest; break;
        case IntRound::Ceil: up = !negative && rest; break;
        case IntRound::Trunc: break;
        case IntRound::Odd: if (rest) kept |= 1; break;
    }
    const float v = std::ldexp(float(kept + (up ? 1 : 0)), drop);         // kept + 1 <= 2^24: exact
    return negative ? -v : v;
}
template <class I> inline float int_to_float(I v, IntRound r) {
    static_assert(is_int<I>, "int_to_float converts an integer");
    const bool negative = v < I(0);
    const uint64_t magnitude = negative ? uint64_t(0) - uint64_t(int64_t(v)) : uint64_t(v);
    return int_to_float(negative, magnitude, r);
}

}  // namespace elem
}  // namespace ascgen
