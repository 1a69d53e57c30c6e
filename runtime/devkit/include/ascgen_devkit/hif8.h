// HiFloat8 (the library's hifloat8_t), the tapered 8-bit float dav_3510's vcvt converts to and from: the
// element rule, on raw bytes, for the register engine (dav3510/vconv.h).
//
// Source: the public white paper "Ascend HiFloat8 Format for Deep Learning" (arXiv 2409.16626, the format's
// definition and its rounding section), and the behaviour of en_dtypes' numpy `hifloat8` (the en-dtypes
// package the CANN repositories' goldens use), which tests/devkit/test_reg_cast_hif8.py checks this file
// against for every half value and every byte.
//
// A byte is sign | dot | exponent | mantissa. The dot field is a prefix code giving the exponent field's
// width D: 11 -> 4, 10 -> 3, 01 -> 2, 001 -> 1, 0001 -> 0, 0000 -> the denormal mode. The exponent field is
// sign-magnitude with an implicit leading 1 in the magnitude (D = 4: +-8..15, 3: +-4..7, 2: +-2..3,
// 1: +-1, 0: 0); the mantissa takes the bits left: 1 bit for |E| 8..15, 2 for 4..7, 3 for 0..3. So a
// binade 2^E holds 2, 4 or 8 values, tapering with |E|. The denormal mode's three bits m (1..7) are the
// powers 2^(m - 23): 2^-22 .. 2^-16, one value per binade. 0x00 is zero (the only one: no -0), 0x80 NaN,
// S.11.0111.1 (where 1.5 * 2^15 would be) +-infinity; the largest finite value is 2^15.
//
// Decoding is exact (every value fits half and float). Encoding (the library's ROUND A, CAST_ROUND, the
// paper's "TA"): the exact value rounded to the nearest point of its binade's grid, ties away from zero, the
// grid of a binade below 2^-15 being its power of two alone (so 1.5 * 2^-17 rounds up to 2^-16, and values
// below 2^-23 to zero). Past the largest value (|x| >= 1.25 * 2^15, where the next grid point 1.5 * 2^15
// would be nearer): infinity, as en_dtypes' astype; saturating (RoundingSaturation RS_ENABLE), +-2^15 for
// that and for +-inf, and NaN -> 0: the vector unit's documented saturation rule for float conversions
// (ascgen_devkit/fp8.h names the library's page), the rule the fp8 and integer conversions follow too.
// The paper's other rounding, HYBRID (the library's CAST_HYBRID), is not specified precisely enough in a
// public source to model: dav3510/vconv.h stops a kernel that reaches it with a named fault.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ascgen_devkit {
namespace hif8 {
constexpr uint8_t kNaN = 0x80;
constexpr uint8_t kInf = 0x6F;
constexpr uint8_t kMax = 0x6E;            // 2^15
constexpr int kMaxExp = 15, kMinNormalExp = -15, kMinDenormalExp = -22;

// The stored mantissa bits of the binade 2^e (e in the normal range).
constexpr int mantissa_bits(int e) {
    const int mag = e < 0 ? -e : e;
    return mag >= 8 ? 1 : mag >= 4 ? 2 : 3;
}

// The byte's value; exact.
inline float decode(uint8_t b) {
    if (b == kNaN) return NAN;
    const int r = b & 0x7F;
    int d, m;                                                        // exponent width; mantissa bits
    if (r >> 5 == 3) d = 4, m = 1;
    else if (r >> 5 == 2) d = 3, m = 2;
    else if (r >> 5 == 1) d = 2, m = 3;
    else if (r >> 4 == 1) d = 1, m = 3;
    else if (r >> 3 == 1) d = 0, m = 3;
    else {                                                           // denormal: 2^(m - 23), or zero
        const float v = (r & 7) ? std::ldexp(1.0f, (r & 7) + kMinDenormalExp - 1) : 0.0f;
        return (b & 0x80) ? -v : v;
    }
    const int field = (r >> m) & ((1 << d) - 1), man = r & ((1 << m) - 1);
    int e = 0;
    if (d > 0) {
        const int mag = (1 << (d - 1)) | (field & ((1 << (d - 1)) - 1));   // the implicit leading 1
        e = (field >> (d - 1)) ? -mag : mag;
    }
    const float v = (r == kInf) ? INFINITY : std::ldexp(float((1 << m) | man), e - m);
    return (b & 0x80) ? -v : v;
}

// The 7-bit code of a positive value on the grid (at most 2^15).
inline uint8_t code_of(double v) {
    int e = 0;
    const double frac = std::frexp(v, &e);                           // v = frac * 2^e, frac in [0.5, 1)
    e -= 1;                                                          // v in [2^e, 2^(e+1))
    if (e < kMinNormalExp) return uint8_t(e - kMinDenormalExp + 1);
    const int m = mantissa_bits(e), mag = e < 0 ? -e : e, sign_e = e < 0 ? 1 : 0;
    const int man = int(std::ldexp(frac, m + 1)) - (1 << m);
    if (mag == 0) return uint8_t(0x08 | man);
    if (mag == 1) return uint8_t(0x10 | sign_e << 3 | man);
    if (mag <= 3) return uint8_t(0x20 | sign_e << 4 | (mag & 1) << 3 | man);
    if (mag <= 7) return uint8_t(0x40 | sign_e << 4 | (mag & 3) << 2 | man);
    return uint8_t(0x60 | sign_e << 4 | (mag & 7) << 1 | man);
}

// x (exact, e.g. a float or half widened to double) as a byte: nearest, ties away from zero; out of range as
// the header says.
inline uint8_t encode(double x, bool sat) {
    if (std::isnan(x)) return sat ? 0 : kNaN;
    const uint8_t sign = std::signbit(x) ? 0x80 : 0;
    const uint8_t out_of_range = uint8_t(sign | (sat ? kMax : kInf));
    if (std::isinf(x)) return out_of_range;
    const double a = std::fabs(x);
    if (a == 0) return 0;
    int e = 0;
    std::frexp(a, &e);
    e -= 1;                                                          // a in [2^e, 2^(e+1))
    if (e > kMaxExp) return out_of_range;
    // the grid's step at a: a binade below 2^-15 holds its power of two alone, and below 2^-22 the step is 2^-22
    const int lsb = e < kMinNormalExp ? std::max(e, kMinDenormalExp) : e - mantissa_bits(e);
    const double v = std::ldexp(std::round(std::ldexp(a, -lsb)), lsb);   // std::round: ties away from zero
    if (v == 0) return 0;                                            // no -0
    if (v > std::ldexp(1.0, kMaxExp)) return out_of_range;
    return uint8_t(sign | code_of(v));
}
}  // namespace hif8
}  // namespace ascgen_devkit
