// ascgen::int4: the packing of 4-bit signed integers (int4b_t), shared by the builtin library (Cast into
// int4b_t) and the devkit backend's intrinsics (vconv_f162s4*, the int4 cube path).
//
// Two elements per byte: element 2i in the low nibble of byte i, element 2i + 1 in the high one (the
// library's LocalTensor<int4b_t>::GetValue shifts the byte right by 4 * (index % 2); the examples' golden
// generators pack `lo | hi << 4`). A value is two's complement in its nibble: 0x8..0xF are -8..-1.
// Header-only, <cstdint> only.
#pragma once
#include <cstdint>

namespace ascgen {
namespace int4 {

constexpr int kMin = -8, kMax = 7;

// An already rounded value saturated to -8..7 (NaN -> 0, as the integer conversions do).
inline int saturate(double x) {
    if (x != x) return 0;
    return x <= kMin ? kMin : x >= kMax ? kMax : int(x);
}

// Write v (in -8..7) at nibble i of base; the other nibble of the byte is kept.
inline void set_nibble(void* base, uint64_t i, int v) {
    uint8_t* b = static_cast<uint8_t*>(base) + i / 2;
    const uint8_t nib = uint8_t(v) & 0xF;
    *b = i % 2 ? uint8_t((*b & 0x0F) | (nib << 4)) : uint8_t((*b & 0xF0) | nib);
}

// The signed value at nibble i of base.
inline int get_nibble(const void* base, uint64_t i) {
    const uint8_t b = static_cast<const uint8_t*>(base)[i / 2];
    const int nib = i % 2 ? b >> 4 : b & 0xF;
    return nib >= 8 ? nib - 16 : nib;
}

}  // namespace int4
}  // namespace ascgen
