// dav_3510 vector ALU on registers: element-wise arithmetic and logic (vector-vector and
// vector-scalar), compares into predicates, select, duplicate/broadcast, moves and (de)interleave.
// Low floats compute in float and round once per element (as the builtin backend's half does);
// integers wrap; bitwise operations work on the element's bits whatever its type.
#pragma once
#include "vpred.h"
#include "ascgen_common/elementwise.h"

namespace ascgen_devkit {
namespace d3510 {
template <class V> using elem_t = typename V::elem;

template <class D, class A, class B, class F>
inline void binary(D& d, const A& a, const B& b, const vector_bool& m, int mode, F f) {
    using T = elem_t<D>;
    apply(d, m, mode, [&](int i) {
        return narrow<T>(f(compute_t<T>(a.e()[i]), compute_t<elem_t<B>>(b.e()[i])));
    });
    cost(D::lanes);
}
template <class D, class A, class F>
inline void unary(D& d, const A& a, const vector_bool& m, int mode, F f) {
    using T = elem_t<D>;
    apply(d, m, mode, [&](int i) { return narrow<T>(f(compute_t<T>(a.e()[i]))); });
    cost(D::lanes);
}
// On the element's bits (vand on float lanes, vnot...).
template <class D, class A, class B, class F>
inline void bitwise(D& d, const A& a, const B& b, const vector_bool& m, int mode, F f) {
    using U = bits_t<D::esize>;
    auto& du = reinterpret_cast<VReg<U>&>(d);
    apply(du, m, mode, [&](int i) {
        return U(f(reinterpret_cast<const U*>(a.b)[i], reinterpret_cast<const U*>(b.b)[i]));
    });
    cost(D::lanes);
}
template <class T, class S> inline compute_t<T> scalar_as(S s) { return compute_t<T>(compute_t<S>(s)); }
}  // namespace d3510
}  // namespace ascgen_devkit

#define ASCGEN_D3510_REG(R) std::enable_if_t<ascgen_devkit::d3510::is_reg_v<R>, int> = 0
#define ASCGEN_D3510_VR(x) ascgen_devkit::d3510::vr(x)

// vop(dst, src0, src1, mask, mode)
#define ASCGEN_D3510_BINARY(name, expr)                                                                       \
    template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)> \
    inline void name(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {      \
        using T = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(dst))>::elem;                   \
        using C = ascgen_devkit::d3510::compute_t<T>;                                                        \
        ascgen_devkit::d3510::binary(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask, \
                                     int(M), [](C a, auto b) { return expr; });                              \
    }
// One lane of each op: the shared element rules (ascgen_common/elementwise.h).
ASCGEN_D3510_BINARY(vadd, ::ascgen::elem::add(a, C(b)))
ASCGEN_D3510_BINARY(vsub, ::ascgen::elem::sub(a, C(b)))
ASCGEN_D3510_BINARY(vmul, ::ascgen::elem::mul(a, C(b)))
ASCGEN_D3510_BINARY(vdiv, ::ascgen::elem::div(a, C(b)))
ASCGEN_D3510_BINARY(vmax, ::ascgen::elem::max(a, C(b)))
ASCGEN_D3510_BINARY(vmin, ::ascgen::elem::min(a, C(b)))
// |src0 - src1|: the difference rounded as vsub rounds it, then its magnitude (the library's AbsSub).
ASCGEN_D3510_BINARY(vabsdif, ::ascgen::elem::abs(::ascgen::elem::sub(a, C(b))))
#undef ASCGEN_D3510_BINARY

// vmull(dst_low, dst_high, src0, src1, mask): the 64-bit product of 32-bit integer lanes (signed for int32),
// its low word into dst_low and its high word into dst_high; inactive lanes zero (the library's Mull has no
// mode). Which register gets which word is read from the library's callers: ops-nn's FastDiv takes
// `Mull(tmp, res, src, magic)` then `src + res` as the quotient's numerator, res the high word (mulhi).
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vmull(D& dst_low, D& dst_high, A& src0, B& src1, vector_bool& mask) {
    const auto a = ASCGEN_D3510_VR(src0), b = ASCGEN_D3510_VR(src1);    // copies: a destination may be a source
    using T = typename std::remove_const_t<decltype(a)>::elem;
    static_assert(sizeof(T) == 4 && std::is_integral<T>::value, "vmull multiplies 32-bit integer lanes");
    using W = std::conditional_t<std::is_signed<T>::value, int64_t, uint64_t>;
    auto product = [&](int i) { return uint64_t(W(a.e()[i]) * W(b.e()[i])); };
    ascgen_devkit::d3510::apply(ASCGEN_D3510_VR(dst_low), mask, 0, [&](int i) { return T(uint32_t(product(i))); });
    ascgen_devkit::d3510::apply(ASCGEN_D3510_VR(dst_high), mask, 0,
                                [&](int i) { return T(uint32_t(product(i) >> 32)); });
    ascgen_devkit::d3510::cost(2 * std::remove_const_t<decltype(a)>::lanes);
}

// vmula(dst, src0, src1, mask, mode): dst = dst + src0 * src1 on the active lanes (the library's MulAddDst;
// its 64-bit multiply accumulates partial products into the high word so). Integer lanes wrap, exact
// whatever the hardware's order of operations; float lanes are fused (elem::fused_mul_add says why).
template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vmula(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    namespace k = ascgen_devkit::d3510;
    k::apply(d, mask, int(M), [&](int i) {
        if constexpr (std::is_integral<T>::value)       // modulo 2^64, then the lane's width
            return k::narrow<T>(uint64_t(d.e()[i]) + uint64_t(a.e()[i]) * uint64_t(b.e()[i]));
        else
            return k::narrow<T>(::ascgen::elem::fused_mul_add<T>(k::compute_t<T>(a.e()[i]),
                                                                 k::compute_t<T>(b.e()[i]), k::compute_t<T>(d.e()[i])));
    });
    k::cost(std::remove_reference_t<decltype(d)>::lanes);
}

// Carry forms on 32-bit lanes, the pieces of the library's 64-bit Add / Sub (AddB64Impl, SubB64Impl: the low
// words through vaddc / vsubc, the high words through vaddcs / vsubcs with that carry in). vaddc: dst = a + b,
// carry = the bit past 32; vaddcs adds the carry in too. vsubc: dst = a - b, carry = 1 when no borrow (a >= b),
// the carry the high word's vsubcs then subtracts as 1 - carry: the convention the library's 64-bit Sub needs
// (tests/devkit/test_reg_carry.py checks int64 and uint64 Add / Sub through it against numpy). The carry is a
// b32 predicate (the bit of each lane's first byte); inactive lanes get 0 in dst and carry.
namespace ascgen_devkit {
namespace d3510 {
template <class D, class A, class B, class F>
inline void carry_lanes(vector_bool& carry, D& d, const A& a, const B& b, const vector_bool& m, F f) {
    static_assert(D::esize == 4 && A::esize == 4 && B::esize == 4, "the carry forms take 32-bit lanes");
    vector_bool out{};
    for (int i = 0; i < D::lanes; ++i) {
        uint32_t value = 0;
        bool c = false;
        if (active(m, i, 4)) {
            uint32_t x, y;
            std::memcpy(&x, &a.e()[i], 4);
            std::memcpy(&y, &b.e()[i], 4);
            c = f(x, y, i, value);
        }
        std::memcpy(&d.e()[i], &value, 4);
        out.set(4 * i, c);
    }
    carry = out;
    cost(D::lanes);
}
}  // namespace d3510
}  // namespace ascgen_devkit
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vaddc(vector_bool& carry, D& dst, A& src0, B& src1, vector_bool& mask) {
    ascgen_devkit::d3510::carry_lanes(carry, ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask,
                                      [](uint32_t x, uint32_t y, int, uint32_t& v) {
                                          const uint64_t s = uint64_t(x) + y;
                                          v = uint32_t(s);
                                          return (s >> 32) != 0;
                                      });
}
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vaddcs(vector_bool& carry, D& dst, A& src0, B& src1, vector_bool& carry_in, vector_bool& mask) {
    const vector_bool cin = carry_in;
    ascgen_devkit::d3510::carry_lanes(carry, ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask,
                                      [&cin](uint32_t x, uint32_t y, int i, uint32_t& v) {
                                          const uint64_t s = uint64_t(x) + y + (cin.get(4 * i) ? 1 : 0);
                                          v = uint32_t(s);
                                          return (s >> 32) != 0;
                                      });
}
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vsubc(vector_bool& carry, D& dst, A& src0, B& src1, vector_bool& mask) {
    ascgen_devkit::d3510::carry_lanes(carry, ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask,
                                      [](uint32_t x, uint32_t y, int, uint32_t& v) {
                                          v = x - y;
                                          return x >= y;
                                      });
}
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vsubcs(vector_bool& carry, D& dst, A& src0, B& src1, vector_bool& carry_in, vector_bool& mask) {
    const vector_bool cin = carry_in;
    ascgen_devkit::d3510::carry_lanes(carry, ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask,
                                      [&cin](uint32_t x, uint32_t y, int i, uint32_t& v) {
                                          const uint64_t borrow = cin.get(4 * i) ? 0 : 1;
                                          v = uint32_t(uint64_t(x) - y - borrow);
                                          return uint64_t(x) >= uint64_t(y) + borrow;
                                      });
}

// vaxpy(dst, src, scalar, mask, mode): dst = scalar * src + dst on the active lanes (the library's Axpy; half
// and float lanes, its 64-bit form is Muls then Add). Computed as the level-0 vaxpy (vector.h) computes it:
// the product and the sum in the compute type, each rounded there, then once to the lane's type. Whether the
// register instruction fuses the float product is not documented (vmula's is: its name and the library's
// Newton residuals say so); for half lanes and a half scalar the float product is exact, so it cannot differ.
template <class D, class A, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A),
          std::enable_if_t<!ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vaxpy(D& dst, A& src, S scalar, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    static_assert(!std::is_integral<T>::value, "vaxpy takes half or float lanes");
    namespace k = ascgen_devkit::d3510;
    using C = k::compute_t<T>;
    const C s = k::scalar_as<T>(scalar);
    k::apply(d, mask, int(M), [&](int i) {
        return k::narrow<T>(::ascgen::elem::add(::ascgen::elem::mul(s, C(a.e()[i])), C(d.e()[i])));
    });
    k::cost(std::remove_reference_t<decltype(d)>::lanes);
}

// vmadd(dst, src0, src1, mask, mode): dst = dst * src0 + src1 on the active lanes, fused (the library's
// MulDstAdd, FusedMulDstAddImpl; half, float and bfloat16 lanes only, as its static_assert says).
template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vmadd(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    static_assert(!std::is_integral<T>::value, "vmadd takes half, float or bfloat16 lanes");
    namespace k = ascgen_devkit::d3510;
    k::apply(d, mask, int(M), [&](int i) {
        return k::narrow<T>(::ascgen::elem::fused_mul_add<T>(k::compute_t<T>(d.e()[i]), k::compute_t<T>(a.e()[i]),
                                                             k::compute_t<T>(b.e()[i])));
    });
    k::cost(std::remove_reference_t<decltype(d)>::lanes);
}

// vops(dst, src, scalar, mask, mode)
#define ASCGEN_D3510_SCALAR(name, expr)                                                                       \
    template <class D, class A, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A),                 \
              std::enable_if_t<!ascgen_devkit::d3510::is_reg_v<S>, int> = 0>                                 \
    inline void name(D& dst, A& src, S scalar, vector_bool& mask, std::integral_constant<CpuMode, M>) {      \
        using T = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(dst))>::elem;                   \
        using C = ascgen_devkit::d3510::compute_t<T>;                                                        \
        const C s = ascgen_devkit::d3510::scalar_as<T>(scalar);                                              \
        ascgen_devkit::d3510::unary(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, int(M),               \
                                    [s](C a) { return expr; });                                              \
    }
ASCGEN_D3510_SCALAR(vadds, ::ascgen::elem::add(a, s))
ASCGEN_D3510_SCALAR(vmuls, ::ascgen::elem::mul(a, s))
ASCGEN_D3510_SCALAR(vmaxs, ::ascgen::elem::max(a, s))
ASCGEN_D3510_SCALAR(vmins, ::ascgen::elem::min(a, s))
ASCGEN_D3510_SCALAR(vlrelu, ::ascgen::elem::leaky_relu(a, s))   // Reg::LeakyRelu
#undef ASCGEN_D3510_SCALAR

// Bitwise, on the lanes' bits.
#define ASCGEN_D3510_BITWISE(name, expr)                                                                      \
    template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)> \
    inline void name(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {      \
        ascgen_devkit::d3510::bitwise(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src0), ASCGEN_D3510_VR(src1), mask, \
                                      int(M), [](auto a, auto b) { return expr; });                          \
    }
ASCGEN_D3510_BITWISE(vand, a & b)
ASCGEN_D3510_BITWISE(vor, a | b)
ASCGEN_D3510_BITWISE(vxor, a ^ b)
#undef ASCGEN_D3510_BITWISE
template <class D, class A, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vnot(D& dst, A& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::bitwise(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), ASCGEN_D3510_VR(src), mask, int(M),
                                  [](auto a, auto) { return ~a; });
}

// Shifts of integer lanes: by a register of amounts, or by a scalar.
template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vshl(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) { return ::ascgen::elem::shl<T>(a.e()[i], int64_t(b.e()[i])); });
}
template <class D, class A, class B, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vshr(D& dst, A& src0, B& src1, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) { return ::ascgen::elem::shr<T>(a.e()[i], int64_t(b.e()[i])); });
}
template <class D, class A, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vshls(D& dst, A& src, S k, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) { return ::ascgen::elem::shl<T>(a.e()[i], int64_t(k)); });
}
template <class D, class A, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vshrs(D& dst, A& src, S k, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) { return ::ascgen::elem::shr<T>(a.e()[i], int64_t(k)); });
}

// Unary arithmetic.
#define ASCGEN_D3510_UNARY(name, expr)                                                                        \
    template <class D, class A, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>                          \
    inline void name(D& dst, A& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {                \
        using T = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(dst))>::elem;                   \
        using C = ascgen_devkit::d3510::compute_t<T>;                                                        \
        ascgen_devkit::d3510::unary(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, int(M),               \
                                    [](C a) { return expr; });                                               \
    }
ASCGEN_D3510_UNARY(vabs, ::ascgen::elem::abs(a))
ASCGEN_D3510_UNARY(vneg, ::ascgen::elem::neg(a))
ASCGEN_D3510_UNARY(vrelu, ::ascgen::elem::relu(a))
#undef ASCGEN_D3510_UNARY
#define ASCGEN_D3510_FLOAT_UNARY(name, fn)                                                                    \
    template <class D, class A, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>                          \
    inline void name(D& dst, A& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {                \
        using T = typename std::remove_reference_t<decltype(ASCGEN_D3510_VR(dst))>::elem;                   \
        using C = ascgen_devkit::d3510::compute_t<T>;                                                        \
        if constexpr (std::is_floating_point<C>::value)                                                      \
            ascgen_devkit::d3510::unary(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, int(M),           \
                                        [](C a) { return C(fn(a)); });                                      \
        else                                                                                                 \
            ascgen_devkit::unimpl::name(dst, src, mask);                                                     \
    }
ASCGEN_D3510_FLOAT_UNARY(vexp, std::exp)
ASCGEN_D3510_FLOAT_UNARY(vln, std::log)
ASCGEN_D3510_FLOAT_UNARY(vsqrt, std::sqrt)
#undef ASCGEN_D3510_FLOAT_UNARY

// vexpdif(dst, src0, src1, mask, part): the library's ExpSub (Reg::ExpSub, FusedExpSubImpl): on the active
// float lanes of dst, exp(src0 - src1) computed in float, the others zero (it takes only ZEROING). Float
// sources give lane i; half sources lane 2i + part (RegLayout ZERO: even, ONE: odd), widened exactly, as the
// level-2 ExpSub says: e^(cast_f16_to_f32(src0) - cast_f16_to_f32(src1)).
template <class D, class S, Part P, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vexpdif(D& dst, S& src0, S& src1, vector_bool& mask, std::integral_constant<Part, P>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using V = std::remove_reference_t<decltype(d)>;
    using W = std::remove_reference_t<decltype(a)>;
    static_assert(std::is_same<typename V::elem, float>::value, "vexpdif writes float lanes");
    static_assert(W::esize == 4 || W::esize == 2, "vexpdif reads float or half lanes");
    namespace k = ascgen_devkit::d3510;
    const int step = W::esize == 4 ? 1 : 2, first = W::esize == 4 ? 0 : int(P);
    k::apply(d, mask, 0, [&](int i) {
        const int j = step * i + first;
        return std::exp(float(k::compute_t<typename W::elem>(a.e()[j])) - float(k::compute_t<typename W::elem>(b.e()[j])));
    });
    k::cost(V::lanes);
}

// Compares into a predicate: active lanes where the relation holds; lanes outside mask are false.
#define ASCGEN_D3510_CMP(suffix, op)                                                                          \
    template <class A, class B, ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>                                     \
    inline void vcmp_##suffix(vector_bool& dst, A& src0, B& src1, vector_bool& mask) {                       \
        auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);                                   \
        using V = std::remove_reference_t<decltype(a)>;                                                      \
        using C = ascgen_devkit::d3510::compute_t<typename V::elem>;                                         \
        vector_bool out{};                                                                                   \
        for (int i = 0; i < V::lanes; ++i)                                                                   \
            if (mask.get(i * V::esize) && (C(a.e()[i]) op C(b.e()[i]))) out.set(i * V::esize, true);        \
        dst = out;                                                                                           \
        ascgen_devkit::d3510::cost(V::lanes);                                                                \
    }                                                                                                        \
    template <class A, class S, ASCGEN_D3510_REG(A), std::enable_if_t<!ascgen_devkit::d3510::is_reg_v<S>, int> = 0> \
    inline void vcmps_##suffix(vector_bool& dst, A& src, S scalar, vector_bool& mask) {                      \
        auto& a = ASCGEN_D3510_VR(src);                                                                      \
        using V = std::remove_reference_t<decltype(a)>;                                                      \
        using C = ascgen_devkit::d3510::compute_t<typename V::elem>;                                         \
        const C s = ascgen_devkit::d3510::scalar_as<typename V::elem>(scalar);                               \
        vector_bool out{};                                                                                   \
        for (int i = 0; i < V::lanes; ++i)                                                                   \
            if (mask.get(i * V::esize) && (C(a.e()[i]) op s)) out.set(i * V::esize, true);                  \
        dst = out;                                                                                           \
        ascgen_devkit::d3510::cost(V::lanes);                                                                \
    }
ASCGEN_D3510_CMP(eq, ==)
ASCGEN_D3510_CMP(ne, !=)
ASCGEN_D3510_CMP(gt, >)
ASCGEN_D3510_CMP(ge, >=)
ASCGEN_D3510_CMP(lt, <)
ASCGEN_D3510_CMP(le, <=)
#undef ASCGEN_D3510_CMP

// vsel: lanes of src0 where sel is set, of src1 elsewhere.
template <class D, class A, class B, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A), ASCGEN_D3510_REG(B)>
inline void vsel(D& dst, A& src0, B& src1, vector_bool& sel) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using V = std::remove_reference_t<decltype(d)>;
    V out;
    for (int i = 0; i < V::lanes; ++i)
        std::memcpy(out.b + i * V::esize, (sel.get(i * V::esize) ? a.b : b.b) + i * V::esize, V::esize);
    d = out;
    ascgen_devkit::d3510::cost(V::lanes);
}

// vdup: a scalar to the active lanes; vbr: a scalar to every lane.
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D)>
inline void vdup(D& dst, S scalar, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst);
    using T = typename std::remove_reference_t<decltype(d)>::elem;
    if constexpr (ascgen_devkit::d3510::is_reg_v<S>) {
        ascgen_devkit::unimpl::vdup(dst, scalar, mask);     // the register-element form
    } else {
        const T v = ascgen_devkit::d3510::narrow<T>(ascgen_devkit::d3510::scalar_as<T>(scalar));
        ascgen_devkit::d3510::apply(d, mask, int(M), [v](int) { return v; });
    }
}
template <class D, class S, ASCGEN_D3510_REG(D), std::enable_if_t<!ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vbr(D& dst, S scalar) {
    auto& d = ASCGEN_D3510_VR(dst);
    using V = std::remove_reference_t<decltype(d)>;
    using T = typename V::elem;
    const T v = ascgen_devkit::d3510::narrow<T>(ascgen_devkit::d3510::scalar_as<T>(scalar));
    for (int i = 0; i < V::lanes; ++i) d.e()[i] = v;
}

// Moves.
template <class D, class A, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vmov(D& dst, A& src) {
    std::memcpy(ASCGEN_D3510_VR(dst).b, ASCGEN_D3510_VR(src).b, ascgen_devkit::d3510::VL);
}
template <class D, class A, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vmov(D& dst, A& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& a = ASCGEN_D3510_VR(src);
    ascgen_devkit::d3510::apply(d, mask, int(M), [&](int i) { return a.e()[i]; });
}

// vintlv: (s0[0], s1[0], s0[1], s1[1]...) split over dst0 (first half) and dst1; vdintlv, its inverse: the
// even elements of s0 ++ s1 to dst0, the odd ones to dst1. Element k of the interleaved sequence is element
// k / 2 of source k % 2 and element k % n of half k / n.
namespace ascgen_devkit {
namespace d3510 {
template <class D, class A>
inline void interleave(D& dst0, D& dst1, A& src0, A& src1, bool inverse) {
    auto& a = ASCGEN_D3510_VR(src0); auto& b = ASCGEN_D3510_VR(src1);
    using V = std::remove_reference_t<decltype(a)>;
    V o0, o1;
    const int n = V::lanes, es = V::esize;
    for (int k = 0; k < 2 * n; ++k) {
        if (inverse) std::memcpy(((k % 2) ? o1 : o0).b + (k / 2) * es, (k < n ? a : b).b + (k % n) * es, es);
        else std::memcpy((k < n ? o0 : o1).b + (k % n) * es, ((k % 2) ? b : a).b + (k / 2) * es, es);
    }
    std::memcpy(ASCGEN_D3510_VR(dst0).b, o0.b, VL);
    std::memcpy(ASCGEN_D3510_VR(dst1).b, o1.b, VL);
    cost(2 * n);
}
}  // namespace d3510
}  // namespace ascgen_devkit
template <class D, class A, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vintlv(D& dst0, D& dst1, A& src0, A& src1) {
    ascgen_devkit::d3510::interleave(dst0, dst1, src0, src1, false);
}
template <class D, class A, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(A)>
inline void vdintlv(D& dst0, D& dst1, A& src0, A& src1) {
    ascgen_devkit::d3510::interleave(dst0, dst1, src0, src1, true);
}

// vselr (Gather within a register): lane i of dst is lane index[i] of src. An index past the register's
// lanes is not defined by the tree: a KernelAssertError naming it, rather than a guess.
template <class D, class S, class I, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S), ASCGEN_D3510_REG(I)>
inline void vselr(D& dst, S& src, I& index) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src); auto& x = ASCGEN_D3510_VR(index);
    using V = std::remove_reference_t<decltype(s)>;
    V out;
    for (int i = 0; i < V::lanes; ++i) {
        const uint64_t k = uint64_t(x.e()[i]);
        if (k >= uint64_t(V::lanes)) {
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ascgen_devkit::at("vselr"),
                               "vselr: index %llu in lane %d is past the register's %d lanes", (unsigned long long)k, i,
                               V::lanes);
            return;
        }
        std::memcpy(out.b + i * V::esize, s.b + k * V::esize, V::esize);
    }
    std::memcpy(d.b, out.b, ascgen_devkit::d3510::VL);
    ascgen_devkit::d3510::cost(V::lanes);
}
