// The 8-bit float formats dav_3510 converts to and from (the OCP 8-bit floating point formats, "OFP8"):
// the element rules, on raw bytes, shared by the register engine's vcvt (dav3510/vconv.h), mad's fp8
// operands (cube.h) and the scalar types' constructors (types.h).
//
//   e4m3fn  1.4.3, bias 7, no infinities, S.1111.111 NaN: largest finite 448
//   e5m2    1.5.2, bias 15, IEEE-like (the top byte of a half): largest finite 57344, S.11111.00 infinity
//
// Decoding is exact (both fit half, bfloat16 and float). Encoding rounds the exact value once, to the
// format's grid, in one of the ROUND modes (rint, away, floor, ceil, trunc, odd: ascgen::elem::IntRound).
// Out of range:
//   * saturating (RoundingSaturation RS_ENABLE): +-inf and anything beyond the largest finite value become
//     +-max, NaN becomes 0: the vector unit's saturation rule as the library documents it for float
//     conversions ("INF output is saturated to +/-MAX, NaN output is saturated to 0", asc-devkit
//     examples/01_simd_cpp_api/03_basic_api/09_utils/ctrl_spr/README_en.md), the rule the float -> integer
//     forms follow too (ascgen_common/elementwise.h saturate).
//   * not saturating: IEEE's overflow result: infinity in e5m2, NaN in e4m3fn (no infinity to give), as
//     the OCP specification's non-saturating conversion and ml_dtypes' astype do; the directed modes that
//     round toward zero on that side (trunc, floor above zero, ceil below) give +-max instead, as IEEE's.
//     NaN stays NaN (e4m3fn S.1111.111, e5m2 S.11111.10: ml_dtypes' patterns).
// The hardware manuals are not public; tests/devkit/test_reg_cast_fp8.py checks these rules against ml_dtypes
// (rint, not saturating) and pins the rest.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include "ascgen_common/elementwise.h"

namespace ascgen_devkit {
namespace fp8 {
struct Format {
    int man;          // stored significand bits
    int bias;
    double max;       // largest finite value
    bool has_inf;
    uint8_t inf;      // the positive infinity's byte (has_inf)
    uint8_t nan;      // the positive NaN's byte
    constexpr int emin() const { return 1 - bias; }   // the exponent of the smallest normal value
};
constexpr Format e4m3fn{3, 7, 448.0, false, 0, 0x7F};
constexpr Format e5m2{2, 15, 57344.0, true, 0x7C, 0x7E};

// The byte's value; exact.
inline float decode(const Format& f, uint8_t b) {
    const int mag = b & 0x7F, field = mag >> f.man, m = mag & ((1 << f.man) - 1);
    const bool top = field == (0x7F >> f.man);
    float v;
    if (f.has_inf && top) v = m ? NAN : INFINITY;
    else if (!f.has_inf && mag == 0x7F) v = NAN;
    else if (field) v = std::ldexp(float((1 << f.man) | m), field - f.bias - f.man);
    else v = std::ldexp(float(m), f.emin() - f.man);                 // subnormal
    return (b & 0x80) ? -v : v;
}

// The byte of a non-negative value on the format's grid (at most its largest finite value).
inline uint8_t bits_of(const Format& f, double v) {
    if (v == 0) return 0;
    int e = 0;
    std::frexp(v, &e);
    e -= 1;                                                           // v in [2^e, 2^(e+1))
    if (e < f.emin()) return uint8_t(std::ldexp(v, f.man - f.emin()));   // subnormal
    return uint8_t(((e + f.bias) << f.man) | (int(std::ldexp(v, f.man - e)) - (1 << f.man)));
}

// x (exact, e.g. a float widened to double) as a byte of format f: rounded once in mode r, out of range as
// the header says. Odd truncates (as trunc, so at most to the largest finite value), then sets the last bit
// when inexact; a result past the largest finite value (e4m3fn's 448 | 1) is out of range.
inline uint8_t encode(const Format& f, double x, ::ascgen::elem::IntRound r, bool sat) {
    using ::ascgen::elem::IntRound;
    const uint8_t sign = std::signbit(x) ? 0x80 : 0, top = bits_of(f, f.max);
    const uint8_t out_of_range = uint8_t(sign | (sat ? top : f.has_inf ? f.inf : f.nan));
    if (std::isnan(x)) return sat ? 0 : uint8_t(sign | f.nan);
    if (std::isinf(x)) return out_of_range;
    if (x == 0) return sign;
    const bool odd = r == IntRound::Odd;
    const IntRound mode = odd ? IntRound::Trunc : r;
    int e = 0;
    std::frexp(x, &e);                                                // |x| in [2^(e-1), 2^e)
    const int lsb = std::max(e - 1, f.emin()) - f.man;                // the grid's step at |x|
    const auto integral = ::ascgen::elem::Round(int(mode));          // IntRound's first five are Round's
    double v = std::fabs(std::ldexp(::ascgen::elem::round_integral(std::ldexp(x, -lsb), integral), lsb));
    if (v > f.max) {
        const bool toward_zero = mode == IntRound::Trunc || (mode == IntRound::Floor && !sign) ||
                                 (mode == IntRound::Ceil && sign);    // IEEE: these stop at the largest finite
        if (!toward_zero) return out_of_range;
        v = f.max;
    }
    uint8_t code = bits_of(f, v);
    if (odd && v != std::fabs(x)) code |= 1;
    return code > top ? out_of_range : uint8_t(sign | code);
}
}  // namespace fp8
}  // namespace ascgen_devkit
