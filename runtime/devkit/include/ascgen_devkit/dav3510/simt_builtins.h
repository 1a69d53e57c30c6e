// The device compiler's SIMT builtins that the library's SIMT API (simt_api/: asc_simt.h, the C-style asc_*
// functions, and AscendC::Simt) is written over, for the SIMT model of simt.h. Included by intrinsics.h after
// vconv.h, whose one-element conversion rule the __cvt_* builtins share.
//
// * vector value types (char2 ... ulonglong4), the cache-hint enums of __ldg / __stg;
// * __ldg / __stg: a GM load / store (the cache hints change no value);
// * __cvt_<type><ROUND, RoundingSaturation>(x): one element converted by vconv.h's rule (d3510::convert);
// * atomicAdd ... atomicDec: real atomics, since the cores run at once (a core's SIMT threads run one after
//   another, so within a core they need none); CUDA's definitions of atomicInc / atomicDec, which the SIMT
//   API's names and signatures follow;
// * __threadfence(_block): a full fence;
// * __sync_workitems (asc_syncthreads) and the warp builtins (__shfl*, __reduce_*, __ballot, __any, __all,
//   __activemask): a named fault when the launch has more than one thread (simt.h says why);
// * the float helpers (__floorf ...) and integer bit operations the SIMT math is written over.
#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "simt.h"
#include "vconv.h"

#define ASCGEN_SIMT_VEC(name, T)                                    \
    struct name##1 { T x; };                                        \
    struct alignas(2 * sizeof(T)) name##2 { T x, y; };              \
    struct name##3 { T x, y, z; };                                  \
    struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) name##4 { T x, y, z, w; };
ASCGEN_SIMT_VEC(char, int8_t)
ASCGEN_SIMT_VEC(uchar, uint8_t)
ASCGEN_SIMT_VEC(short, int16_t)
ASCGEN_SIMT_VEC(ushort, uint16_t)
ASCGEN_SIMT_VEC(uint, uint32_t)
ASCGEN_SIMT_VEC(ulong, uint64_t)
ASCGEN_SIMT_VEC(longlong, int64_t)
ASCGEN_SIMT_VEC(ulonglong, uint64_t)
#undef ASCGEN_SIMT_VEC

enum class LD_L2CacheType : int { L2_CACHE_HINT_NORMAL_FV = 0 };
enum class ST_L2CacheType : int { L2_CACHE_HINT_NORMAL_FV = 0 };
enum class L1CacheType : int { NON_CACHEABLE = 0, CACHEABLE = 1 };

template <LD_L2CacheType L2, L1CacheType L1, class T>
inline T __ldg(T* address) {
    return *address;
}
template <ST_L2CacheType L2, L1CacheType L1, class T, class V>
inline void __stg(T* address, V value) {
    *address = static_cast<T>(value);
}

// ---- conversions: __cvt_<to><ROUND, RoundingSaturation>(x) -------------------------------------------
namespace ascgen_devkit {
namespace simt {
template <class To, ROUND R, RoundingSaturation S, class From>
inline To cvt(From v) {
    To out{};
    d3510::CvtModes m;
    m.round = int(R);
    m.sat = int(S);
    d3510::convert(out, v, m);
    return out;
}
}  // namespace simt
}  // namespace ascgen_devkit
#define ASCGEN_SIMT_CVT(To, name)                                                    \
    template <ROUND R, RoundingSaturation S, class From>                             \
    inline To name(From v) { return ::ascgen_devkit::simt::cvt<To, R, S>(v); }
ASCGEN_SIMT_CVT(float, __cvt_float)
ASCGEN_SIMT_CVT(half, __cvt_half)
ASCGEN_SIMT_CVT(bfloat16_t, __cvt_bfloat16_t)
ASCGEN_SIMT_CVT(int32_t, __cvt_int32_t)
ASCGEN_SIMT_CVT(uint32_t, __cvt_uint32_t)
ASCGEN_SIMT_CVT(int64_t, __cvt_int64_t)
ASCGEN_SIMT_CVT(uint64_t, __cvt_uint64_t)
#undef ASCGEN_SIMT_CVT
// Two lanes at once (the library's __float22half2_rn... over float2): each lane by the one-lane rule.
template <ROUND R, RoundingSaturation S>
inline half2 __cvt_half2(float2 v) { return {__cvt_half<R, S>(v.x), __cvt_half<R, S>(v.y)}; }

// ---- atomics --------------------------------------------------------------------------------------------
namespace ascgen_devkit {
namespace simt {
// *address = op(*address) atomically, for any 2-, 4- or 8-byte T; returns the old value.
template <class T, class Op>
inline T atomic_update(T* address, Op op) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "SIMT atomics take 2, 4 or 8 bytes");
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
    Bits* word = reinterpret_cast<Bits*>(address);
    Bits old_bits = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    for (;;) {
        T old_value, new_value;
        std::memcpy(&old_value, &old_bits, sizeof(T));
        new_value = op(old_value);
        Bits new_bits;
        std::memcpy(&new_bits, &new_value, sizeof(T));
        if (__atomic_compare_exchange_n(word, &old_bits, new_bits, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return old_value;
    }
}
}  // namespace simt
}  // namespace ascgen_devkit

template <class T, class V> inline T atomicAdd(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(x + T(v)); });
}
template <class T, class V> inline T atomicSub(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(x - T(v)); });
}
template <class T, class V> inline T atomicMin(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(v) < x ? T(v) : x; });
}
template <class T, class V> inline T atomicMax(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return x < T(v) ? T(v) : x; });
}
template <class T, class V> inline T atomicExch(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T) { return T(v); });
}
template <class T, class C, class V> inline T atomicCAS(T* a, C compare, V v) {
    return ascgen_devkit::simt::atomic_update(a, [compare, v](T x) { return x == T(compare) ? T(v) : x; });
}
template <class T, class V> inline T atomicAnd(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(x & T(v)); });
}
template <class T, class V> inline T atomicOr(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(x | T(v)); });
}
template <class T, class V> inline T atomicXOr(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return T(x ^ T(v)); });
}
// CUDA's: ((old >= v) ? 0 : old + 1) and ((old == 0 || old > v) ? v : old - 1).
template <class T, class V> inline T atomicInc(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return x >= T(v) ? T(0) : T(x + 1); });
}
template <class T, class V> inline T atomicDec(T* a, V v) {
    return ascgen_devkit::simt::atomic_update(a, [v](T x) { return (x == 0 || x > T(v)) ? T(v) : T(x - 1); });
}
// half2 (the library's asc_atomic_add... on half2): both lanes in one atomic update of the 4-byte word, each
// lane by the half rule of the one-lane form; compare-and-swap compares the whole word's bits.
namespace ascgen_devkit {
namespace simt {
template <class Op> inline half2 lanes(half2 a, half2 b, Op op) { return {half(op(a.x, b.x)), half(op(a.y, b.y))}; }
}  // namespace simt
}  // namespace ascgen_devkit
#define ASCGEN_SIMT_HALF2_ATOMIC(name, expr)                                                                   \
    inline half2 name(half2* a, half2 v) {                                                                     \
        return ascgen_devkit::simt::atomic_update(                                                             \
            a, [v](half2 x) { return ascgen_devkit::simt::lanes(x, v, [](half p, half q) { return expr; }); }); \
    }
ASCGEN_SIMT_HALF2_ATOMIC(atomicAdd, p + q)
ASCGEN_SIMT_HALF2_ATOMIC(atomicSub, p - q)
ASCGEN_SIMT_HALF2_ATOMIC(atomicMin, q < p ? q : p)
ASCGEN_SIMT_HALF2_ATOMIC(atomicMax, p < q ? q : p)
#undef ASCGEN_SIMT_HALF2_ATOMIC
inline half2 atomicCAS(half2* a, half2 compare, half2 v) {
    return ascgen_devkit::simt::atomic_update(a, [compare, v](half2 x) { return std::memcmp(&x, &compare, sizeof x) == 0 ? v : x; });
}

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- what needs the threads together: refused unless the launch has one thread ---------------------------
namespace ascgen_devkit {
namespace simt {
inline void alone(const char* what) {
    if (simt_threads() > 1) simt_unsupported(what);
}
}  // namespace simt
}  // namespace ascgen_devkit
inline void __sync_workitems() { ascgen_devkit::simt::alone("asc_syncthreads"); }
template <class T, class... A> inline T __shfl(T v, A...) { ascgen_devkit::simt::alone("__shfl"); return v; }
template <class T, class... A> inline T __shfl_up(T v, A...) { ascgen_devkit::simt::alone("__shfl_up"); return v; }
template <class T, class... A> inline T __shfl_down(T v, A...) { ascgen_devkit::simt::alone("__shfl_down"); return v; }
template <class T, class... A> inline T __shfl_xor(T v, A...) { ascgen_devkit::simt::alone("__shfl_xor"); return v; }
template <class T> inline T __reduce_add(T v) { ascgen_devkit::simt::alone("__reduce_add"); return v; }
template <class T> inline T __reduce_min(T v) { ascgen_devkit::simt::alone("__reduce_min"); return v; }
template <class T> inline T __reduce_max(T v) { ascgen_devkit::simt::alone("__reduce_max"); return v; }
inline uint32_t __ballot(int predicate) { ascgen_devkit::simt::alone("__ballot"); return predicate != 0; }
inline int __any(int predicate) { ascgen_devkit::simt::alone("__any"); return predicate != 0; }
inline int __all(int predicate) { ascgen_devkit::simt::alone("__all"); return predicate != 0; }
inline uint32_t __activemask() { ascgen_devkit::simt::alone("__activemask"); return 1u; }

inline int signbitf(float x) { return std::signbit(x) ? 1 : 0; }

// ---- float helpers ---------------------------------------------------------------------------------------
// glibc's <math.h> declares __expf, __logf, __fma... (its internal names, C linkage) and its libm does not
// export them, so a SIMT function calling one compiled and failed to link. The float ones are computed in
// double and rounded once: the SIMT library defines logf, sqrtf, expf... themselves (over these builtins),
// and those definitions are C's logf... (same signature as glibc's), so a float call here could reach them
// again; the library defines no double function. sqrt, floor, ceil, rint, round, fabs, fmax, fmin give the
// float result exactly; exp, log and pow within an ulp (the double result rounded to float). The device's
// own error bounds are not public.
extern "C" {
inline float __expf(float x) noexcept { return float(__builtin_exp(double(x))); }
inline float __logf(float x) noexcept { return float(__builtin_log(double(x))); }
inline float __sqrtf(float x) noexcept { return float(__builtin_sqrt(double(x))); }
inline float __fabsf(float x) noexcept { return float(__builtin_fabs(double(x))); }
inline float __floorf(float x) noexcept { return float(__builtin_floor(double(x))); }
inline float __ceilf(float x) noexcept { return float(__builtin_ceil(double(x))); }
inline float __rintf(float x) noexcept { return float(__builtin_rint(double(x))); }
inline float __roundf(float x) noexcept { return float(__builtin_round(double(x))); }
inline float __powf(float x, float y) noexcept { return float(__builtin_pow(double(x), double(y))); }
inline float __fmaxf(float x, float y) noexcept { return float(__builtin_fmax(double(x), double(y))); }
inline float __fminf(float x, float y) noexcept { return float(__builtin_fmin(double(x), double(y))); }
inline double __fma(double x, double y, double z) noexcept { return __builtin_fma(x, y, z); }
inline double __exp(double x) noexcept { return __builtin_exp(x); }
inline double __log(double x) noexcept { return __builtin_log(x); }
}
// The library's half2 math (simt_api/asc_fp16_impl.h: h2exp, h2log, h2sqrt) passes a half2 to the same
// builtins: each lane by the float form above, rounded to half (so within an ulp of half, as its half forms
// hexp, hlog, hsqrt, which convert to float and back, already are).
#define ASCGEN_SIMT_HALF2(name) \
    inline half2 name(half2 v) noexcept { return {half(name(float(v.x))), half(name(float(v.y)))}; }
ASCGEN_SIMT_HALF2(__expf)
ASCGEN_SIMT_HALF2(__logf)
ASCGEN_SIMT_HALF2(__sqrtf)
#undef ASCGEN_SIMT_HALF2
