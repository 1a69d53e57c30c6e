// dav_3510 reductions and index generation on registers.
//
// vcadd: the sum of the active lanes into lane 0 of dst (which may be wider than src: int16 -> int32),
// the other lanes zero. The sum is a pairwise tree over the lanes in order (inactive lanes count as 0);
// low floats add in float and round once at the end. vcmax / vcmin: the extreme value of the active
// lanes in lane 0 and the index of its first occurrence in lane 1 (as an integer of the lane's width),
// the rest zero. vcgadd / vcgmax / vcgmin: one sum / extreme per 32-byte block, block k's into lane k. vci: scalar + i (increasing)
// or scalar - i (decreasing) in lane i.
#pragma once
#include "valu.h"

namespace ascgen_devkit {
namespace d3510 {
template <class C> inline C tree_sum(C* v, int n) {
    for (int width = 1; width < n; width *= 2)
        for (int i = 0; i + width < n; i += 2 * width) v[i] = v[i] + v[i + width];
    return n ? v[0] : C(0);
}
template <class D, class S>
inline void reduce_sum(D& d, const S& s, const vector_bool& m, int lo, int n, int out_lane) {
    using T = typename D::elem;
    using C = compute_t<typename S::elem>;
    C v[VL];
    for (int i = 0; i < n; ++i) v[i] = active(m, lo + i, S::esize) ? C(s.e()[lo + i]) : C(0);
    d.e()[out_lane] = narrow<T>(compute_t<T>(tree_sum(v, n)));
}
// The sum of each group of `group_bytes` of src's lanes into lane k of d (group k), the other lanes zero.
template <class D, class S>
inline void group_sums(D& d, const S& s, const vector_bool& m, int group_bytes) {
    D out;
    std::memset(out.b, 0, VL);
    const int per_group = group_bytes / S::esize;
    for (int k = 0; k < VL / group_bytes; ++k) reduce_sum(out, s, m, k * per_group, per_group, k);
    d = out;
    cost(S::lanes);
}
// The extreme of each 32-byte block's active lanes into lane k of d (block k), the other lanes zero; a block
// with no active lane gives zero, as reduce_extreme does for a register with none (ZEROING, the only mode the
// library's ReduceMaxWithDataBlock / ReduceMinWithDataBlock take).
template <class V>
inline void group_extremes(V& d, const V& s, const vector_bool& m, bool want_max) {
    using C = compute_t<typename V::elem>;
    V out;
    std::memset(out.b, 0, VL);
    const int per_group = 32 / V::esize;
    for (int k = 0; k < VL / 32; ++k) {
        int best = -1;
        for (int i = k * per_group; i < (k + 1) * per_group; ++i) {
            if (!active(m, i, V::esize)) continue;
            if (best < 0 || (want_max ? C(s.e()[i]) > C(s.e()[best]) : C(s.e()[i]) < C(s.e()[best]))) best = i;
        }
        if (best >= 0) out.e()[k] = s.e()[best];
    }
    d = out;
    cost(V::lanes);
}
template <class V>
inline void reduce_extreme(V& d, const V& s, const vector_bool& m, bool want_max) {
    using T = typename V::elem;
    using C = compute_t<T>;
    int best = -1;
    for (int i = 0; i < V::lanes; ++i) {
        if (!active(m, i, V::esize)) continue;
        if (best < 0 || (want_max ? C(s.e()[i]) > C(s.e()[best]) : C(s.e()[i]) < C(s.e()[best]))) best = i;
    }
    V out;
    std::memset(out.b, 0, VL);
    if (best >= 0) {
        out.e()[0] = s.e()[best];
        const bits_t<V::esize> index = bits_t<V::esize>(best);
        std::memcpy(out.b + V::esize, &index, V::esize);
    }
    d = out;
}
}  // namespace d3510
}  // namespace ascgen_devkit

template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcadd(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::group_sums(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, ascgen_devkit::d3510::VL);
}
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcgadd(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::group_sums(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, 32);
}
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcmax(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::reduce_extreme(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, true);
}
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcmin(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::reduce_extreme(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, false);
}
// vcgmax / vcgmin (dst, src, mask, mode): per 32-byte block (the library's ReduceMax/MinWithDataBlock).
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcgmax(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::group_extremes(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, true);
}
template <class D, class S, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vcgmin(D& dst, S& src, vector_bool& mask, std::integral_constant<CpuMode, M>) {
    ascgen_devkit::d3510::group_extremes(ASCGEN_D3510_VR(dst), ASCGEN_D3510_VR(src), mask, false);
}
template <class D, class S, Order O, ASCGEN_D3510_REG(D), std::enable_if_t<!ascgen_devkit::d3510::is_reg_v<S>, int> = 0>
inline void vci(D& dst, S start, std::integral_constant<Order, O>) {
    auto& d = ASCGEN_D3510_VR(dst);
    using V = std::remove_reference_t<decltype(d)>;
    using T = typename V::elem;
    using C = ascgen_devkit::d3510::compute_t<T>;
    const C s = ascgen_devkit::d3510::scalar_as<T>(start);
    for (int i = 0; i < V::lanes; ++i) d.e()[i] = ascgen_devkit::d3510::narrow<T>(int(O) ? C(s - C(i)) : C(s + C(i)));
}
// vdup of a register lane: lane 0 (LOWEST) or the last lane (HIGHEST) of src to the active lanes of dst.
template <class D, class S, Pos P, CpuMode M, ASCGEN_D3510_REG(D), ASCGEN_D3510_REG(S)>
inline void vdup(D& dst, S& src, vector_bool& mask, std::integral_constant<Pos, P>, std::integral_constant<CpuMode, M>) {
    auto& d = ASCGEN_D3510_VR(dst); auto& s = ASCGEN_D3510_VR(src);
    using V = std::remove_reference_t<decltype(d)>;
    const auto v = s.e()[int(P) ? V::lanes - 1 : 0];
    ascgen_devkit::d3510::apply(d, mask, int(M), [v](int) { return v; });
}
