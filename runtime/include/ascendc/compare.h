// Compare / CompareScalar (one result bit per element, LSB first, packed into the destination bytes) and
// Select (pick src0 where the mask bit is 1, else src1 or a scalar). The level-0 Compare without a
// destination writes the CMPMASK register (GetCmpMask reads it out); Select in VSEL_CMPMASK_SPR mode
// reuses the first 256/sizeof(T) mask bits for every 256-byte repeat.
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/kernel_state.h"
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
// The scalar given as a one-element tensor (arch 3510 form): its element [0].
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& scalar,
                          CMPMODE cmpMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::vec_operand(scalar, 1, "CompareScalar", "src1 (scalar tensor)", loc);
    CompareScalar(dst, src0, scalar.data()[0], cmpMode, count, loc);
}
template <typename T, typename U, typename S>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const S& scalar, CMPMODE cmpMode,
                     uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    if constexpr (::ascgen::lib::is_local<S>::value) CompareScalar(dst, src0, scalar, cmpMode, count, loc);
    else CompareScalar(dst, src0, T(scalar), cmpMode, count, loc);
}

// Tensor-tensor select: dst[i] = mask bit i ? src0[i] : src1[i].
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE || selMode == SELMODE::VSEL_CMPMASK_SPR, loc,
                     "Select with two tensors needs SELMODE::VSEL_TENSOR_TENSOR_MODE (got %d)", int(selMode));
    L::check_mask_dst(selMask, selMode == SELMODE::VSEL_CMPMASK_SPR ? (count < 256 / sizeof(T) ? count : uint32_t(256 / sizeof(T))) : count,
                      "Select", loc);
    L::vec_operand(dst, count, "Select", "dst", loc);
    L::vec_operand(src0, count, "Select", "src0", loc);
    L::vec_operand(src1, count, "Select", "src1", loc);
    const void* m = selMask.data();
    // VSEL_CMPMASK_SPR: one repeat's worth of mask bits, applied to every repeat.
    const uint32_t period = selMode == SELMODE::VSEL_CMPMASK_SPR ? uint32_t(256 / sizeof(T)) : 0xffffffffu;
    for (uint32_t i = 0; i < count; ++i)
        dst.data()[i] = L::mask_bit(m, i % period) ? src0.data()[i] : src1.data()[i];
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

// Select in the arch-3510 spelling Select<BinaryDefaultType, MaskT, config>(dst, mask, a, b, mode, n): in
// tensor-scalar mode, either operand may be a scalar or a one-element tensor (config.scalarTensorIndex).
template <typename T = BinaryDefaultType, typename U = uint8_t, const BinaryConfig& config = DEFAULT_BINARY_CONFIG,
          typename E, typename S0, typename S1>
inline void Select(const LocalTensor<E>& dst, const LocalTensor<U>& selMask, const S0& src0, const S1& src1,
                   SELMODE selMode, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    constexpr bool t0 = L::is_local<S0>::value, t1 = L::is_local<S1>::value;
    if constexpr (t0 && t1) {
        if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
            Select(dst, selMask, src0, src1, selMode, count, loc);
        } else if constexpr (config.scalarTensorIndex == 0) {
            // dst[i] = bit ? scalar : src1[i]  ==  inverted-mask select of src1 against the scalar
            L::vec_operand(src0, 1, "Select", "src0 (scalar tensor)", loc);
            L::check_mask_dst(selMask, count, "Select", loc);
            L::vec_operand(dst, count, "Select", "dst", loc);
            L::vec_operand(src1, count, "Select", "src1", loc);
            E s = src0.data()[0];
            for (uint32_t i = 0; i < count; ++i) dst.data()[i] = L::mask_bit(selMask.data(), i) ? s : src1.data()[i];
            ::ascgen::rt::cost(PIPE_V, count);
        } else {
            L::vec_operand(src1, 1, "Select", "src1 (scalar tensor)", loc);
            Select(dst, selMask, src0, E(src1.data()[0]), selMode, count, loc);
        }
    } else if constexpr (t0) {
        Select(dst, selMask, src0, L::same_t<E>(E(src1)), selMode, count, loc);
    } else {
        static_assert(t1, "Select: at least one source must be a tensor");
        L::check_mask_dst(selMask, count, "Select", loc);
        L::vec_operand(dst, count, "Select", "dst", loc);
        L::vec_operand(src1, count, "Select", "src1", loc);
        E s = E(src0);
        for (uint32_t i = 0; i < count; ++i) dst.data()[i] = L::mask_bit(selMask.data(), i) ? s : src1.data()[i];
        ::ascgen::rt::cost(PIPE_V, count);
    }
}

// Level 0 with a destination: per repeat, the enabled lanes' bits go to dst (256/sizeof(T) bits a repeat).
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    const L::Plan pl = L::plan_count<T, isSetMask>(mask, repeatTimes, "Compare", loc);
    const int epr = L::lanes_per_repeat<T>();
    L::check_mask_dst(dst, int64_t(pl.repeats) * epr, "Compare", loc);
    L::masked_operand(src0, pl, p.src0BlkStride, p.src0RepStride, "Compare", "src0", loc);
    L::masked_operand(src1, pl, p.src1BlkStride, p.src1RepStride, "Compare", "src1", loc);
    using C = L::compute_t<T>;
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.data());
    for (int r = 0; r < pl.repeats; ++r)
        for (int i = 0; i < epr; ++i) {
            const L::Lanes& l = pl.at(r);
            bool bit = l.on(i) && L::cmp(cmpMode, C(src0.data()[L::lane_index<T>(r, i, p.src0BlkStride, p.src0RepStride)]),
                                          C(src1.data()[L::lane_index<T>(r, i, p.src1BlkStride, p.src1RepStride)]));
            int64_t k = int64_t(r) * epr + i;
            d[k >> 3] = uint8_t((d[k >> 3] & ~(1u << (k & 7))) | (bit ? 1u << (k & 7) : 0u));
        }
    ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * epr);
}

// Level 0 without a destination: one repeat, the result bits go to the CMPMASK register.
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask,
                    const BinaryRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    const L::Plan pl = L::plan_count<T, isSetMask>(mask, 1, "Compare", loc);
    const L::Lanes& l = pl.full;
    L::masked_operand(src0, pl, p.src0BlkStride, p.src0RepStride, "Compare", "src0", loc);
    L::masked_operand(src1, pl, p.src1BlkStride, p.src1RepStride, "Compare", "src1", loc);
    using C = L::compute_t<T>;
    uint64_t* reg = L::kernel_state().cmpmask;
    reg[0] = reg[1] = 0;
    for (int i = 0; i <= l.last; ++i)
        if (l.on(i) && L::cmp(cmpMode, C(src0.data()[L::lane_index<T>(0, i, p.src0BlkStride, p.src0RepStride)]),
                              C(src1.data()[L::lane_index<T>(0, i, p.src1BlkStride, p.src1RepStride)])))
            reg[i >> 6] |= uint64_t(1) << (i & 63);
    ::ascgen::rt::cost(PIPE_V, uint64_t(L::lanes_per_repeat<T>()));
}

// The CMPMASK register (128 bits) to / from the first 16 bytes of a UB tensor.
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_ub(dst, 16, "GetCmpMask", "dst", loc);
    std::memcpy(dst.data(), L::kernel_state().cmpmask, 16);
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_ub(src, 16, "SetCmpMask", "src", loc);
    std::memcpy(L::kernel_state().cmpmask, src.data(), 16);
}

}  // namespace AscendC
