// ReduceSum / ReduceMax / ReduceMin, level-2 count form: dst[0] = the reduction of count elements.
// ReduceMax/Min with calIndex also store the index of the (first) extreme in dst[1], as the bit pattern
// of an integer of the element's width (the device's convention; read it with ReinterpretCast).
//
// Sums accumulate in the compute type (float for half/bf16) in pairwise order per 256-byte repeat and
// then across repeats, and are rounded once at the end.
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/vec_engine.h"

namespace ascgen {
namespace lib {

template <class T>
inline void reduce_args(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<T>& work, int64_t n, int dst_elems, const char* op, rt::Loc loc) {
    enter(loc);
    check_count<T>(n, op, loc);
    ASCGEN_ARG_CHECK(n >= 1, loc, "%s: count must be at least 1", op);
    vec_operand(dst, dst_elems, op, "dst", loc);
    vec_operand(src, n, op, "src", loc);
    ASCGEN_MEM_CHECK(work.data() != nullptr, loc, "%s: the work tensor was never allocated", op);
}

// Pairwise sum of a[0..n) (tree order, like the hardware's repeated halving).
template <class C, class T>
inline C tree_sum(const T* a, int64_t n) {
    if (n <= 8) {
        C s = C(0);
        for (int64_t i = 0; i < n; ++i) s += C(a[i]);
        return s;
    }
    int64_t h = n / 2;
    return tree_sum<C>(a, h) + tree_sum<C>(a + h, n - h);
}

template <class T>
inline void store_index(T* slot, int64_t idx) {
    if constexpr (sizeof(T) == 2) {
        uint16_t v = uint16_t(idx);
        std::memcpy(slot, &v, 2);
    } else if constexpr (sizeof(T) == 4) {
        uint32_t v = uint32_t(idx);
        std::memcpy(slot, &v, 4);
    } else {
        *slot = T(idx);
    }
}

template <bool kMax, class T>
inline void reduce_extreme(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const AscendC::LocalTensor<T>& work, int64_t n, bool calIndex, const char* op,
                           rt::Loc loc) {
    reduce_args(dst, src, work, n, calIndex ? 2 : 1, op, loc);
    using C = compute_t<T>;
    const T* a = src.data();
    int64_t best = 0;
    C bv = C(a[0]);
    for (int64_t i = 1; i < n; ++i) {
        C v = C(a[i]);
        if (kMax ? v > bv : v < bv) {
            bv = v;
            best = i;
        }
    }
    dst.data()[0] = a[best];
    if (calIndex) store_index(dst.data() + 1, best);
    rt::cost(PIPE_V, uint64_t(n));
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t count,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::reduce_args(dst, src, work, count, 1, "ReduceSum", loc);
    using C = L::compute_t<T>;
    dst.data()[0] = T(L::tree_sum<C>(src.data(), count));
    ::ascgen::rt::cost(PIPE_V, uint64_t(count));
}

template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t count,
                      bool calIndex = false, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::reduce_extreme<true>(dst, src, work, count, calIndex, "ReduceMax", loc);
}

template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t count,
                      bool calIndex = false, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::reduce_extreme<false>(dst, src, work, count, calIndex, "ReduceMin", loc);
}

}  // namespace AscendC
