// Element-wise vector ops: binary (Add ...), with a scalar (Adds ...), unary (Exp ...), Duplicate, Axpy.
// Each op is a functor over the compute type; the macros at the end stamp out the public overloads
// (count form and the masked/repeated level-0 forms) from one table.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/mathfn.h"
#include "ascgen_common/elementwise.h"
#include "ascendc/vec_engine.h"

namespace ascgen {
namespace lib {
namespace op {

template <class C>
constexpr void need_int() {
    static_assert(std::is_integral<C>::value, "ascgen: this vector op takes integer tensors only");
}
template <class C>
constexpr void need_float() {
    static_assert(!std::is_integral<C>::value, "ascgen: this vector op takes float/half/bfloat16 tensors only");
}

// One lane of each op: the shared element rules (ascgen_common/elementwise.h).
struct Add { template <class C> C operator()(C a, C b) const { return elem::add(a, b); } };
struct Sub { template <class C> C operator()(C a, C b) const { return elem::sub(a, b); } };
struct Mul { template <class C> C operator()(C a, C b) const { return elem::mul(a, b); } };
struct Div { template <class C> C operator()(C a, C b) const { return elem::div(a, b); } };
struct Max { template <class C> C operator()(C a, C b) const { return elem::max(a, b); } };
struct Min { template <class C> C operator()(C a, C b) const { return elem::min(a, b); } };
struct And { template <class C> C operator()(C a, C b) const { need_int<C>(); return C(a & b); } };
struct Or { template <class C> C operator()(C a, C b) const { need_int<C>(); return C(a | b); } };
struct AddRelu { template <class C> C operator()(C a, C b) const { return elem::relu(elem::add(a, b)); } };
struct SubRelu { template <class C> C operator()(C a, C b) const { return elem::relu(elem::sub(a, b)); } };
struct ShiftLeft { template <class C> C operator()(C a, C s) const { need_int<C>(); return elem::shl(a, int64_t(s)); } };
struct ShiftRight { template <class C> C operator()(C a, C s) const { need_int<C>(); return elem::shr(a, int64_t(s)); } };
struct LeakyRelu { template <class C> C operator()(C a, C s) const { return elem::leaky_relu(a, s); } };

struct Exp { template <class C> C operator()(C a) const { need_float<C>(); return m::exp(a); } };
struct Ln { template <class C> C operator()(C a) const { need_float<C>(); return m::log(a); } };
struct Sqrt { template <class C> C operator()(C a) const { need_float<C>(); return m::sqrt(a); } };
struct Rsqrt { template <class C> C operator()(C a) const { need_float<C>(); return C(1) / m::sqrt(a); } };
struct Reciprocal { template <class C> C operator()(C a) const { need_float<C>(); return C(1) / a; } };
struct Abs { template <class C> C operator()(C a) const { return elem::abs(a); } };
struct Relu { template <class C> C operator()(C a) const { return elem::relu(a); } };
struct Not { template <class C> C operator()(C a) const { need_int<C>(); return C(~a); } };

}  // namespace op

template <class Op, class T>
inline void binary(const char* name, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                   const AscendC::LocalTensor<T>& b, int64_t n, rt::Loc loc) {
    enter(loc);
    check_count<T>(n, name, loc);
    vec_operand(d, n, name, "dst", loc);
    vec_operand(a, n, name, "src0", loc);
    vec_operand(b, n, name, "src1", loc);
    run2(d.data(), a.data(), b.data(), n, Op{});
    rt::cost(PIPE_V, uint64_t(n));
}

template <class Op, class T>
inline void binary_masked(const char* name, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                          const AscendC::LocalTensor<T>& b, const Plan& pl, const AscendC::BinaryRepeatParams& p,
                          rt::Loc loc) {
    masked_operand(d, pl, p.dstBlkStride, p.dstRepStride, name, "dst", loc);
    masked_operand(a, pl, p.src0BlkStride, p.src0RepStride, name, "src0", loc);
    masked_operand(b, pl, p.src1BlkStride, p.src1RepStride, name, "src1", loc);
    using C = compute_t<T>;
    Op f{};
    for (int r = 0; r < pl.repeats; ++r) {
        const Lanes& l = pl.at(r);
        for (int i = 0; i <= l.last; ++i)
            if (l.on(i)) {
                T x = a.data()[lane_index<T>(r, i, p.src0BlkStride, p.src0RepStride)];
                T y = b.data()[lane_index<T>(r, i, p.src1BlkStride, p.src1RepStride)];
                d.data()[lane_index<T>(r, i, p.dstBlkStride, p.dstRepStride)] = T(f(C(x), C(y)));
            }
    }
    rt::cost(PIPE_V, uint64_t(pl.repeats) * lanes_per_repeat<T>());
}

template <class Op, class T>
inline void with_scalar(const char* name, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                        const T& s, int64_t n, rt::Loc loc) {
    enter(loc);
    check_count<T>(n, name, loc);
    vec_operand(d, n, name, "dst", loc);
    vec_operand(a, n, name, "src", loc);
    run_scalar(d.data(), a.data(), compute_t<T>(s), n, Op{});
    rt::cost(PIPE_V, uint64_t(n));
}

template <class Op> struct commutes : std::true_type {};
template <> struct commutes<op::ShiftLeft> : std::false_type {};
template <> struct commutes<op::ShiftRight> : std::false_type {};
template <> struct commutes<op::LeakyRelu> : std::false_type {};

// Element-wise shift by a tensor of shift amounts (arch 3510); a negative amount shifts the other way.
template <class Op, class T, class S>
inline void shift_by_tensor(const char* name, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                            const AscendC::LocalTensor<S>& s, int64_t n, rt::Loc loc) {
    static_assert(std::is_integral<T>::value && std::is_integral<S>::value, "shifts take integer tensors");
    check_count<T>(n, name, loc);
    vec_operand(d, n, name, "dst", loc);
    vec_operand(a, n, name, "src0", loc);
    vec_operand(s, n, name, "src1", loc);
    constexpr bool left = std::is_same<Op, op::ShiftLeft>::value;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = int64_t(s.data()[i]);
        d.data()[i] = left ? elem::shl(a.data()[i], k) : elem::shr(a.data()[i], k);
    }
    rt::cost(PIPE_V, uint64_t(n));
}

// The count form of a scalar op in every spelling: (tensor, scalar), (scalar, tensor) for commutative ops,
// or two tensors where config.scalarTensorIndex names the one whose element [0] is the scalar.
template <class Op, const AscendC::BinaryConfig& config, class U, class S, class V>
inline void scalar_op(const char* name, const U& dst, const S& src0, const V& src1, int64_t n, rt::Loc loc) {
    static_assert(is_local<U>::value, "the destination of a vector op is a LocalTensor");
    using E = typename U::PrimType;
    enter(loc);
    if constexpr (is_local<S>::value && is_local<V>::value) {
        if constexpr (std::is_same<Op, op::ShiftLeft>::value || std::is_same<Op, op::ShiftRight>::value) {
            shift_by_tensor<Op>(name, dst, src0, src1, n, loc);
        } else if constexpr (config.scalarTensorIndex == 0) {
            static_assert(commutes<Op>::value, "this op takes its scalar second");
            vec_operand(src0, 1, name, "src0 (scalar tensor)", loc);
            with_scalar<Op>(name, dst, src1, E(src0.data()[0]), n, loc);
        } else {
            vec_operand(src1, 1, name, "src1 (scalar tensor)", loc);
            with_scalar<Op>(name, dst, src0, E(src1.data()[0]), n, loc);
        }
    } else if constexpr (is_local<S>::value) {
        with_scalar<Op>(name, dst, src0, E(src1), n, loc);
    } else {
        static_assert(commutes<Op>::value, "this op takes its scalar second");
        with_scalar<Op>(name, dst, src1, E(src0), n, loc);
    }
}

template <class Op, class T>
inline void unary(const char* name, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a, int64_t n,
                  rt::Loc loc) {
    enter(loc);
    check_count<T>(n, name, loc);
    vec_operand(d, n, name, "dst", loc);
    vec_operand(a, n, name, "src", loc);
    run1(d.data(), a.data(), n, Op{});
    rt::cost(PIPE_V, uint64_t(n));
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

#define ASCGEN_VEC_BINARY(NAME)                                                                                  \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                     int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                        \
        ::ascgen::lib::binary<::ascgen::lib::op::NAME>(#NAME, dst, src0, src1, count, loc);                       \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                     uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& p,                            \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::enter(loc);                                                                               \
        ::ascgen::lib::binary_masked<::ascgen::lib::op::NAME>(                                                   \
            #NAME, dst, src0, src1, ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, loc);\
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                     const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& p,                    \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::enter(loc);                                                                               \
        ::ascgen::lib::binary_masked<::ascgen::lib::op::NAME>(                                                   \
            #NAME, dst, src0, src1, ::ascgen::lib::plan_bits<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, loc);\
    }

#define ASCGEN_VEC_SCALAR(NAME, OP)                                                                              \
    template <typename T = BinaryDefaultType, bool isSetMask = true,                                             \
              const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S, typename V>            \
    inline void NAME(const U& dst, const S& src0, const V& src1, int32_t count,                                  \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::scalar_op<::ascgen::lib::op::OP, config>(#NAME, dst, src0, src1, count, loc);             \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ::ascgen::lib::same_t<T>& scalar, \
                     uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& p,                             \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::enter(loc);                                                                               \
        using C = ::ascgen::lib::compute_t<T>;                                                                   \
        C s = C(scalar);                                                                                         \
        ::ascgen::lib::unary_masked_apply(#NAME, dst, src,                                                       \
                                          ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, [s](C x) { return ::ascgen::lib::op::OP{}(x, s); }, loc); \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ::ascgen::lib::same_t<T>& scalar, \
                     const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& p,                     \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::enter(loc);                                                                               \
        using C = ::ascgen::lib::compute_t<T>;                                                                   \
        C s = C(scalar);                                                                                         \
        ::ascgen::lib::unary_masked_apply(#NAME, dst, src,                                                       \
                                          ::ascgen::lib::plan_bits<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, [s](C x) { return ::ascgen::lib::op::OP{}(x, s); }, loc); \
    }

#define ASCGEN_VEC_UNARY(NAME)                                                                                   \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count,                        \
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {                                                       \
        ::ascgen::lib::unary<::ascgen::lib::op::NAME>(#NAME, dst, src, count, loc);                              \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTimes,   \
                     const UnaryRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {                           \
        ::ascgen::lib::enter(loc);                                                                               \
        ::ascgen::lib::unary_masked_apply(#NAME, dst, src,                                                       \
                                          ::ascgen::lib::plan_count<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, ::ascgen::lib::op::NAME{}, loc);                       \
    }                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                \
                     uint8_t repeatTimes, const UnaryRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {      \
        ::ascgen::lib::enter(loc);                                                                               \
        ::ascgen::lib::unary_masked_apply(#NAME, dst, src,                                                       \
                                          ::ascgen::lib::plan_bits<T, isSetMask>(mask, repeatTimes, #NAME, loc), p, ::ascgen::lib::op::NAME{}, loc);                       \
    }

ASCGEN_VEC_BINARY(Add)
ASCGEN_VEC_BINARY(Sub)
ASCGEN_VEC_BINARY(Mul)
ASCGEN_VEC_BINARY(Div)
ASCGEN_VEC_BINARY(Max)
ASCGEN_VEC_BINARY(Min)
ASCGEN_VEC_BINARY(And)
ASCGEN_VEC_BINARY(Or)
ASCGEN_VEC_BINARY(AddRelu)
ASCGEN_VEC_BINARY(SubRelu)

ASCGEN_VEC_SCALAR(Adds, Add)
ASCGEN_VEC_SCALAR(Muls, Mul)
ASCGEN_VEC_SCALAR(Maxs, Max)
ASCGEN_VEC_SCALAR(Mins, Min)
ASCGEN_VEC_SCALAR(Ands, And)
ASCGEN_VEC_SCALAR(Ors, Or)
ASCGEN_VEC_SCALAR(ShiftLeft, ShiftLeft)
ASCGEN_VEC_SCALAR(ShiftRight, ShiftRight)
ASCGEN_VEC_SCALAR(LeakyRelu, LeakyRelu)

ASCGEN_VEC_UNARY(Exp)
ASCGEN_VEC_UNARY(Ln)
ASCGEN_VEC_UNARY(Sqrt)
ASCGEN_VEC_UNARY(Rsqrt)
ASCGEN_VEC_UNARY(Reciprocal)
ASCGEN_VEC_UNARY(Abs)
ASCGEN_VEC_UNARY(Relu)
ASCGEN_VEC_UNARY(Not)

#undef ASCGEN_VEC_BINARY
#undef ASCGEN_VEC_SCALAR
#undef ASCGEN_VEC_UNARY

// dst = value, count elements.
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const ::ascgen::lib::same_t<T>& value, int32_t count,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::check_count<T>(count, "Duplicate", loc);
    ::ascgen::lib::vec_operand(dst, count, "Duplicate", "dst", loc);
    T* d = dst.data();
    T v = value;
    ::ascgen::lib::chunked(count, [=](int64_t i) { d[i] = v; });
    ::ascgen::rt::cost(PIPE_V, uint64_t(count));
}
namespace detail {
template <typename T>
inline void duplicate_masked(const LocalTensor<T>& dst, T value, const ::ascgen::lib::Plan& pl, int blk, int rep,
                             ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    L::masked_operand(dst, pl, blk, rep, "Duplicate", "dst", loc);
    for (int r = 0; r < pl.repeats; ++r) {
        const L::Lanes& l = pl.at(r);
        for (int i = 0; i <= l.last; ++i)
            if (l.on(i)) dst.data()[L::lane_index<T>(r, i, blk, rep)] = value;
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(pl.repeats) * L::lanes_per_repeat<T>());
}
}  // namespace detail

// Level 0: `repeatTimes` repeats of the lanes in `mask`, strides in blocks.
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const ::ascgen::lib::same_t<T>& value, uint64_t mask,
                      uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::duplicate_masked(dst, T(value), L::plan_count<T, isSetMask>(mask, repeatTimes, "Duplicate", loc), dstBlockStride,
                     dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const ::ascgen::lib::same_t<T>& value, const uint64_t mask[],
                      uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride,
                      ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    detail::duplicate_masked(dst, T(value), L::plan_bits<T, isSetMask>(mask, repeatTimes, "Duplicate", loc), dstBlockStride,
                     dstRepeatStride, loc);
}

// dst = src * scalar + dst (dst may be wider than src: float += half * s).
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ::ascgen::lib::same_t<U>& scalar,
                 int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_count<T>(count, "Axpy", loc);
    L::vec_operand(dst, count, "Axpy", "dst", loc);
    L::vec_operand(src, count, "Axpy", "src", loc);
    float s = float(L::compute_t<U>(scalar));
    T* d = dst.data();
    const U* a = src.data();
    for (int32_t i = 0; i < count; ++i) d[i] = T(float(L::compute_t<U>(a[i])) * s + float(L::compute_t<T>(d[i])));
    ::ascgen::rt::cost(PIPE_V, uint64_t(count));
}

// dst = src0 * src1 + dst
template <typename T, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                      int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_count<T>(count, "MulAddDst", loc);
    L::vec_operand(dst, count, "MulAddDst", "dst", loc);
    L::vec_operand(src0, count, "MulAddDst", "src0", loc);
    L::vec_operand(src1, count, "MulAddDst", "src1", loc);
    using C = L::compute_t<T>;
    T* d = dst.data();
    for (int32_t i = 0; i < count; ++i) d[i] = T(C(src0.data()[i]) * C(src1.data()[i]) + C(d[i]));
    ::ascgen::rt::cost(PIPE_V, uint64_t(count));
}

// dst = src0 * dst + src1
template <typename T, bool isSetMask = true>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                        int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::check_count<T>(count, "FusedMulAdd", loc);
    L::vec_operand(dst, count, "FusedMulAdd", "dst", loc);
    L::vec_operand(src0, count, "FusedMulAdd", "src0", loc);
    L::vec_operand(src1, count, "FusedMulAdd", "src1", loc);
    using C = L::compute_t<T>;
    T* d = dst.data();
    for (int32_t i = 0; i < count; ++i) d[i] = T(C(src0.data()[i]) * C(d[i]) + C(src1.data()[i]));
    ::ascgen::rt::cost(PIPE_V, uint64_t(count));
}

// Brcb: repeat r reads 8 source elements; element j fills the 32-byte block at
// dst[r * dstRepStride + j * dstBlkStride] (strides in blocks).
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTime, const BrcbRepeatParams& p,
                 ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: 16- or 32-bit elements");
    L::enter(loc);
    constexpr int epb = int(32 / sizeof(T));
    int64_t need = repeatTime == 0 ? 0
                                   : int64_t(repeatTime - 1) * p.dstRepStride * epb + int64_t(7) * p.dstBlkStride * epb + epb;
    L::vec_operand(src, int64_t(repeatTime) * 8, "Brcb", "src", loc);
    L::vec_operand(dst, need, "Brcb", "dst", loc);
    for (int r = 0; r < repeatTime; ++r)
        for (int j = 0; j < 8; ++j) {
            T v = src.data()[r * 8 + j];
            T* blk = dst.data() + (int64_t(r) * p.dstRepStride + int64_t(j) * p.dstBlkStride) * epb;
            for (int e = 0; e < epb; ++e) blk[e] = v;
        }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 8 * epb);
}

}  // namespace AscendC
