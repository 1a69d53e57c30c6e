// half (IEEE binary16) and bfloat16_t as storage types with round-to-nearest-even conversions.
//
// The device computes a half op in wider precision and rounds once per op. Here a value converts to
// float implicitly, arithmetic happens in float, and assigning back to half rounds: `h = a * b` rounds
// once, like one vector instruction. There are deliberately no half+half operators: with implicit
// conversions both ways they would make `h + 1.0f` ambiguous.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascgen {
namespace lib {

inline uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// float -> binary16, round to nearest even; overflow to inf, NaN stays NaN (quiet).
inline uint16_t f32_to_f16(float f) {
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)                                   // inf or NaN
        return uint16_t(sign | (ax > 0x7f800000u ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u));
    if (ax >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (ax < 0x38800000u) {                                  // below 2^-14: half subnormal or zero
        // Adding 0.5f puts the half-subnormal ulp (2^-24) at float's ulp, so the FPU rounds (RNE) for us.
        float r = bits_f32(ax) + 0.5f;
        return uint16_t(sign | (f32_bits(r) - 0x3f000000u));
    }
    uint32_t odd = (ax >> 13) & 1u;
    ax += 0xc8000fffu + odd;                                 // rebias exponent (-112) and round half to even
    return uint16_t(sign | (ax >> 13));
}

inline float f16_to_f32(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t em = h & 0x7fffu;
    if (em >= 0x7c00u) return bits_f32(sign | 0x7f800000u | ((em & 0x3ffu) << 13));
    if (em >= 0x0400u) return bits_f32(sign | ((em << 13) + 0x38000000u));
    float mag = float(em) * 5.9604644775390625e-08f;         // subnormal: em * 2^-24, exact
    return bits_f32(sign | f32_bits(mag));
}

// float -> bfloat16, round to nearest even; NaN stays NaN (quiet).
inline uint16_t f32_to_bf16(float f) {
    uint32_t x = f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return uint16_t(x >> 16);
}
inline float bf16_to_f32(uint16_t b) { return bits_f32(uint32_t(b) << 16); }

template <class T>
using if_arith = std::enable_if_t<std::is_arithmetic<T>::value, int>;

}  // namespace lib
}  // namespace ascgen

struct bfloat16_t;

// IEEE binary16. Trivially copyable, 2 bytes, so tensors of half are plain arrays.
struct half {
    uint16_t bits;

    half() = default;
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    half(T v) : bits(::ascgen::lib::f32_to_f16(static_cast<float>(v))) {}
    inline half(const bfloat16_t& b);
    operator float() const { return ::ascgen::lib::f16_to_f32(bits); }
    float ToFloat() const { return float(*this); }   // the real library's accessor (devkit backend)

    static half from_bits(uint16_t b) {
        half h;
        h.bits = b;
        return h;
    }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    half& operator+=(T v) { return *this = half(float(*this) + float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    half& operator-=(T v) { return *this = half(float(*this) - float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    half& operator*=(T v) { return *this = half(float(*this) * float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    half& operator/=(T v) { return *this = half(float(*this) / float(v)); }
    half& operator+=(half v) { return *this = half(float(*this) + float(v)); }
    half& operator-=(half v) { return *this = half(float(*this) - float(v)); }
    half& operator*=(half v) { return *this = half(float(*this) * float(v)); }
    half& operator/=(half v) { return *this = half(float(*this) / float(v)); }
};

// bfloat16: the top half of a float32, rounded to nearest even.
struct bfloat16_t {
    uint16_t bits;

    bfloat16_t() = default;
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    bfloat16_t(T v) : bits(::ascgen::lib::f32_to_bf16(static_cast<float>(v))) {}
    bfloat16_t(half h) : bits(::ascgen::lib::f32_to_bf16(float(h))) {}
    operator float() const { return ::ascgen::lib::bf16_to_f32(bits); }
    float ToFloat() const { return float(*this); }

    static bfloat16_t from_bits(uint16_t b) {
        bfloat16_t h;
        h.bits = b;
        return h;
    }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    bfloat16_t& operator+=(T v) { return *this = bfloat16_t(float(*this) + float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    bfloat16_t& operator-=(T v) { return *this = bfloat16_t(float(*this) - float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    bfloat16_t& operator*=(T v) { return *this = bfloat16_t(float(*this) * float(v)); }
    template <class T, ::ascgen::lib::if_arith<T> = 0>
    bfloat16_t& operator/=(T v) { return *this = bfloat16_t(float(*this) / float(v)); }
};

inline half::half(const bfloat16_t& b) : bits(::ascgen::lib::f32_to_f16(float(b))) {}

static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value, "half must be 2 plain bytes");
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable<bfloat16_t>::value, "bf16: 2 plain bytes");

namespace ascgen {
namespace lib {
// "Low" floats are stored narrow and computed in float.
template <class T> struct is_low_float : std::false_type {};
template <> struct is_low_float<half> : std::true_type {};
template <> struct is_low_float<bfloat16_t> : std::true_type {};
// The type arithmetic on T happens in: float for half/bf16, T itself otherwise.
template <class T> struct compute { using type = T; };
template <> struct compute<half> { using type = float; };
template <> struct compute<bfloat16_t> { using type = float; };
template <class T> using compute_t = typename compute<T>::type;
template <class T> struct is_float_like : std::integral_constant<bool, std::is_floating_point<T>::value || is_low_float<T>::value> {};
}  // namespace lib
}  // namespace ascgen
