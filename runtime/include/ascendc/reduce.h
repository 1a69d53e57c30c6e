// ReduceSum / ReduceMax / ReduceMin, level-2 count form: dst[0] = the reduction of count elements.
// ReduceMax/Min with calIndex also store the index of the (first) extreme in dst[1], as the bit pattern
// of an integer of the element's width (the device's convention; read it with ReinterpretCast).
//
// Sums accumulate in the compute type (float for half/bf16) in pairwise order per 256-byte repeat and
// then across repeats, and are rounded once at the end.
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/kernel_state.h"
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
    L::kernel_state().reduce_sum = float(L::compute_t<T>(dst.data()[0]));
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

// Level 0: `repeatTimes` repeats of the first `mask` lanes, repeat starts srcRepStride blocks apart; the
// index of ReduceMax/Min is the element offset in src.
namespace detail {
template <int kKind, typename T>   // 0 sum, 1 max, 2 min
inline void reduce_masked(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                          const ::ascgen::lib::Lanes& l, int32_t repeatTimes, int32_t srcRepStride, bool calIndex,
                          const char* op, ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    ASCGEN_ARG_CHECK(repeatTimes >= 1, loc, "%s: repeatTimes must be at least 1", op);
    L::vec_operand(dst, calIndex ? 2 : 1, op, "dst", loc);
    L::masked_operand(src, l, repeatTimes, 1, srcRepStride, op, "src", loc);
    ASCGEN_MEM_CHECK(work.data() != nullptr, loc, "%s: the work tensor was never allocated", op);
    using C = L::compute_t<T>;
    C acc = C(0);
    int64_t best = -1;
    for (int r = 0; r < repeatTimes; ++r)
        for (int i = 0; i <= l.last; ++i) {
            if (!l.on(i)) continue;
            int64_t k = L::lane_index<T>(r, i, 1, srcRepStride);
            C v = C(src.data()[k]);
            if (kKind == 0) acc += v;
            else if (best < 0 || (kKind == 1 ? v > acc : v < acc)) acc = v, best = k;
        }
    dst.data()[0] = T(acc);
    if (kKind == 0) L::kernel_state().reduce_sum = float(C(dst.data()[0]));
    if (kKind != 0 && calIndex) L::store_index(dst.data() + 1, best);
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTimes) * L::lanes_per_repeat<T>());
}
}  // namespace detail

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<0>(dst, src, work, ::ascgen::lib::lanes_count<T>(mask, "ReduceSum", loc), repeatTimes,
                             srcRepStride, false, "ReduceSum", loc);
}
template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, bool calIndex = false,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<1>(dst, src, work, ::ascgen::lib::lanes_count<T>(mask, "ReduceMax", loc), repeatTimes,
                             srcRepStride, calIndex, "ReduceMax", loc);
}
template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, bool calIndex = false,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<2>(dst, src, work, ::ascgen::lib::lanes_count<T>(mask, "ReduceMin", loc), repeatTimes,
                             srcRepStride, calIndex, "ReduceMin", loc);
}

// The result of the latest ReduceSum on this core, from its special register.
template <typename T>
inline T GetReduceRepeatSumSpr() {
    return T(::ascgen::lib::kernel_state().reduce_sum);
}

}  // namespace AscendC
