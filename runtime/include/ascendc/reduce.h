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
                          const ::ascgen::lib::Plan& pl, int32_t srcRepStride, bool calIndex,
                          const char* op, ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    ASCGEN_ARG_CHECK(pl.repeats >= 1, loc, "%s: repeatTimes must be at least 1", op);
    L::vec_operand(dst, calIndex ? 2 : 1, op, "dst", loc);
    L::masked_operand(src, pl, 1, srcRepStride, op, "src", loc);
    ASCGEN_MEM_CHECK(work.data() != nullptr, loc, "%s: the work tensor was never allocated", op);
    using C = L::compute_t<T>;
    C acc = C(0);
    int64_t best = -1;
    for (int r = 0; r < pl.repeats; ++r)
        for (int i = 0; i <= pl.at(r).last; ++i) {
            if (!pl.at(r).on(i)) continue;
            int64_t k = L::lane_index<T>(r, i, 1, srcRepStride);
            C v = C(src.data()[k]);
            if (kKind == 0) acc += v;
            else if (best < 0 || (kKind == 1 ? v > acc : v < acc)) acc = v, best = k;
        }
    dst.data()[0] = T(acc);
    if (kKind == 0) L::kernel_state().reduce_sum = float(C(dst.data()[0]));
    if (kKind != 0 && calIndex) L::store_index(dst.data() + 1, best);
    ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * L::lanes_per_repeat<T>());
}
}  // namespace detail

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<0>(dst, src, work, ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, "ReduceSum", loc),
                             srcRepStride, false, "ReduceSum", loc);
}
template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, bool calIndex = false,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<1>(dst, src, work, ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, "ReduceMax", loc),
                             srcRepStride, calIndex, "ReduceMax", loc);
}
template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, int32_t mask,
                      int32_t repeatTimes, int32_t srcRepStride, bool calIndex = false,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    detail::reduce_masked<2>(dst, src, work, ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, "ReduceMin", loc),
                             srcRepStride, calIndex, "ReduceMin", loc);
}

// The result of the latest ReduceSum on this core, from its special register.
template <typename T>
inline T GetReduceRepeatSumSpr() {
    return T(::ascgen::lib::kernel_state().reduce_sum);
}

// ---- reductions per repeat, per data block and per pair (level 0) ----
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

namespace detail {

// Every repeat reduces its enabled lanes to one value (and for MAX/MIN the lane index of the first extreme).
template <ReduceType kind, typename T, typename U>
inline void reduce_repeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ::ascgen::lib::Plan& pl,
                          int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order,
                          const char* op, ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    static_assert(sizeof(T) == sizeof(U), "reductions keep the element type");
    const bool pair = kind != ReduceType::SUM &&
                      (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
    const bool only_index = kind != ReduceType::SUM && order == ReduceOrder::ORDER_ONLY_INDEX;
    const int64_t unit_bytes = only_index ? 4 : int64_t(sizeof(T)) * (pair ? 2 : 1);
    L::check_ub_bytes(dst, (int64_t(pl.repeats) - 1) * dstRepStride * unit_bytes + unit_bytes, op, "dst", loc);
    L::masked_operand(src, pl, srcBlkStride, srcRepStride, op, "src", loc);
    using C = L::compute_t<U>;
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.data());
    for (int r = 0; r < pl.repeats; ++r) {
        const L::Lanes& l = pl.at(r);
        C acc = C(0);
        int best = -1;
        for (int i = 0; i <= l.last; ++i) {
            if (!l.on(i)) continue;
            C v = C(src.data()[L::lane_index<U>(r, i, srcBlkStride, srcRepStride)]);
            if (kind == ReduceType::SUM) acc += v;
            else if (best < 0 || (kind == ReduceType::MAX ? v > acc : v < acc)) acc = v, best = i;
        }
        uint8_t* slot = out + int64_t(r) * dstRepStride * unit_bytes;
        T value = T(acc);
        if (only_index) {
            uint32_t idx = uint32_t(best);
            std::memcpy(slot, &idx, 4);
        } else if (pair) {
            T* s2 = reinterpret_cast<T*>(slot);
            bool index_first = order == ReduceOrder::ORDER_INDEX_VALUE;
            s2[index_first ? 1 : 0] = value;
            L::store_index(s2 + (index_first ? 0 : 1), best);
        } else {
            std::memcpy(slot, &value, sizeof(T));
        }
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * L::lanes_per_repeat<U>());
}

// Every 32-byte block of a repeat (or every pair of lanes) reduces to one value; groups without an enabled
// lane leave dst unchanged.
template <ReduceType kind, int kGroup, typename T, typename U>
inline void reduce_groups(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ::ascgen::lib::Plan& pl,
                          int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, int out_per_repeat,
                          const char* op, ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    const int epr = L::lanes_per_repeat<U>();
    const int group = kGroup > 0 ? kGroup : int(32 / sizeof(U));
    L::check_ub_bytes(dst, ((int64_t(pl.repeats) - 1) * dstRepStride * out_per_repeat + epr / group) * int64_t(sizeof(T)),
                      op, "dst", loc);
    L::masked_operand(src, pl, srcBlkStride, srcRepStride, op, "src", loc);
    using C = L::compute_t<U>;
    for (int r = 0; r < pl.repeats; ++r) {
        const L::Lanes& l = pl.at(r);
        for (int g = 0; g * group < epr; ++g) {
            C acc = C(0);
            bool any = false;
            for (int i = g * group; i < (g + 1) * group; ++i) {
                if (!l.on(i)) continue;
                C v = C(src.data()[L::lane_index<U>(r, i, srcBlkStride, srcRepStride)]);
                if (!any) acc = v;
                else if (kind == ReduceType::SUM) acc += v;
                else acc = (kind == ReduceType::MAX ? v > acc : v < acc) ? v : acc;
                any = true;
            }
            if (any) dst.data()[int64_t(r) * dstRepStride * out_per_repeat + g] = T(acc);
        }
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * epr);
}

}  // namespace detail

// ReduceRepeat: one result per repeat. ReduceDataBlock: one per 32-byte block (8 per repeat, dstRepStride
// in units of 8 results). ReducePairElem: one per pair of lanes (dstRepStride in units of 128 bytes).
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime,
                         int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_repeat<reduceType>(dst, src, L::plan_count<U, isSetMask>(uint64_t(mask), repeatTime, "ReduceRepeat", loc),
                                      dstRepStride, srcBlkStride, srcRepStride, order, "ReduceRepeat", loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                         int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_repeat<reduceType>(dst, src, L::plan_bits<U, isSetMask>(mask, repeatTime, "ReduceRepeat", loc),
                                      dstRepStride, srcBlkStride, srcRepStride, order, "ReduceRepeat", loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime,
                            int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                            ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_groups<reduceType, 0>(dst, src,
                                         L::plan_count<U, isSetMask>(uint64_t(mask), repeatTime, "ReduceDataBlock", loc),
                                         dstRepStride, srcBlkStride, srcRepStride, 8, "ReduceDataBlock", loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                            int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                            ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_groups<reduceType, 0>(dst, src, L::plan_bits<U, isSetMask>(mask, repeatTime, "ReduceDataBlock", loc),
                                         dstRepStride, srcBlkStride, srcRepStride, 8, "ReduceDataBlock", loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, int32_t mask, int32_t repeatTime,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM");
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_groups<reduceType, 2>(dst, src,
                                         L::plan_count<U, isSetMask>(uint64_t(mask), repeatTime, "ReducePairElem", loc),
                                         dstRepStride, srcBlkStride, srcRepStride, int(128 / sizeof(U)),
                                         "ReducePairElem", loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                           int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM");
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::reduce_groups<reduceType, 2>(dst, src, L::plan_bits<U, isSetMask>(mask, repeatTime, "ReducePairElem", loc),
                                         dstRepStride, srcBlkStride, srcRepStride, int(128 / sizeof(U)),
                                         "ReducePairElem", loc);
}

// The older names: WholeReduce* = ReduceRepeat, BlockReduce* = ReduceDataBlock, PairReduceSum =
// ReducePairElem (BlockReduce* and PairReduceSum take repeatTime before mask). M is int32_t or uint64_t[2].
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, int32_t repeatTime,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceRepeat<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                   srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, int32_t repeatTime,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceRepeat<ReduceType::MAX, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                   srcRepStride, order, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, int32_t repeatTime,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceRepeat<ReduceType::MIN, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                   srcRepStride, order, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void BlockReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const M& mask,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceDataBlock<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                      srcRepStride, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void BlockReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const M& mask,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceDataBlock<ReduceType::MAX, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                      srcRepStride, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void BlockReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const M& mask,
                           int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReduceDataBlock<ReduceType::MIN, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                      srcRepStride, loc);
}
template <typename T, bool isSetMask = true, typename M>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, const M& mask,
                          int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                          ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ReducePairElem<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                     srcRepStride, loc);
}

}  // namespace AscendC
