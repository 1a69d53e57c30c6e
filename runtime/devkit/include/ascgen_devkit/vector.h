// The vector engine: one instruction = `repeat` iterations over 8 blocks of 32 bytes per operand, with a
// block stride (between the 8 blocks of one iteration) and a repeat stride (between iterations), both in
// 32-byte blocks, and a per-element mask.
//
// Counter mode keeps the strides: iteration r of an operand starts r repeat strides in, as in normal mode.
// The library's own counter-mode calls with a zero block stride and a row-sized repeat stride rely on it
// (RmsNorm's broadcast Adds, AntiQuant). vcopy is the exception: its iterations continue one stream of
// blocks (iteration r starts where iteration r-1's blocks would continue, the repeat stride unused), which
// is what copy_ub2ub scenario 3 (a strided Copy of 144 int32 over 18 rows in counter mode) expects.
// Level-2 calls pass matching strides, so both rules agree for them.
// Mask (CTRL bit 56 clear, "normal" mode): the 128-bit register (hi:lo) enables element e of each
// iteration when bit e is set; an iteration has 256 / max(operand element size) elements, so 32-bit
// operations use the low 64 bits only. Counter mode (bit 56 set): the low word is an element count for the
// whole instruction; `repeat` is ignored and the iterations needed to cover the count run, the last one
// partially.
#pragma once
#include <algorithm>
#include <cmath>
#include <type_traits>
#include "state.h"
#include "tasksync.h"
#include "ascgen_common/elementwise.h"

namespace ascgen_devkit {

constexpr uint64_t BLOCK = 32;

// One operand: base pointer, element size, strides in blocks.
struct Operand {
    uint8_t* base;
    uint64_t esize, blk, rep;
    uint64_t per_block() const { return BLOCK / esize; }
    uint8_t* at(uint64_t r, uint64_t e) const {
        uint64_t pb = per_block();
        return base + (r * rep + (e / pb) * blk) * BLOCK + (e % pb) * esize;
    }
    bool contiguous(uint64_t per_repeat) const { return blk == 1 && rep * BLOCK == per_repeat * esize; }
    // Bytes from base to the end of the last element an instruction of `repeats` x `per_repeat` touches.
    uint64_t extent(uint64_t repeats, uint64_t per_repeat) const {
        if (repeats == 0 || per_repeat == 0) return 0;
        uint64_t last_block = (per_repeat - 1) / per_block();
        return ((repeats - 1) * rep + last_block * blk) * BLOCK + BLOCK;
    }
};

// The active elements of an instruction: `repeats` iterations, and a predicate on (repeat, element).
struct Plan {
    uint64_t repeats, per_repeat, count;  // count: counter mode's element total, else 0
    bool counter, full;                   // full: every element of every iteration is active
    uint64_t lo, hi;
    bool active(uint64_t r, uint64_t e) const {
        if (counter) return r * per_repeat + e < count;
        return e < 64 ? ((lo >> e) & 1u) : ((hi >> (e - 64)) & 1u);
    }
    // Elements of the last iteration up to its last active one (normal mode: of every iteration).
    uint64_t last_active() const {
        if (repeats == 0) return 0;
        if (counter) return count - (repeats - 1) * per_repeat;
        uint64_t hi_bits = per_repeat > 64 ? per_repeat - 64 : 0;
        uint64_t hi_used = hi_bits == 0 ? 0 : (hi_bits == 64 ? hi : hi & ((1ull << hi_bits) - 1));
        if (hi_used) return 64 + 64 - __builtin_clzll(hi_used);
        uint64_t lo_used = per_repeat >= 64 ? lo : lo & ((1ull << per_repeat) - 1);
        return lo_used ? 64 - __builtin_clzll(lo_used) : 0;
    }
};

// Bytes from an operand's base to the end of the last block an instruction touches: the blocks of its active
// elements, not whole iterations. A counter-mode Duplicate of 368 floats (the library's InitOutput into the
// last 1472 bytes of UB, ops-nn deep_norm_grad) touches 46 blocks, not 6 iterations of 256 bytes.
inline uint64_t touched_extent(const Operand& o, const Plan& p) {
    uint64_t extent = o.extent(p.repeats, p.last_active());
    if (p.counter && p.repeats > 1) extent = std::max(extent, o.extent(p.repeats - 1, p.per_repeat));
    return extent;
}

// Counter mode: the repeat stride an operand effectively has (see above).
inline Operand counter_stream(Operand o, uint64_t per_repeat) {
    uint64_t blocks = (per_repeat * o.esize + BLOCK - 1) / BLOCK;
    o.rep = blocks * o.blk;
    return o;
}

inline Plan plan(uint64_t repeat, uint64_t per_repeat) {
    Plan p{};
    p.per_repeat = per_repeat;
    p.counter = counter_mode();
    p.lo = regs.mask_lo;
    p.hi = regs.mask_hi;
    if (p.counter) {
        p.count = regs.mask_lo;
        p.repeats = (p.count + per_repeat - 1) / per_repeat;
        p.full = true;  // every element below the count
    } else {
        p.repeats = repeat;
        uint64_t lo_bits = std::min<uint64_t>(per_repeat, 64), hi_bits = per_repeat > 64 ? per_repeat - 64 : 0;
        bool lo_full = lo_bits == 64 ? p.lo == ~0ull : (p.lo & ((1ull << lo_bits) - 1)) == ((1ull << lo_bits) - 1);
        bool hi_full = hi_bits == 0 || (hi_bits == 64 ? p.hi == ~0ull : (p.hi & ((1ull << hi_bits) - 1)) == ((1ull << hi_bits) - 1));
        p.full = lo_full && hi_full;
    }
    return p;
}

// Every element of `repeat` iterations, whatever the mask register and mode: for the instructions that do
// not read them (cmpsel.h, vcmpv / vcmpvs).
inline Plan whole_repeats(uint64_t repeat, uint64_t per_repeat) {
    Plan p{};
    p.per_repeat = per_repeat;
    p.repeats = repeat;
    p.lo = p.hi = ~0ull;
    p.full = true;
    return p;
}

// The flat loop of a contiguous full-mask instruction, vectorisable at -O2: GCC 12's default cost model
// there vectorises only loops whose trip count is a known multiple of the vector width, hence fixed
// chunks and then the tail. `ivdep` lets it ignore the operands' possible overlap; it is true only when
// no operand partially overlaps the destination (identical or disjoint ranges), where each element is
// read before it is written and depends on no other, so vector and scalar order store the same bits.
#if defined(__clang__)
#define ASCGEN_DEVKIT_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define ASCGEN_DEVKIT_IVDEP _Pragma("GCC ivdep")
#endif
constexpr uint64_t FLAT_CHUNK = 16;
template <class Body>
inline void flat_loop(uint64_t n, bool independent, const Body& body) {
    uint64_t i = 0;
    if (independent)
        for (; i + FLAT_CHUNK <= n; i += FLAT_CHUNK) {
            ASCGEN_DEVKIT_IVDEP
            for (uint64_t j = 0; j < FLAT_CHUNK; ++j) body(i + j);
        }
    for (; i < n; ++i) body(i);
}
// n elements written at d (dsize bytes each) against n read at s: the same elements, or no shared byte.
inline bool no_partial_overlap(const void* d, uint64_t dsize, const void* s, uint64_t ssize, uint64_t n) {
    const auto dp = reinterpret_cast<uintptr_t>(d), sp = reinterpret_cast<uintptr_t>(s);
    return (dp == sp && dsize == ssize) || dp + n * dsize <= sp || sp + n * ssize <= dp;
}

// The compute type of the element rules: float for half / bfloat16, the type itself otherwise (half.h).
template <class T> using wide_t = ::ascgen::lib::compute_t<T>;

// Run `f(dst_elem_ptr, src_elem_ptrs...)` over the active elements. All operands are checked against UB
// once per instruction (not per element).
template <class F, size_t N>
inline void run_pass(const char* name, Operand (&ops)[N], uint64_t repeat, F&& f, bool stream) {
    ascgen_devkit::tick();
    uint64_t widest = 1;
    for (auto& o : ops) widest = std::max(widest, o.esize);
    uint64_t per_repeat = 256 / widest;
    Plan p = plan(repeat, per_repeat);
    // The functor refers to the caller's operands; a streaming copy rewrites them in place.
    if (p.counter && stream)
        for (auto& o : ops) o = counter_stream(o, per_repeat);
    for (auto& o : ops) check_ub(o.base, touched_extent(o, p), name);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, p.repeats * per_repeat);
    bool contiguous = p.full;
    for (auto& o : ops) contiguous = contiguous && o.contiguous(per_repeat);
    if (contiguous) {  // the common case: one flat loop the compiler can vectorise
        uint64_t n = p.counter ? p.count : p.repeats * per_repeat;
        f.flat(n);
        return;
    }
    for (uint64_t r = 0; r < p.repeats; ++r)
        for (uint64_t e = 0; e < per_repeat; ++e)
            if (p.active(r, e)) f.one(r, e);
}

// A streaming copy in counter mode with a repeat above 1 streams the counted elements once per repeat,
// repeat r's operands r repeat strides in: SoftmaxFlashV3 fills splitMeanCnt row segments of baseK
// elements with one such Copy (block stride 0 from one broadcast block per segment).
template <class F, size_t N>
inline void run(const char* name, Operand (&ops)[N], uint64_t repeat, F&& f, bool stream = false) {
    if (!stream || repeat <= 1 || !counter_mode()) return run_pass(name, ops, repeat, f, stream);
    Operand first[N];
    for (size_t i = 0; i < N; ++i) first[i] = ops[i];
    for (uint64_t r = 0; r < repeat; ++r) {
        for (size_t i = 0; i < N; ++i) {
            ops[i] = first[i];
            ops[i].base += r * first[i].rep * BLOCK;
        }
        run_pass(name, ops, 1, f, stream);
    }
}

// Element-wise kernels: `Fn` maps wide source values to a wide result, stored rounded to D.
template <class D, class S, class Fn>
struct Unary {
    const Operand& d; const Operand& s; Fn fn;
    void one(uint64_t r, uint64_t e) const {
        *reinterpret_cast<D*>(d.at(r, e)) = D(fn(wide_t<S>(*reinterpret_cast<const S*>(s.at(r, e)))));
    }
    void flat(uint64_t n) const {
        D* dp = reinterpret_cast<D*>(d.base);
        const S* sp = reinterpret_cast<const S*>(s.base);
        flat_loop(n, no_partial_overlap(dp, sizeof(D), sp, sizeof(S), n),
                  [&](uint64_t i) { dp[i] = D(fn(wide_t<S>(sp[i]))); });
    }
};
template <class T, class Fn>
struct Binary {
    const Operand& d; const Operand& a; const Operand& b; Fn fn;
    void one(uint64_t r, uint64_t e) const {
        *reinterpret_cast<T*>(d.at(r, e)) = T(fn(wide_t<T>(*reinterpret_cast<const T*>(a.at(r, e))),
                                                  wide_t<T>(*reinterpret_cast<const T*>(b.at(r, e)))));
    }
    void flat(uint64_t n) const {
        T* dp = reinterpret_cast<T*>(d.base);
        const T* ap = reinterpret_cast<const T*>(a.base);
        const T* bp = reinterpret_cast<const T*>(b.base);
        const bool independent = no_partial_overlap(dp, sizeof(T), ap, sizeof(T), n) &&
                                 no_partial_overlap(dp, sizeof(T), bp, sizeof(T), n);
        flat_loop(n, independent,
                  [&](uint64_t i) { dp[i] = T(fn(wide_t<T>(ap[i]), wide_t<T>(bp[i]))); });
    }
};

template <class T>
inline Operand op(T* p, uint64_t blk, uint64_t rep) {
    return Operand{reinterpret_cast<uint8_t*>(const_cast<std::remove_const_t<T>*>(p)), sizeof(T), blk, rep};
}

template <class T, class Fn>
inline void binary(const char* name, T* dst, T* s0, T* s1, uint64_t repeat, uint64_t db, uint64_t ab, uint64_t bb,
                   uint64_t dr, uint64_t ar, uint64_t br, Fn fn) {
    Operand ops[3] = {op(dst, db, dr), op(s0, ab, ar), op(s1, bb, br)};
    run(name, ops, repeat, Binary<T, Fn>{ops[0], ops[1], ops[2], fn});
}
template <class D, class S, class Fn>
inline void unary(const char* name, D* dst, S* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr,
                  uint64_t sr, Fn fn, bool stream = false) {
    Operand ops[2] = {op(dst, db, dr), op(src, sb, sr)};
    run(name, ops, repeat, Unary<D, S, Fn>{ops[0], ops[1], fn}, stream);
}

// Integer ops on half/float would be meaningless: a type the op does not define is a compile error.
template <class T> constexpr bool is_int = std::is_integral<T>::value;

}  // namespace ascgen_devkit

// ---- binary: (dst, src0, src1, repeat, 3 block strides, 3 repeat strides) ----
#define ASCGEN_DEVKIT_BINARY(name, expr)                                                                      \
    template <class T>                                                                                       \
    inline void name(T* dst, T* src0, T* src1, uint64_t repeat, uint64_t db, uint64_t ab, uint64_t bb,       \
                     uint64_t dr, uint64_t ar, uint64_t br) {                                                \
        using W = ascgen_devkit::wide_t<T>;                                                                  \
        ascgen_devkit::binary(#name, dst, src0, src1, repeat, db, ab, bb, dr, ar, br,                        \
                              [](W a, W b) -> W { return expr; });                                          \
    }
// One lane of each op: the shared element rules (ascgen_common/elementwise.h).
ASCGEN_DEVKIT_BINARY(vadd, ::ascgen::elem::add(a, b))
ASCGEN_DEVKIT_BINARY(vsub, ::ascgen::elem::sub(a, b))
ASCGEN_DEVKIT_BINARY(vmul, ::ascgen::elem::mul(a, b))
ASCGEN_DEVKIT_BINARY(vdiv, ::ascgen::elem::div(a, b))
ASCGEN_DEVKIT_BINARY(vmax, ::ascgen::elem::max(a, b))
ASCGEN_DEVKIT_BINARY(vmin, ::ascgen::elem::min(a, b))
ASCGEN_DEVKIT_BINARY(vand, W(a & b))
ASCGEN_DEVKIT_BINARY(vor, W(a | b))
#undef ASCGEN_DEVKIT_BINARY

// ---- unary: (dst, src, repeat, dst/src block stride, dst/src repeat stride) ----
#define ASCGEN_DEVKIT_UNARY(name, expr)                                                                       \
    template <class T>                                                                                       \
    inline void name(T* dst, T* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {  \
        using W = ascgen_devkit::wide_t<T>;                                                                  \
        ascgen_devkit::unary(#name, dst, src, repeat, db, sb, dr, sr, [](W x) -> W { return expr; });       \
    }
ASCGEN_DEVKIT_UNARY(vabs, ::ascgen::elem::abs(x))
ASCGEN_DEVKIT_UNARY(vrelu, ::ascgen::elem::relu(x))
ASCGEN_DEVKIT_UNARY(vexp, W(std::exp(x)))
ASCGEN_DEVKIT_UNARY(vln, W(std::log(x)))
ASCGEN_DEVKIT_UNARY(vsqrt, W(std::sqrt(x)))
ASCGEN_DEVKIT_UNARY(vrec, W(W(1) / x))
ASCGEN_DEVKIT_UNARY(vrsqrt, W(W(1) / std::sqrt(x)))
ASCGEN_DEVKIT_UNARY(vnot, W(~x))
#undef ASCGEN_DEVKIT_UNARY

// ---- scalar operand: (dst, src, scalar, repeat, dst/src block stride, dst/src repeat stride) ----
#define ASCGEN_DEVKIT_SCALAR(name, expr)                                                                      \
    template <class T, class U>                                                                              \
    inline void name(T* dst, T* src, U scalar, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr,       \
                     uint64_t sr, bool = false, bool = false) {                                              \
        using W = ascgen_devkit::wide_t<T>;                                                                  \
        const W s = W(ascgen_devkit::wide_t<U>(scalar));                                                     \
        ascgen_devkit::unary(#name, dst, src, repeat, db, sb, dr, sr, [s](W x) -> W { return expr; });      \
    }
ASCGEN_DEVKIT_SCALAR(vadds, ::ascgen::elem::add(x, s))
ASCGEN_DEVKIT_SCALAR(vmuls, ::ascgen::elem::mul(x, s))
ASCGEN_DEVKIT_SCALAR(vmaxs, ::ascgen::elem::max(x, s))
ASCGEN_DEVKIT_SCALAR(vmins, ::ascgen::elem::min(x, s))
#undef ASCGEN_DEVKIT_SCALAR

// vector_dup(dst, scalar, repeat, dst block stride, src block stride, dst repeat stride, src repeat stride)
template <class T, class U>
inline void vector_dup(T* dst, U scalar, uint64_t repeat, uint64_t db, uint64_t, uint64_t dr, uint64_t) {
    using W = ascgen_devkit::wide_t<T>;
    const W s = W(ascgen_devkit::wide_t<U>(scalar));
    ascgen_devkit::unary("vector_dup", dst, dst, repeat, db, db, dr, dr, [s](W) -> W { return s; });
}

// ---- more element-wise forms ----
#define ASCGEN_DEVKIT_BINARY2(name, expr)                                                                     \
    template <class T>                                                                                       \
    inline void name(T* dst, T* src0, T* src1, uint64_t repeat, uint64_t db, uint64_t ab, uint64_t bb,       \
                     uint64_t dr, uint64_t ar, uint64_t br) {                                                \
        using W = ascgen_devkit::wide_t<T>;                                                                  \
        ascgen_devkit::binary(#name, dst, src0, src1, repeat, db, ab, bb, dr, ar, br,                        \
                              [](W a, W b) -> W { return expr; });                                          \
    }
ASCGEN_DEVKIT_BINARY2(vaddrelu, ::ascgen::elem::relu(::ascgen::elem::add(a, b)))
ASCGEN_DEVKIT_BINARY2(vsubrelu, ::ascgen::elem::relu(::ascgen::elem::sub(a, b)))
#undef ASCGEN_DEVKIT_BINARY2

namespace ascgen_devkit {
// dst = f(src0, src1, dst): the accumulating forms read their destination. The sources are S (half into a
// float destination: vaxpy's widening form), each widened exactly to T's wide type.
template <class T, class Fn, class S = T>
struct Accumulate {
    const Operand& d; const Operand& a; const Operand& b; Fn fn;
    void one(uint64_t r, uint64_t e) const {
        T* dp = reinterpret_cast<T*>(d.at(r, e));
        *dp = T(fn(wide_t<T>(*reinterpret_cast<const S*>(a.at(r, e))), wide_t<T>(*reinterpret_cast<const S*>(b.at(r, e))),
                   wide_t<T>(*dp)));
    }
    void flat(uint64_t n) const {
        T* dp = reinterpret_cast<T*>(d.base);
        const S* ap = reinterpret_cast<const S*>(a.base);
        const S* bp = reinterpret_cast<const S*>(b.base);
        const bool independent = no_partial_overlap(dp, sizeof(T), ap, sizeof(S), n) &&
                                 no_partial_overlap(dp, sizeof(T), bp, sizeof(S), n);
        flat_loop(n, independent,
                  [&](uint64_t i) { dp[i] = T(fn(wide_t<T>(ap[i]), wide_t<T>(bp[i]), wide_t<T>(dp[i]))); });
    }
};
}  // namespace ascgen_devkit

// vmla: dst = src0 * src1 + dst
template <class T>
inline void vmla(T* dst, T* src0, T* src1, uint64_t repeat, uint64_t db, uint64_t ab, uint64_t bb, uint64_t dr,
                 uint64_t ar, uint64_t br) {
    using W = ascgen_devkit::wide_t<T>;
    ascgen_devkit::Operand ops[3] = {ascgen_devkit::op(dst, db, dr), ascgen_devkit::op(src0, ab, ar),
                                           ascgen_devkit::op(src1, bb, br)};
    auto fn = [](W a, W b, W d) -> W { return ::ascgen::elem::add(::ascgen::elem::mul(a, b), d); };
    ascgen_devkit::run("vmla", ops, repeat, ascgen_devkit::Accumulate<T, decltype(fn)>{ops[0], ops[1], ops[2], fn});
}

// vmadd: dst = src0 * dst + src1, the library's FusedMulAdd (its documented formula), each step rounded in
// the compute type as vmla's (the documentation says no more). The integer parameters are deduced, so this
// form wins over missing.h's declaration of the others (the config-word vmadd(dst, src0, src1, config)).
template <class T, class R, class B0, class B1, class B2, class S0, class S1, class S2>
inline void vmadd(T* dst, T* src0, T* src1, R repeat, B0 db, B1 ab, B2 bb, S0 dr, S1 ar, S2 br) {
    using W = ascgen_devkit::wide_t<T>;
    ascgen_devkit::Operand ops[3] = {ascgen_devkit::op(dst, uint64_t(db), uint64_t(dr)),
                                     ascgen_devkit::op(src0, uint64_t(ab), uint64_t(ar)),
                                     ascgen_devkit::op(src1, uint64_t(bb), uint64_t(br))};
    auto fn = [](W a, W b, W d) -> W { return ::ascgen::elem::add(::ascgen::elem::mul(a, d), b); };
    ascgen_devkit::run("vmadd", ops, uint64_t(repeat),
                       ascgen_devkit::Accumulate<T, decltype(fn)>{ops[0], ops[1], ops[2], fn});
}

// vaxpy: dst = scalar * src + dst. The library's Axpy takes half, float, and half src into a float dst (its
// dtype check: "src: half, dst: half / float"); the widening form multiplies in float, where a half product
// is exact, and adds to the float destination as the float form does.
template <class T, class S, class U>
inline void vaxpy(T* dst, S* src, U scalar, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {
    static_assert(std::is_same<T, S>::value || (std::is_same<T, float>::value && std::is_same<S, half>::value),
                  "vaxpy: src and dst of one type, or half src into a float dst");
    using W = ascgen_devkit::wide_t<T>;
    const W s = W(ascgen_devkit::wide_t<U>(scalar));
    ascgen_devkit::Operand ops[3] = {ascgen_devkit::op(dst, db, dr), ascgen_devkit::op(src, sb, sr),
                                           ascgen_devkit::op(src, sb, sr)};
    auto fn = [s](W a, W, W d) -> W { return ::ascgen::elem::add(::ascgen::elem::mul(s, a), d); };
    ascgen_devkit::run("vaxpy", ops, repeat, ascgen_devkit::Accumulate<T, decltype(fn), S>{ops[0], ops[1], ops[2], fn});
}

// Scalar forms with one more flag argument on some call sites.
#define ASCGEN_DEVKIT_SCALAR2(name, expr)                                                                     \
    template <class T, class U>                                                                              \
    inline void name(T* dst, T* src, U scalar, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr,       \
                     uint64_t sr, bool = false) {                                                            \
        using W = ascgen_devkit::wide_t<T>;                                                                  \
        const W s = W(ascgen_devkit::wide_t<U>(scalar));                                                     \
        ascgen_devkit::unary(#name, dst, src, repeat, db, sb, dr, sr, [s](W x) -> W { return expr; });      \
    }
ASCGEN_DEVKIT_SCALAR2(vlrelu, ::ascgen::elem::leaky_relu(x, s))
ASCGEN_DEVKIT_SCALAR2(vshl, ::ascgen::elem::shl(x, int64_t(s)))
ASCGEN_DEVKIT_SCALAR2(vshr, ::ascgen::elem::shr(x, int64_t(s)))
#undef ASCGEN_DEVKIT_SCALAR2

// vcopy(dst, src, repeat, dst block stride, src block stride, dst repeat stride, src repeat stride)
template <class T>
inline void vcopy(T* dst, T* src, uint64_t repeat, uint64_t db, uint64_t sb, uint64_t dr, uint64_t sr) {
    ascgen_devkit::unary("vcopy", dst, src, repeat, db, sb, dr, sr, [](ascgen_devkit::wide_t<T> x) { return x; },
                         /*stream=*/true);
}
