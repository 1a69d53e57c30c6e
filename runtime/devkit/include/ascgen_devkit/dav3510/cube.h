// The dav_3510 forms of the cube intrinsics, on the dav_c220 cube model (../cube.h: nd2nz, mad, fixpipe,
// img2col, which switch on kDav3510 where the conventions differ).
//
// Layout words used below. A matrix in L1 or L0 is Nz: 16-row x C0-column fractals (C0 = 32 / element
// size), the fractals of one column block consecutive; with S fractals per column block, element (r, c)
// sits at ((c / C0) * S + r / 16) * 16 * C0 + (r % 16) * C0 + c % C0. L0A holds A (m x k) that way with
// S = ceil(m / 16); L0B holds B^T (n x k) that way with S = ceil(n / 16), which is the layout ascgen/gemm.h
// reads for B on both architectures.
#pragma once
#include "../cube.h"

namespace ascgen_devkit {
namespace d3510 {
inline uint64_t mte2_nz_para = 0;   // ND2NZ loops: ndNum [15:0], n / C0 / matrix dst strides above
inline uint64_t loop3_para = 0;     // Fixpipe's NZ2ND / NZ2DN matrix loop: count [15:0]
inline uint64_t channel_para = 0;   // Fixpipe NZ2DN: the destination's C0 stride [63:48], in C0 units

// Element offset of (r, c) in an Nz matrix with `s` 16-row fractals per column block.
template <uint64_t C0>
inline uint64_t nz_at(uint64_t r, uint64_t c, uint64_t s) {
    return ((c / C0) * s + r / 16) * 16 * C0 + (r % 16) * C0 + c % C0;
}

// L1 (Nz, src_stride fractals per column block) -> L0A / L0B (Nz, dst_stride). The source window is
// m_step x k_step fractals from fractal (m_start, k_start), i.e. 16 * m_step rows x C0 * k_step columns.
// Without transpose it lands as it is; with transpose its transpose lands (rows and columns swapped, so
// b8 needs whole 32 x 32 squares: m_step even; b32 whole 16 x 16 squares: k_step even).
template <class T>
inline void load2d_v2(int hw, T* dst, const T* src, uint64_t m_start, uint64_t k_start, uint64_t m_step,
                      uint64_t k_step, uint64_t src_stride, uint64_t dst_stride, bool transpose, const char* name) {
    tick();
    constexpr uint64_t C0 = 32 / sizeof(T), FE = 16 * C0;
    if (m_step == 0 || k_step == 0) return;
    if (transpose && sizeof(T) == 1 && m_step % 2)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: a transposing load of 1-byte elements moves 32 x 32 squares, so mStep (%llu) must be "
                           "even", name, (unsigned long long)m_step);
    if (transpose && sizeof(T) == 4 && k_step % 2)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: a transposing load of 4-byte elements moves 16 x 16 squares, so kStep (%llu) must be "
                           "even", name, (unsigned long long)k_step);
    const uint64_t rows = 16 * m_step, cols = C0 * k_step;     // the source window
    const uint64_t src_last = (k_start + k_step - 1) * src_stride + m_start + m_step - 1;
    check_buf(HW_L1, src, (src_last + 1) * FRACTAL, name, "src (L1)");
    // The written matrix. A dstStride below its fractal rows is legal: column blocks then overlap, and a
    // later load overwrites what spilled (the library's example loads a transposed int8 A that way).
    const uint64_t dr = transpose ? cols : rows, dc = transpose ? rows : cols;
    check_buf(hw, dst, (((dc - 1) / C0) * dst_stride + (dr - 1) / 16 + 1) * FRACTAL, name, "dst");
    const T* s0 = src + (k_start * src_stride + m_start) * FE;
    if (!transpose) {   // whole fractals
        for (uint64_t j = 0; j < k_step; ++j)
            for (uint64_t i = 0; i < m_step; ++i)
                std::memmove(dst + (j * dst_stride + i) * FE, s0 + (j * src_stride + i) * FE, FRACTAL);
    } else {
        static thread_local std::vector<T> win;   // the window first: src and dst may overlap in L1 / L0
        win.resize(rows * cols);
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c) win[r * cols + c] = s0[nz_at<C0>(r, c, src_stride)];
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c) dst[nz_at<C0>(c, r, dst_stride)] = win[r * cols + c];
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::MTE1, m_step * k_step * FRACTAL);
}

// ---- between the cores of a group: an AIC and its AIVs ---------------------------------------------------

// Every core's module copy has its own library buffers; a kernel names a peer's buffer by an address in its
// own copy's buffer of that kind (the library's CPU mode does the same). `p` in this copy's buffer `hw`
// becomes the same offset in the peer's: the group's AIC (sub < 0) or AIV `sub`. `inbox`: the peer's, through
// which every write into that buffer goes (PeerWriter, peer.h).
inline uint8_t* on_peer(int sub, int hw, const void* p, uint64_t bytes, LocalBuf* peer, void** inbox,
                        const char* name) {
    const LocalBuf& own = lib_bufs[hw];
    uint64_t base = 0, len = 0;
    if (!::ascgen::rt::local_of_peer(sub, hw, &base, &len, at(name), inbox))
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name),
                           "%s: this launch has no %s to reach (it moves data between an AIC and its AIVs: launch "
                           "the kernel as MIX, e.g. __mix__(1, 2))", name,
                           sub < 0 ? "AIC" : (sub == 0 ? "AIV (sub-block 0)" : "AIV (sub-block 1)"));
    check_in(own, hw, p, bytes, name, "operand");   // the address must name this kind of buffer
    if (len == 0)   // the library gave the peer no such buffer: there is nowhere to write
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name), "%s: the peer core has no %s in this launch",
                           name, hw_name(hw));
    *peer = LocalBuf{base, len};
    const uint64_t off = reinterpret_cast<uint64_t>(p) - own.base;
    check_in(*peer, hw, reinterpret_cast<const void*>(base + off), bytes, name, "operand (on the peer)");
    return reinterpret_cast<uint8_t*>(base + off);
}

// Checks what the dav_3510 Fixpipe forms take but this model does not emulate, and names it.
inline void fixpipe_options(uint64_t clip_relu_pre, uint64_t quant_post, uint64_t relu_post, bool clip_relu_post,
                            uint64_t eltwise_op, bool eltwise_antq, bool c0_pad, bool broadcast, const char* name) {
    if (clip_relu_pre) unsupported(name, "clip relu before the quantisation");
    if (quant_post || relu_post || clip_relu_post) unsupported(name, "the post-quantisation stage (quant / relu / clip)");
    if (eltwise_op || eltwise_antq) unsupported(name, "the element-wise stage");
    if (c0_pad) unsupported(name, "C0 padding");
    if (broadcast) unsupported(name, "broadcast");
}

// NZ2ND / NZ2DN over several matrices (LOOP3_PARA count > 1) is not emulated here.
inline FixLayout fixpipe_layout(bool nz2nd, bool nz2dn, const char* name) {
    if (nz2nd && nz2dn) unsupported(name, "NZ2ND and NZ2DN at once");
    if ((nz2nd || nz2dn) && (loop3_para & 0xffff) > 1)
        unsupported(name, "more than one matrix per call (ndNum / dnNum > 1, set_loop3_para)");
    if (nz2dn && (channel_para >> 48) != 1)
        unsupported(name, "an NZ2DN srcNzC0Stride other than 1 (set_channel_para [63:48])");
    return nz2nd ? FixLayout::ND : nz2dn ? FixLayout::DN : FixLayout::NZ;
}
}  // namespace d3510
}  // namespace ascgen_devkit

inline void set_l3d_rpt(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::regs.l3d_rpt = v; }
inline void set_mte2_nz_para(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::d3510::mte2_nz_para = v; }
inline void set_loop3_para(uint64_t v) {   // dav_3510's ND_PARA, also the library's g_fixpipeNdNzParam
    ascgen_devkit::tick();
    ascgen_devkit::d3510::loop3_para = v;
    g_fixpipeNdNzParam = v;
}
inline void set_channel_para(uint64_t v) { ascgen_devkit::tick(); ascgen_devkit::d3510::channel_para = v; }

// GM (ND, or DN: column-major) -> L1 (Nz). Strides from GM in bytes (loop1: one row, or one column for DN;
// loop4: one matrix); MTE2_NZ_PARA holds the matrix count and the destination strides (n and C0 strides
// in C0 rows, the matrix stride in 32 bytes).
namespace ascgen_devkit {
namespace d3510 {
template <class T>
inline void gm_to_nz(T* dst, T* src, uint64_t loop1_src_stride, uint64_t n_value, uint64_t d_value,
                     uint64_t loop4_src_stride, bool small_c0, bool dn, const char* name) {
    if (small_c0) unsupported(name, "the small-C0 mode (enableSmallC0)");
    const uint64_t p = mte2_nz_para, es = sizeof(T);
    nd2nz<sizeof(T)>((void*)dst, (const void*)src, p & 0xffff, n_value, d_value, loop4_src_stride / es,
                     loop1_src_stride / es, (p >> 32) & 0xffff, (p >> 16) & 0xffff, ((p >> 48) & 0xffff) * 32 / es,
                     name, dn);
}
}  // namespace d3510
}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_GM_TO_NZ(fn, dn)                                                                         \
    template <class T>                                                                                        \
    inline void fn(T* dst, T* src, uint64_t /*sid*/, uint64_t loop1_src_stride, uint64_t /*l2_cache_ctl*/,    \
                   uint64_t n_value, uint64_t d_value, uint64_t loop4_src_stride, bool small_c0) {           \
        ascgen_devkit::d3510::gm_to_nz(dst, src, loop1_src_stride, n_value, d_value, loop4_src_stride,        \
                                       small_c0, dn, #fn);                                                     \
    }
ASCGEN_DEVKIT_GM_TO_NZ(copy_gm_to_cbuf_multi_nd2nz, false)
ASCGEN_DEVKIT_GM_TO_NZ(copy_gm_to_cbuf_multi_dn2nz, true)
#undef ASCGEN_DEVKIT_GM_TO_NZ

template <class T>
inline void load_cbuf_to_ca(T* dst, T* src, uint64_t m_start, uint64_t k_start, uint64_t m_step, uint64_t k_step,
                            uint64_t src_stride, uint64_t dst_stride, int transpose) {
    ascgen_devkit::d3510::load2d_v2(ascgen_devkit::HW_L0A, dst, src, m_start, k_start, m_step, k_step, src_stride,
                                    dst_stride, transpose != 0, "load_cbuf_to_ca");
}
template <class T>
inline void load_cbuf_to_cb(T* dst, T* src, uint64_t m_start, uint64_t k_start, uint64_t m_step, uint64_t k_step,
                            uint64_t src_stride, uint64_t dst_stride, int transpose) {
    ascgen_devkit::d3510::load2d_v2(ascgen_devkit::HW_L0B, dst, src, m_start, k_start, m_step, k_step, src_stride,
                                    dst_stride, transpose != 0, "load_cbuf_to_cb");
}

// L0C -> GM / L1: the 25-operand dav_3510 Fixpipe. Emulated: sizes and strides, unit flag, the pre-stage
// quantisation and relu, channel split, and the NZ / ND / DN outputs; everything else is refused by name.
#define ASCGEN_DEVKIT_FIXPIPE_3510(fn, to_gm)                                                                  \
    template <class D, class S, class QPre, class QPost>                                                      \
    inline void fn(D* dst, S* src, uint64_t /*sid*/, uint64_t n_size, uint64_t m_size, uint64_t dst_stride,   \
                   uint64_t src_stride, uint64_t /*cache*/, uint64_t clip_relu_pre, uint64_t unit_flag,        \
                   QPre quant_pre, uint64_t relu_pre, bool channel_split, bool nz2nd, QPost quant_post,        \
                   uint64_t relu_post, bool clip_relu_post, bool /*rsvd*/, uint64_t eltwise_op,                \
                   bool eltwise_antq, bool /*rsvd*/, bool c0_pad, bool /*rsvd*/, bool broadcast, bool nz2dn) { \
        using namespace ascgen_devkit;                                                                        \
        d3510::fixpipe_options(clip_relu_pre, uint64_t(quant_post), relu_post, clip_relu_post, eltwise_op,    \
                               eltwise_antq, c0_pad, broadcast, #fn);                                          \
        fixpipe(dst, src, n_size, m_size, dst_stride, src_stride, unit_flag, int(quant_pre), relu_pre,        \
                channel_split, d3510::fixpipe_layout(nz2nd, nz2dn, #fn),                                      \
                to_gm ? fix_to_gm() : fix_to_local(HW_L1), #fn);                                              \
    }
ASCGEN_DEVKIT_FIXPIPE_3510(copy_matrix_cc_to_gm, true)
ASCGEN_DEVKIT_FIXPIPE_3510(copy_matrix_cc_to_cbuf, false)
#undef ASCGEN_DEVKIT_FIXPIPE_3510

// L0C -> the UB of this AIC's AIVs: one of them (sub_blockid), or both (dual destination: each gets half of
// the rows, dual_dst_ctl 1, or half of the columns, 2, at the same UB address).
template <class D, class S, class QPre, class QPost>
inline void copy_matrix_cc_to_ub(D* dst, S* src, uint64_t /*sid*/, uint64_t n_size, uint64_t m_size,
                                 uint64_t dst_stride, uint64_t src_stride, uint64_t dual_dst_ctl, bool sub_blockid,
                                 uint64_t clip_relu_pre, uint64_t unit_flag, QPre quant_pre, uint64_t relu_pre,
                                 bool channel_split, bool nz2nd, QPost quant_post, uint64_t relu_post,
                                 bool clip_relu_post, bool /*rsvd*/, uint64_t eltwise_op, bool eltwise_antq,
                                 bool /*rsvd*/, bool c0_pad, bool /*rsvd*/, bool broadcast, bool nz2dn) {
    using namespace ascgen_devkit;
    constexpr const char* name = "copy_matrix_cc_to_ub";
    d3510::fixpipe_options(clip_relu_pre, uint64_t(quant_post), relu_post, clip_relu_post, eltwise_op, eltwise_antq,
                           c0_pad, broadcast, name);
    const FixLayout layout = d3510::fixpipe_layout(nz2nd, nz2dn, name);
    if (dual_dst_ctl > 2) unsupported(name, "a dual-destination mode other than 0 (one AIV), 1 (M) and 2 (N)");
    if (dual_dst_ctl == 1 && m_size % 2)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name), "%s: splitting M between the two AIVs needs an even "
                           "mSize, not %llu", name, (unsigned long long)m_size);
    if (dual_dst_ctl == 2 && n_size % 32)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(name), "%s: splitting N between the two AIVs needs nSize a "
                           "multiple of 32, not %llu", name, (unsigned long long)n_size);
    const int parts = dual_dst_ctl ? 2 : 1;
    const uint64_t m = dual_dst_ctl == 1 ? m_size / 2 : m_size, n = dual_dst_ctl == 2 ? n_size / 2 : n_size;
    for (int part = 0; part < parts; ++part) {
        const int sub = dual_dst_ctl ? part : int(sub_blockid);
        // The part's first element in L0C (NZ: row i at i * 16, 16-column block b at b * srcStride * 16).
        S* s = src + (dual_dst_ctl == 1 ? part * m * 16 : 0) + (dual_dst_ctl == 2 ? part * (n / 16) * src_stride * 16 : 0);
        FixDst to{HW_UB, {}};
        D* d = reinterpret_cast<D*>(d3510::on_peer(sub, HW_UB, dst, sizeof(D), &to.buf, &to.inbox, name));
        fixpipe(d, s, n, m, dst_stride, src_stride, unit_flag, int(quant_pre), relu_pre, channel_split, layout, to,
                name);
    }
}

// UB (this AIV) -> L1 of its AIC, and L1 (this AIC) -> UB of its AIV `sub_blockid`: nburst bursts of len
// x 32 bytes, gaps in 32-byte units.
namespace ascgen_devkit {
namespace d3510 {
inline void local_to_peer(int from_hw, int to_hw, int sub, void* dst, const void* src, uint64_t nburst, uint64_t len,
                          uint64_t src_gap, uint64_t dst_gap, int pipe, const char* name) {
    tick();
    const uint64_t b = len * 32, ss = b + src_gap * 32, ds = b + dst_gap * 32;
    if (nburst == 0 || b == 0) return;
    check_in(lib_bufs[from_hw], from_hw, src, (nburst - 1) * ss + b, name, "src");
    LocalBuf peer{};
    void* inbox = nullptr;
    uint8_t* d = on_peer(sub, to_hw, dst, (nburst - 1) * ds + b, &peer, &inbox, name);
    PeerWriter(peer, inbox).rows(d, static_cast<const uint8_t*>(src), nburst, b, ds, ss);
    ::ascgen::rt::cost(pipe, nburst * b);
}
}  // namespace d3510
}  // namespace ascgen_devkit

inline void copy_ubuf_to_cbuf(void* dst, void* src, uint64_t /*sid*/, uint64_t nburst, uint64_t len, uint64_t src_gap,
                              uint64_t dst_gap) {
    using namespace ascgen_devkit;
    d3510::local_to_peer(HW_UB, HW_L1, -1, dst, src, nburst, len, src_gap, dst_gap, ::ascgen::rt::pipe::MTE3,
                         "copy_ubuf_to_cbuf");
}
inline void copy_cbuf_to_ubuf(void* dst, void* src, uint64_t sub_blockid, uint64_t nburst, uint64_t len,
                              uint64_t src_gap, uint64_t dst_gap) {
    using namespace ascgen_devkit;
    d3510::local_to_peer(HW_L1, HW_UB, int(sub_blockid != 0), dst, src, nburst, len, src_gap, dst_gap,
                         ::ascgen::rt::pipe::MTE1, "copy_cbuf_to_ubuf");
}
