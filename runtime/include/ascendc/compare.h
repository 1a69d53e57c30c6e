// Compare / CompareScalar (one result bit per element, LSB first, packed into the destination bytes) and
// Select (pick src0 where the mask bit is 1, else src1 or a scalar).
#pragma once
#include <cstdint>

#include "ascendc/vec_engine.h"

namespace ascgen {
namespace lib {

template <class C>
inline bool cmp(AscendC::CMPMODE m, C a, C b) {
    switch (m) {
        case AscendC::CMPMODE::LT: return a < b;
        case AscendC::CMPMODE::GT: return a > b;
        case AscendC::CMPMODE::EQ: return a == b;
        case AscendC::CMPMODE::LE: return a <= b;
        case AscendC::CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}

// Bits of `n` results, packed 8 per byte. `get(i)` yields the i-th boolean.
template <class U, class G>
inline void pack_bits(U* dst, int64_t n, G get) {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst);
    for (int64_t byte = 0; byte * 8 < n; ++byte) {
        uint8_t v = 0;
        for (int b = 0; b < 8 && byte * 8 + b < n; ++b) v |= uint8_t(get(byte * 8 + b) ? 1u << b : 0u);
        d[byte] = v;
    }
}

template <class U>
inline void check_mask_dst(const AscendC::LocalTensor<U>& dst, int64_t n, const char* op, rt::Loc loc) {
    int64_t bytes = (n + 7) / 8;
    vec_operand(dst, (bytes + int64_t(sizeof(U)) - 1) / int64_t(sizeof(U)), op, "dst (bit mask)", loc);
}

inline bool mask_bit(const void* mask, int64_t i) {
    return (static_cast<const uint8_t*>(mask)[i >> 3] >> (i & 7)) & 1u;
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_mask_dst(dst, count, "Compare", loc);
    L::vec_operand(src0, count, "Compare", "src0", loc);
    L::vec_operand(src1, count, "Compare", "src1", loc);
    using C = L::compute_t<T>;
    const T* a = src0.data();
    const T* b = src1.data();
    L::pack_bits(dst.data(), count, [&](int64_t i) { return L::cmp(cmpMode, C(a[i]), C(b[i])); });
    ::ascgen::rt::cost(PIPE_V, count);
}

template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ::ascgen::lib::same_t<T>& scalar,
                          CMPMODE cmpMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_mask_dst(dst, count, "CompareScalar", loc);
    L::vec_operand(src0, count, "CompareScalar", "src0", loc);
    using C = L::compute_t<T>;
    const T* a = src0.data();
    C s = C(scalar);
    L::pack_bits(dst.data(), count, [&](int64_t i) { return L::cmp(cmpMode, C(a[i]), s); });
    ::ascgen::rt::cost(PIPE_V, count);
}
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ::ascgen::lib::same_t<T>& scalar,
                     CMPMODE cmpMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    CompareScalar(dst, src0, scalar, cmpMode, count, loc);
}

// Tensor-tensor select: dst[i] = mask bit i ? src0[i] : src1[i].
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE || selMode == SELMODE::VSEL_CMPMASK_SPR, loc,
                     "Select with two tensors needs SELMODE::VSEL_TENSOR_TENSOR_MODE (got %d)", int(selMode));
    L::check_mask_dst(selMask, count, "Select", loc);
    L::vec_operand(dst, count, "Select", "dst", loc);
    L::vec_operand(src0, count, "Select", "src0", loc);
    L::vec_operand(src1, count, "Select", "src1", loc);
    const void* m = selMask.data();
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = L::mask_bit(m, i) ? src0.data()[i] : src1.data()[i];
    ::ascgen::rt::cost(PIPE_V, count);
}

// Tensor-scalar select: dst[i] = mask bit i ? src0[i] : scalar.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   ::ascgen::lib::same_t<T> src1, SELMODE selMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE, loc,
                     "Select with a scalar needs SELMODE::VSEL_TENSOR_SCALAR_MODE (got %d)", int(selMode));
    L::check_mask_dst(selMask, count, "Select", loc);
    L::vec_operand(dst, count, "Select", "dst", loc);
    L::vec_operand(src0, count, "Select", "src0", loc);
    const void* m = selMask.data();
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = L::mask_bit(m, i) ? src0.data()[i] : src1;
    ::ascgen::rt::cost(PIPE_V, count);
}

}  // namespace AscendC
