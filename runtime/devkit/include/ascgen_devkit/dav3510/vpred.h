// dav_3510 predicate instructions on vector_bool (one bit per byte lane; an element of N bytes is the
// bit of its first byte, the other bits of the element are zero in what these instructions produce).
#pragma once
#include "vreg.h"

namespace ascgen_devkit {
namespace d3510 {
inline vector_bool pred_first(int elements, int esize) {
    vector_bool p{};
    const int n = VL / esize;
    for (int i = 0; i < n && i < elements; ++i) p.set(i * esize, true);
    return p;
}
// pset patterns (the library's MaskPattern): 0 ALL, 1-9 VL1/2/3/4/8/16/32/64/128 (the first N
// elements), 10 M3 / 11 M4 (every 3rd / 4th element, from element 0: the reg squeeze example's golden
// keeps x[::4]), 12 H / 13 Q (half / quarter of the elements), 15 ALLF (none).
inline vector_bool pred_pattern(int pat, int esize) {
    static const int vl[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
    const int n = VL / esize;
    if (pat == 0) return pred_first(n, esize);
    if (pat >= 1 && pat <= 9) return vl[pat] <= n ? pred_first(vl[pat], esize) : vector_bool{};
    if (pat == 10 || pat == 11) {
        vector_bool p{};
        for (int i = 0; i < n; i += (pat == 10 ? 3 : 4)) p.set(i * esize, true);
        return p;
    }
    if (pat == 12) return pred_first(n / 2, esize);
    if (pat == 13) return pred_first(n / 4, esize);
    if (pat == 15) return vector_bool{};
    return ::ascgen_devkit::unimpl::pset(pat, esize);
}
// plt: the first min(count, lanes) elements; with POST_UPDATE the count drops by what was taken.
template <class C>
inline vector_bool pred_lt(C& count, int esize) {
    const uint64_t n = VL / esize, c = uint64_t(count);
    const uint64_t take = c < n ? c : n;
    count = C(c - take);
    return pred_first(int(take), esize);
}
template <class F> inline void pred_bits(vector_bool& d, F f) {
    vector_bool out{};
    for (int i = 0; i < VL; ++i) out.set(i, f(i));
    d = out;
}
// Interleave / deinterleave of the element bits of two predicates (N bytes per element).
inline void pred_intlv(vector_bool& d0, vector_bool& d1, const vector_bool& a, const vector_bool& b, int es) {
    const int n = VL / es;
    vector_bool o0{}, o1{};
    for (int k = 0; k < 2 * n; ++k) {
        bool v = ((k % 2) ? b : a).get((k / 2) * es);
        (k < n ? o0 : o1).set((k % n) * es, v);
    }
    d0 = o0;
    d1 = o1;
}
inline void pred_dintlv(vector_bool& d0, vector_bool& d1, const vector_bool& a, const vector_bool& b, int es) {
    const int n = VL / es;
    vector_bool o0{}, o1{};
    for (int k = 0; k < 2 * n; ++k) {
        bool v = (k < n ? a : b).get((k % n) * es);
        ((k % 2) ? o1 : o0).set((k / 2) * es, v);
    }
    d0 = o0;
    d1 = o1;
}
}  // namespace d3510
}  // namespace ascgen_devkit

#define ASCGEN_D3510_PRED_WIDTH(bits, es)                                                                   \
    template <Pat P> inline vector_bool pset_b##bits(std::integral_constant<Pat, P>) {                      \
        return ascgen_devkit::d3510::pred_pattern(int(P), es);                                              \
    }                                                                                                       \
    template <class C> inline vector_bool plt_b##bits(C& count, std::integral_constant<Post, Post(1)>) {    \
        return ascgen_devkit::d3510::pred_lt(count, es);                                                    \
    }                                                                                                       \
    inline void pintlv_b##bits(vector_bool& d0, vector_bool& d1, vector_bool& a, vector_bool& b) {          \
        ascgen_devkit::d3510::pred_intlv(d0, d1, a, b, es);                                                 \
    }                                                                                                       \
    inline void pdintlv_b##bits(vector_bool& d0, vector_bool& d1, vector_bool& a, vector_bool& b) {         \
        ascgen_devkit::d3510::pred_dintlv(d0, d1, a, b, es);                                                \
    }
ASCGEN_D3510_PRED_WIDTH(8, 1)
ASCGEN_D3510_PRED_WIDTH(16, 2)
ASCGEN_D3510_PRED_WIDTH(32, 4)
#undef ASCGEN_D3510_PRED_WIDTH

// movp: a predicate from the vector mask registers {MASK1, MASK0} (set_vector_mask(hi, lo)), the library's
// MoveMask. The API reference: b16 reads all 128 bits, each bit doubled (half lane i <- bit i); b32 reads
// the 64 bits of MASK0, each bit four times. The bits are read as they are, whatever the mask mode: in
// counter mode the library itself reads the count back through movp_b16 (kernel_operator_vec_cmp_impl.h).
namespace ascgen_devkit {
namespace d3510 {
inline vector_bool pred_from_mask_spr(int es) {
    vector_bool out{};
    for (int lane = 0; lane < VL / es; ++lane) {
        const uint64_t word = lane < 64 ? ::ascgen_devkit::regs.mask_lo : ::ascgen_devkit::regs.mask_hi;
        const bool on = (word >> (lane % 64)) & 1u;
        for (int b = 0; b < es; ++b) out.set(lane * es + b, on);
    }
    return out;
}
}  // namespace d3510
}  // namespace ascgen_devkit
inline vector_bool movp_b16() { return ascgen_devkit::d3510::pred_from_mask_spr(2); }
inline vector_bool movp_b32() { return ascgen_devkit::d3510::pred_from_mask_spr(4); }

// Logic under a governing predicate: lanes outside `mask` are false.
inline void pand(vector_bool& d, vector_bool& a, vector_bool& b, vector_bool& m) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return a.get(i) && b.get(i) && m.get(i); });
}
inline void por(vector_bool& d, vector_bool& a, vector_bool& b, vector_bool& m) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return (a.get(i) || b.get(i)) && m.get(i); });
}
inline void pxor(vector_bool& d, vector_bool& a, vector_bool& b, vector_bool& m) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return (a.get(i) != b.get(i)) && m.get(i); });
}
inline void pnot(vector_bool& d, vector_bool& s, vector_bool& m) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return !s.get(i) && m.get(i); });
}
inline void pmov(vector_bool& d, vector_bool& s) { d = s; }
inline void pmov(vector_bool& d, vector_bool& s, vector_bool& m) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return s.get(i) && m.get(i); });
}
// psel: bits of a where sel is set, of b elsewhere.
inline void psel(vector_bool& d, vector_bool& a, vector_bool& b, vector_bool& sel) {
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return sel.get(i) ? a.get(i) : b.get(i); });
}
// ppack: every other bit of src, into the lower (LOWER) or upper (HIGHER) half of dst, the rest false.
// punpack: the lower or upper half of src spread to every other bit of dst.
template <HiloPart H> inline void ppack(vector_bool& d, vector_bool& s, std::integral_constant<HiloPart, H>) {
    const int half = ascgen_devkit::d3510::VL / 2, base = int(H) ? half : 0;
    vector_bool src = s;
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return i >= base && i < base + half && src.get(2 * (i - base)); });
}
template <HiloPart H> inline void punpack(vector_bool& d, vector_bool& s, std::integral_constant<HiloPart, H>) {
    const int base = int(H) ? ascgen_devkit::d3510::VL / 2 : 0;
    vector_bool src = s;
    ascgen_devkit::d3510::pred_bits(d, [&](int i) { return (i % 2) == 0 && src.get(base + i / 2); });
}
