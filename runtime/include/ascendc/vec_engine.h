// The element loops behind every vector op: argument checks, the count ("level 2") loop and the
// masked, repeated ("level 0") loop. Ops are small functors over the compute type (float for
// half/bfloat16, T otherwise), so each public op is one line in a table (vec_ops.h).
//
// Count loops are plain `for` loops the compiler vectorises for float/int (no per-element hooks); the
// core is told once per op (rt::poll in enter(), rt::cost(PIPE_V, count)).
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/copy.h"
#include "ascendc/kernel_state.h"
#include "ascendc/half.h"
#include "ascendc/tensor.h"

namespace ascgen {
namespace lib {

template <class X> struct is_local : std::false_type {};
template <class T> struct is_local<AscendC::LocalTensor<T>> : std::true_type {};

template <class T> struct same { using type = T; };
template <class T> using same_t = typename same<T>::type;   // a non-deduced parameter type

template <class T>
inline void check_count(int64_t count, const char* op, rt::Loc loc) {
    ASCGEN_ARG_CHECK(count >= 0, loc, "%s: negative count %lld", op, static_cast<long long>(count));
}

// One vector operand: allocated, aligned, and `count` elements fit.
template <class T>
inline void vec_operand(const AscendC::LocalTensor<T>& t, int64_t count, const char* op, const char* role,
                        rt::Loc loc) {
    ASCGEN_MEM_CHECK(t.data() != nullptr, loc, "%s: %s is a LocalTensor that was never allocated", op, role);
    ASCGEN_MEM_CHECK(uint64_t(count) <= t.capacity(), loc,
                     "local tensor overflow: %s of %lld elements, but %s has %u elements (UB offset %llu); hint: "
                     "the count must not exceed the tensor's size",
                     op, static_cast<long long>(count), role, t.capacity(), ull(t.ub_off()));
    ASCGEN_MEM_CHECK(reinterpret_cast<uintptr_t>(t.data()) % kUbAlign == 0, loc,
                     "%s: %s UB address %llu is not 32-byte aligned; hint: sub-tensor offsets must be a multiple "
                     "of %zu elements of this type",
                     op, role, ull(t.ub_off()), size_t(kUbAlign / sizeof(T)));
}

// A destination written at element (not block) granularity: allocated and large enough.
template <class T>
inline void check_ub_bytes(const AscendC::LocalTensor<T>& t, int64_t bytes, const char* op, const char* role,
                           rt::Loc loc) {
    ASCGEN_MEM_CHECK(t.data() != nullptr, loc, "%s: %s is a LocalTensor that was never allocated", op, role);
    ASCGEN_MEM_CHECK(bytes <= int64_t(t.capacity()) * int64_t(sizeof(T)), loc,
                     "local tensor overflow: %s writes %lld bytes of %s, which has %llu bytes (UB offset %llu)", op,
                     static_cast<long long>(bytes), role, ull(uint64_t(t.capacity()) * sizeof(T)), ull(t.ub_off()));
}

// ---- count loops ----
// GCC's -O2 vectoriser (very-cheap cost model) only takes loops it can vectorise without a scalar
// epilogue or alias checks, so the bulk runs in fixed blocks of 64 with `ivdep` (dst may equal a source,
// element for element, which is safe) and the tail element by element.
constexpr int kVecBlock = 64;

template <class F>
inline void chunked(int64_t n, F body) {
    const int64_t blocks = n / kVecBlock;
    for (int64_t b = 0; b < blocks; ++b) {
        const int64_t base = b * kVecBlock;
#pragma GCC ivdep
        for (int j = 0; j < kVecBlock; ++j) body(base + j);
    }
    const int tail = int(n - blocks * kVecBlock);
    for (int j = 0; j < tail; ++j) body(blocks * kVecBlock + j);
}

template <class D, class S, class Op>
inline void run1(D* d, const S* s, int64_t n, Op op) {
    using C = compute_t<S>;
    chunked(n, [=](int64_t i) { d[i] = D(op(C(s[i]))); });
}
template <class T, class Op>
inline void run2(T* d, const T* a, const T* b, int64_t n, Op op) {
    using C = compute_t<T>;
    chunked(n, [=](int64_t i) { d[i] = T(op(C(a[i]), C(b[i]))); });
}
template <class T, class Op>
inline void run_scalar(T* d, const T* a, compute_t<T> s, int64_t n, Op op) {
    using C = compute_t<T>;
    chunked(n, [=](int64_t i) { d[i] = T(op(C(a[i]), s)); });
}

// ---- level 0: repeats of 8 blocks of 32 bytes; a mask selects lanes within one repeat ----
struct Lanes {
    uint64_t m[2];
    int last;   // highest enabled lane, -1 if none
    bool on(int lane) const { return (m[lane >> 6] >> (lane & 63)) & 1u; }
};

template <class T>
constexpr int lanes_per_repeat() { return int(256 / sizeof(T)) > 128 ? 128 : int(256 / sizeof(T)); }

// Normal mask mode with a count: the first `mask` lanes.
template <class T>
inline Lanes lanes_count(uint64_t mask, const char* op, rt::Loc loc) {
    const int epr = lanes_per_repeat<T>();
    ASCGEN_ARG_CHECK(mask >= 1 && mask <= uint64_t(epr), loc, "%s: mask %llu outside 1..%d for %zu-byte elements",
                     op, ull(mask), epr, sizeof(T));
    Lanes l{{0, 0}, int(mask) - 1};
    for (int i = 0; i < int(mask); ++i) l.m[i >> 6] |= uint64_t(1) << (i & 63);
    return l;
}

// Normal mask mode with a bit mask: mask[0] lanes 0..63, mask[1] lanes 64..127.
template <class T>
inline Lanes lanes_bits(const uint64_t mask[], const char* op, rt::Loc loc) {
    const int epr = lanes_per_repeat<T>();
    Lanes l{{mask[0], epr > 64 ? mask[1] : 0}, -1};
    if (epr < 64) l.m[0] &= (uint64_t(1) << epr) - 1;
    for (int i = epr - 1; i >= 0; --i)
        if (l.on(i)) {
            l.last = i;
            break;
        }
    ASCGEN_ARG_CHECK(l.last >= 0, loc, "%s: the lane mask enables no element", op);
    return l;
}

// Element index of `lane` in repeat `r` for an operand with the given block / repeat strides (blocks).
template <class T>
inline int64_t lane_index(int r, int lane, int blk, int rep) {
    constexpr int epb = int(32 / sizeof(T));
    return int64_t(r) * rep * epb + int64_t(lane / epb) * blk * epb + lane % epb;
}

// Which lanes each repeat uses. Normal mode: the same lanes every repeat. Counter mode (SetMaskCount): a
// total element count, so every repeat is full except possibly the last, and repeatTimes is ignored.
struct Plan {
    Lanes full;
    Lanes tail;
    int repeats;
    bool has_tail;
    const Lanes& at(int r) const { return has_tail && r == repeats - 1 ? tail : full; }
};

inline Lanes first_lanes(int n) {
    Lanes l{{0, 0}, n - 1};
    for (int i = 0; i < n; ++i) l.m[i >> 6] |= uint64_t(1) << (i & 63);
    return l;
}

// Counter mode: `total` elements in repeats of `epr` lanes.
template <class T>
inline Plan counter_plan(uint64_t total, const char* op, rt::Loc loc) {
    const int epr = lanes_per_repeat<T>();
    ASCGEN_ARG_CHECK(total <= uint64_t(epr) * 255 * 255, loc, "%s: counter-mode element count %llu is too large", op,
                     ull(total));
    int full = int(total / uint64_t(epr)), rest = int(total % uint64_t(epr));
    return Plan{first_lanes(epr), first_lanes(rest), full + (rest ? 1 : 0), rest != 0};
}

// The lanes a level-0 call uses: its own mask argument (isSetMask) or the mask register (SetVectorMask).
template <class T, bool isSetMask>
inline Plan plan_count(uint64_t mask, int repeat, const char* op, rt::Loc loc) {
    const KernelState& ks = kernel_state();
    if (ks.mask_counter) return counter_plan<T>(isSetMask ? mask : ks.vmask[0], op, loc);
    if (!isSetMask) {
        Lanes l = first_lanes(lanes_per_repeat<T>());
        if (ks.vmask_set) {
            uint64_t bits[2] = {ks.vmask[0], ks.vmask[1]};
            l = lanes_bits<T>(bits, op, loc);
        }
        return Plan{l, l, repeat, false};
    }
    Lanes l = lanes_count<T>(mask, op, loc);
    return Plan{l, l, repeat, false};
}
template <class T, bool isSetMask>
inline Plan plan_bits(const uint64_t mask[], int repeat, const char* op, rt::Loc loc) {
    if (!isSetMask || kernel_state().mask_counter) return plan_count<T, isSetMask>(mask[0], repeat, op, loc);
    Lanes l = lanes_bits<T>(mask, op, loc);
    return Plan{l, l, repeat, false};
}

// The operand must hold every element the repeats touch (strides are non-negative, so the last one or
// two repeats bound it).
template <class T>
inline void masked_operand(const AscendC::LocalTensor<T>& t, const Plan& pl, int blk, int rep, const char* op,
                           const char* role, rt::Loc loc) {
    int64_t need = 0;
    for (int r = pl.repeats - 2; r < pl.repeats; ++r)
        if (r >= 0 && pl.at(r).last >= 0) {
            int64_t k = lane_index<T>(r, pl.at(r).last, blk, rep) + 1;
            need = k > need ? k : need;
        }
    vec_operand(t, need, op, role, loc);
}

// A unary level-0 op (also used by Cast and the scalar ops): f maps the source compute value.
template <class D, class S, class F>
inline void unary_masked_apply(const char* name, const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<S>& a,
                               const Plan& pl, const AscendC::UnaryRepeatParams& p, F f, rt::Loc loc) {
    masked_operand(d, pl, p.dstBlkStride, p.dstRepStride, name, "dst", loc);
    masked_operand(a, pl, p.srcBlkStride, p.srcRepStride, name, "src", loc);
    using C = compute_t<S>;
    for (int r = 0; r < pl.repeats; ++r) {
        const Lanes& l = pl.at(r);
        for (int i = 0; i <= l.last; ++i)
            if (l.on(i)) {
                S x = a.data()[lane_index<S>(r, i, p.srcBlkStride, p.srcRepStride)];
                d.data()[lane_index<D>(r, i, p.dstBlkStride, p.dstRepStride)] = D(f(C(x)));
            }
    }
    rt::cost(PIPE_V, uint64_t(pl.repeats) * lanes_per_repeat<S>());
}

}  // namespace lib
}  // namespace ascgen
