// Compare, select and whole-iteration reductions.
//
// vcmpv_<op> / vcmpvs_<op>: one result bit per element into a byte tensor; iteration r writes its
// 256 / sizeof(T) bits at byte r * (256 / sizeof(T) / 8) (the library addresses them that way). They compare
// every element of each of their `repeat` iterations, whatever the vector mask and the mask mode: the
// library never sets a mask for them (dav_c220 and dav_m200 VcmpvImpl / VcmpvsImpl discard their mask
// argument, `(void)(mask)`), and its level-2 Compare / Compares compute the repeat count themselves and
// require whole iterations (count * sizeof(T) a multiple of 256). A mask left by an earlier instruction
// changed their bits here (ops-math right_shift: a CompareScalar after a masked ShiftRight, a silent wrong
// answer until 2026-12-06). vcmp_<op>: one iteration into the CMPMASK register, under the mask the
// library sets for it. vsel: bit set -> src0, clear ->
// src1; mode 0 takes the bits from CMPMASK for every iteration, mode 2 from the bit tensor whose address
// set_cmpmask stored (the library's CPU mode writes the real pointer), mode 1 selects against the scalar
// block set_cmpmask points at. vcadd / vcmax / vcmin reduce each iteration's active elements.
#pragma once
#include <cstring>
#include "vector.h"

namespace ascgen_devkit {

struct CmpState {
    uint8_t bits[16] = {};   // CMPMASK as 128 bits
    const uint8_t* addr = nullptr;
};
inline CmpState cmp;

inline bool get_bit(const uint8_t* p, uint64_t i) { return (p[i >> 3] >> (i & 7)) & 1u; }
inline void put_bit(uint8_t* p, uint64_t i, bool v) {
    if (v) p[i >> 3] |= uint8_t(1u << (i & 7));
    else p[i >> 3] &= uint8_t(~(1u << (i & 7)));
}

template <class T, class Pred>
inline void compare_bits(const char* name, uint8_t* dst, Operand a, const Operand* bp, uint64_t repeat, Pred pred,
                         bool dst_in_ub = true, bool masked = false) {
    ascgen_devkit::tick();
    uint64_t per = 256 / sizeof(T);
    Plan p = masked ? plan(repeat, per) : whole_repeats(repeat, per);
    Operand bo = bp ? *bp : a;
    const Operand* b = bp ? &bo : nullptr;
    check_ub(a.base, a.extent(p.repeats, per), name);
    if (b) check_ub(b->base, b->extent(p.repeats, per), name);
    if (dst_in_ub) check_ub(dst, p.repeats * per / 8, name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per);
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t e = 0; e < per; ++e) {
            bool v = false;
            if (p.active(r, e)) {
                auto x = wide_t<T>(*reinterpret_cast<const T*>(a.at(r, e)));
                auto y = b ? wide_t<T>(*reinterpret_cast<const T*>(b->at(r, e))) : decltype(x)(0);
                v = pred(x, y);
            }
            put_bit(dst, r * per + e, v);
        }
}

}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_CMP(NAME, expr)                                                                            \
    template <class T>                                                                                        \
    inline void vcmpv_##NAME(uint8_t* dst, T* s0, T* s1, uint64_t repeat, uint64_t, uint64_t ab, uint64_t bb,    \
                           uint64_t, uint64_t ar, uint64_t br) {                                               \
        const ascgen_devkit::Operand b = ascgen_devkit::op(s1, bb, br);                                       \
        ascgen_devkit::compare_bits<T>("vcmpv_" #NAME, dst, ascgen_devkit::op(s0, ab, ar), &b, repeat,          \
                                       [](auto x, auto y) { return expr; });                                  \
    }                                                                                                         \
    template <class T, class U>                                                                               \
    inline void vcmpvs_##NAME(uint8_t* dst, T* s0, U scalar, uint64_t repeat, uint64_t, uint64_t ab, uint64_t,   \
                            uint64_t ar) {                                                                     \
        const auto s = ascgen_devkit::wide_t<T>(T(scalar));                                                   \
        ascgen_devkit::compare_bits<T>("vcmpvs_" #NAME, dst, ascgen_devkit::op(s0, ab, ar), nullptr, repeat,    \
                                       [s](auto x, auto) { auto y = s; return expr; });                       \
    }                                                                                                         \
    template <class T>                                                                                        \
    inline void vcmp_##NAME(T* s0, T* s1, uint64_t repeat, uint64_t, uint64_t ab, uint64_t bb, uint64_t,         \
                          uint64_t ar, uint64_t br) {                                                          \
        const ascgen_devkit::Operand b = ascgen_devkit::op(s1, bb, br);                                       \
        std::memset(ascgen_devkit::cmp.bits, 0, sizeof ascgen_devkit::cmp.bits);                              \
        uint8_t tmp[256 / 8 * 2] = {};                                                                        \
        ascgen_devkit::compare_bits<T>("vcmp_" #NAME, tmp, ascgen_devkit::op(s0, ab, ar), &b, repeat < 1 ? repeat : 1, \
                                       [](auto x, auto y) { return expr; }, false, true);                     \
        std::memcpy(ascgen_devkit::cmp.bits, tmp, sizeof ascgen_devkit::cmp.bits);                            \
    }
ASCGEN_DEVKIT_CMP(eq, x == y)
ASCGEN_DEVKIT_CMP(ne, x != y)
ASCGEN_DEVKIT_CMP(lt, x < y)
ASCGEN_DEVKIT_CMP(le, x <= y)
ASCGEN_DEVKIT_CMP(gt, x > y)
ASCGEN_DEVKIT_CMP(ge, x >= y)
#undef ASCGEN_DEVKIT_CMP

inline void set_cmpmask(void* p) {
    std::memcpy(ascgen_devkit::cmp.bits, p, 16);
    int64_t addr;
    std::memcpy(&addr, p, sizeof addr);
    ascgen_devkit::cmp.addr = reinterpret_cast<const uint8_t*>(addr);
}
inline void get_cmpmask(void* p) { std::memcpy(p, ascgen_devkit::cmp.bits, 16); }

template <class T, class U>
inline void vsel(T* dst, T* s0, U* s1, uint64_t repeat, uint64_t db, uint64_t ab, uint64_t bb, uint64_t dr,
                 uint64_t ar, uint64_t br, uint8_t mode = 0) {
    using namespace ascgen_devkit;
    ascgen_devkit::tick();
    const uint64_t per = 256 / sizeof(T);
    Operand d = op(dst, db, dr), a = op(s0, ab, ar);
    Plan p = plan(repeat, per);
    check_ub(d.base, d.extent(p.repeats, per), "vsel");
    check_ub(a.base, a.extent(p.repeats, per), "vsel");
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per);
    if (mode == 1) {  // tensor-scalar: s1 is the bit tensor, the scalar is the block set_cmpmask named
        const uint8_t* sel = reinterpret_cast<const uint8_t*>(s1);
        T scalar;
        std::memcpy(&scalar, cmp.bits, sizeof(T));
        for (uint64_t r = 0; r < p.repeats; ++r)
            for (uint64_t e = 0; e < per; ++e)
                if (p.active(r, e))
                    *reinterpret_cast<T*>(d.at(r, e)) = get_bit(sel, r * per + e) ? *reinterpret_cast<T*>(a.at(r, e)) : scalar;
        return;
    }
    Operand b = op(reinterpret_cast<T*>(s1), bb, br);
    check_ub(b.base, b.extent(p.repeats, per), "vsel");
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t e = 0; e < per; ++e) {
            if (!p.active(r, e)) continue;
            bool bit = mode == 2 ? get_bit(cmp.addr, r * per + e) : get_bit(cmp.bits, e);
            *reinterpret_cast<T*>(d.at(r, e)) = bit ? *reinterpret_cast<T*>(a.at(r, e)) : *reinterpret_cast<T*>(b.at(r, e));
        }
}

namespace ascgen_devkit {
// Per iteration: fold the active elements in element order (float accumulation for half).
template <class T, class Fold>
inline void reduce(const char* name, T* dst, T* src, uint64_t repeat, uint64_t dst_stride, uint64_t sb, uint64_t sr,
                   int order, bool with_index, Fold fold) {
    ascgen_devkit::tick();
    const uint64_t per = 256 / sizeof(T);
    Operand s = op(src, sb, sr);
    Plan p = plan(repeat, per);
    check_ub(s.base, s.extent(p.repeats, per), name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per);
    for (uint64_t r = 0; r < p.repeats; ++r) {
        bool any = false;
        wide_t<T> acc{};
        uint64_t idx = 0;
        for (uint64_t e = 0; e < per; ++e) {
            if (!p.active(r, e)) continue;
            wide_t<T> x = wide_t<T>(*reinterpret_cast<const T*>(s.at(r, e)));
            if (!any || fold(acc, x)) {
                acc = any ? (with_index ? x : fold.combine(acc, x)) : x;
                if (with_index) idx = e;
            } else if (!with_index) {
                acc = fold.combine(acc, x);
            }
            any = true;
        }
        // One result per repeat, dst_stride results apart: a (value, index) pair, the value alone, or the
        // index alone as a uint32 (ONLY_INDEX), as the builtin backend lays them out.
        const bool only_value = !with_index || order == int(Order_t::ONLY_VALUE);
        const bool only_index = with_index && order == int(Order_t::ONLY_INDEX);
        const uint64_t unit = only_index ? 4 : only_value ? sizeof(T) : 2 * sizeof(T);
        uint8_t* slot = reinterpret_cast<uint8_t*>(dst) + r * dst_stride * unit;
        check_ub(slot, unit, name);
        T value = T(acc);
        T index;
        if constexpr (sizeof(T) == 2) { uint16_t i = uint16_t(idx); std::memcpy(&index, &i, 2); }
        else { uint32_t i = uint32_t(idx); std::memcpy(&index, &i, 4); }
        T* out = reinterpret_cast<T*>(slot);
        if (only_value) out[0] = value;
        else if (only_index) { uint32_t i = uint32_t(idx); std::memcpy(slot, &i, 4); }
        else if (order == int(Order_t::VALUE_INDEX)) { out[0] = value; out[1] = index; }
        else { out[0] = index; out[1] = value; }
    }
}
struct SumFold {
    template <class W> bool operator()(W, W) const { return false; }
    template <class W> W combine(W a, W b) const { return a + b; }
};
struct MaxFold {
    template <class W> bool operator()(W acc, W x) const { return x > acc; }
    template <class W> W combine(W a, W b) const { return b > a ? b : a; }
};
struct MinFold {
    template <class W> bool operator()(W acc, W x) const { return x < acc; }
    template <class W> W combine(W a, W b) const { return b < a ? b : a; }
};
}  // namespace ascgen_devkit

// vcadd(dst, src, repeat, dst repeat stride (elements), src block stride, src repeat stride, accumulate):
// accumulate = 1 sums every active element of the instruction into the ACC register (get_acc_val).
template <class T>
inline void vcadd(T* dst, T* src, uint64_t repeat, uint64_t dr, uint64_t sb, uint64_t sr, uint64_t accumulate = 0) {
    using namespace ascgen_devkit;
    if (!accumulate) return reduce("vcadd", dst, src, repeat, dr, sb, sr, 0, false, SumFold{});
    ascgen_devkit::tick();
    const uint64_t per = 256 / sizeof(T);
    Operand s = op(src, sb, sr);
    Plan p = plan(repeat, per);
    check_ub(s.base, s.extent(p.repeats, per), "vcadd");
    wide_t<T> acc{};
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t e = 0; e < per; ++e)
            if (p.active(r, e)) acc = acc + wide_t<T>(*reinterpret_cast<const T*>(s.at(r, e)));
    T value = T(acc);
    regs.acc = 0;
    std::memcpy(&regs.acc, &value, sizeof(T));
}
inline int64_t get_acc_val() { return ascgen_devkit::regs.acc; }
template <class T>
inline void vcmax(T* dst, T* src, uint64_t repeat, uint64_t dr, uint64_t sb, uint64_t sr, Order_t order = Order_t::VALUE_INDEX) {
    ascgen_devkit::reduce("vcmax", dst, src, repeat, dr, sb, sr, int(order), true, ascgen_devkit::MaxFold{});
}
template <class T>
inline void vcmin(T* dst, T* src, uint64_t repeat, uint64_t dr, uint64_t sb, uint64_t sr, Order_t order = Order_t::VALUE_INDEX) {
    ascgen_devkit::reduce("vcmin", dst, src, repeat, dr, sb, sr, int(order), true, ascgen_devkit::MinFold{});
}

namespace ascgen_devkit {
// Reductions per group of lanes: `group` consecutive lanes of an iteration fold to one value (one 32-byte
// block for vcgadd/vcgmax/vcgmin, a pair of lanes for vcpadd). Iteration r's results start at
// dst + r * dst_stride * out_per_repeat (the stride counts whole iterations' results). A group without an
// active lane leaves its destination element unchanged.
template <class T, class Fold>
inline void reduce_groups(const char* name, T* dst, T* src, uint64_t repeat, uint64_t dst_stride, uint64_t sb,
                          uint64_t sr, uint64_t group, Fold fold) {
    ascgen_devkit::tick();
    const uint64_t per = 256 / sizeof(T), out_per_repeat = per / group;
    Operand s = op(src, sb, sr);
    Plan p = plan(repeat, per);
    check_ub(s.base, s.extent(p.repeats, per), name);
    if (p.repeats) check_ub(dst, ((p.repeats - 1) * dst_stride * out_per_repeat + out_per_repeat) * sizeof(T), name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per);
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t g = 0; g < out_per_repeat; ++g) {
            bool any = false;
            wide_t<T> acc{};
            for (uint64_t e = g * group; e < (g + 1) * group; ++e) {
                if (!p.active(r, e)) continue;
                wide_t<T> x = wide_t<T>(*reinterpret_cast<const T*>(s.at(r, e)));
                acc = any ? fold.combine(acc, x) : x;
                any = true;
            }
            if (any) dst[r * dst_stride * out_per_repeat + g] = T(acc);
        }
}
}  // namespace ascgen_devkit

// vcgadd / vcgmax / vcgmin (dst, src, repeat, dst repeat stride, src block stride, src repeat stride): one
// result per 32-byte block, 8 per iteration. vcpadd: one result per pair of lanes.
#define ASCGEN_DEVKIT_GROUP_REDUCE(NAME, GROUP, FOLD)                                                          \
    template <class T>                                                                                        \
    inline void NAME(T* dst, T* src, uint64_t repeat, uint64_t dr, uint64_t sb, uint64_t sr) {                \
        ascgen_devkit::reduce_groups(#NAME, dst, src, repeat, dr, sb, sr, GROUP, ascgen_devkit::FOLD{});     \
    }
ASCGEN_DEVKIT_GROUP_REDUCE(vcgadd, 32 / sizeof(T), SumFold)
ASCGEN_DEVKIT_GROUP_REDUCE(vcgmax, 32 / sizeof(T), MaxFold)
ASCGEN_DEVKIT_GROUP_REDUCE(vcgmin, 32 / sizeof(T), MinFold)
ASCGEN_DEVKIT_GROUP_REDUCE(vcpadd, 2, SumFold)
#undef ASCGEN_DEVKIT_GROUP_REDUCE
