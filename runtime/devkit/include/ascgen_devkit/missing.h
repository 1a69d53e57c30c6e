// Intrinsics the library can call that this backend does not implement. Each is declared, never
// defined: a kernel whose instantiated library code calls one fails to link, and the build reports the
// intrinsic and the library function that calls it (ascgen/runtime/devkit_build.py). Implementing one
// means deleting its line here and defining it under ascgen_devkit/.
#pragma once

namespace ascgen_devkit {
// Stands in for any return type; its conversion is declared only, so it also never links.
struct Missing {
    template <class T> operator T() const;
};
// Library code does arithmetic on some results (get_pc() & mask): declared only, like the rest.
#define ASCGEN_DEVKIT_MISSING_OP(op) \
    template <class T> Missing operator op(Missing, T); \
    template <class T> Missing operator op(T, Missing);
ASCGEN_DEVKIT_MISSING_OP(&) ASCGEN_DEVKIT_MISSING_OP(|) ASCGEN_DEVKIT_MISSING_OP(>>) ASCGEN_DEVKIT_MISSING_OP(<<)
ASCGEN_DEVKIT_MISSING_OP(+) ASCGEN_DEVKIT_MISSING_OP(-) ASCGEN_DEVKIT_MISSING_OP(*) ASCGEN_DEVKIT_MISSING_OP(/)
ASCGEN_DEVKIT_MISSING_OP(<) ASCGEN_DEVKIT_MISSING_OP(>) ASCGEN_DEVKIT_MISSING_OP(<=) ASCGEN_DEVKIT_MISSING_OP(>=)
ASCGEN_DEVKIT_MISSING_OP(==) ASCGEN_DEVKIT_MISSING_OP(!=)
#undef ASCGEN_DEVKIT_MISSING_OP
}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_MISSING(name) template <class... A> ::ascgen_devkit::Missing name(A...);
// For intrinsics whose result library code returns from a void function.
#define ASCGEN_DEVKIT_MISSING_VOID(name) template <class... A> void name(A...);

ASCGEN_DEVKIT_MISSING(conv_f322f16o)
ASCGEN_DEVKIT_MISSING(conv_f322s32a)
ASCGEN_DEVKIT_MISSING(conv_f322s32c)
ASCGEN_DEVKIT_MISSING(conv_f322s32f)
ASCGEN_DEVKIT_MISSING(conv_f322s32r)
ASCGEN_DEVKIT_MISSING(create_cbuf_matrix)
ASCGEN_DEVKIT_MISSING(get_icache_prl_st)
ASCGEN_DEVKIT_MISSING(get_max_min_cnt)
ASCGEN_DEVKIT_MISSING(get_pc)
ASCGEN_DEVKIT_MISSING(get_st_atomic_cfg)
ASCGEN_DEVKIT_MISSING(hset_flag)
ASCGEN_DEVKIT_MISSING(hwait_flag)
ASCGEN_DEVKIT_MISSING(preload)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_0)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_18)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_19)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_1)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_20)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_21)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_2)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_3)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_4)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_5)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_6)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_7)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_8)
ASCGEN_DEVKIT_MISSING(set_aipp_spr_9)
ASCGEN_DEVKIT_MISSING(set_data_exp_0)
ASCGEN_DEVKIT_MISSING(set_data_exp_1)
ASCGEN_DEVKIT_MISSING(set_data_exp_2)
ASCGEN_DEVKIT_MISSING(set_data_exp_3)
ASCGEN_DEVKIT_MISSING(set_deqscale)
ASCGEN_DEVKIT_MISSING(set_ffts_base_addr)
#if !(defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510)   // dav3510/cube.h defines it
ASCGEN_DEVKIT_MISSING(set_l3d_rpt)
#endif
#if !(defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510)   // dav3510/dma.h defines it
ASCGEN_DEVKIT_MISSING(set_st_atomic_cfg)
#endif
ASCGEN_DEVKIT_MISSING(sflbits)
ASCGEN_DEVKIT_MISSING(vconv_deq)
// The int4 cube intrinsics' other arities (the config-word and hwWaitCtrl forms of the load2d pair, the
// 13-argument mad_s4); the forms the library's LoadData / Mmad use are defined in cube_int4.h.
ASCGEN_DEVKIT_MISSING(img2colv2_cbuf_to_ca_s4)
ASCGEN_DEVKIT_MISSING(load_cbuf_to_ca_s4)
ASCGEN_DEVKIT_MISSING(load_cbuf_to_cb_s4)
ASCGEN_DEVKIT_MISSING(load_cbuf_to_cb_transpose_s4)
ASCGEN_DEVKIT_MISSING(mad_s4)
// vgather's dav_m200 form (dst, src, config); the dav_c220 form is defined in rearrange.h.
ASCGEN_DEVKIT_MISSING(vgather)
ASCGEN_DEVKIT_MISSING(vld_va_reg)
ASCGEN_DEVKIT_MISSING(vmulconv_f162s8)
ASCGEN_DEVKIT_MISSING(vmulconv_f162u8)

// Cube intrinsics the cube model (cube.h, cube_int4.h, cube_sparse.h) does not emulate: load3d into UB,
// GM -> L0 loads, constant fills of L0/L1 and the image loads.
ASCGEN_DEVKIT_MISSING(copy_matrix_cbuf_to_cc)
ASCGEN_DEVKIT_MISSING(create_ca_matrix)
ASCGEN_DEVKIT_MISSING(create_ca_matrix_bf16)
ASCGEN_DEVKIT_MISSING(create_cb_matrix)
ASCGEN_DEVKIT_MISSING(create_cb_matrix_bf16)
ASCGEN_DEVKIT_MISSING(img2colv2_cbuf_to_ub)
ASCGEN_DEVKIT_MISSING(load_gm_to_ca)
ASCGEN_DEVKIT_MISSING(load_gm_to_cb)
ASCGEN_DEVKIT_MISSING(load_gm_to_cbuf)
ASCGEN_DEVKIT_MISSING(load_image_to_cbuf)

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
// dav_m200 (ascend310p): the names its library code uses that dav_c220 does not have, or uses with other
// arities. Declared only, like the rest: a kernel that reaches one fails to link and is refused by name.
enum ConvRelu_t { CRMODE_NONE, CRMODE_F32toF16_NONE, CRMODE_F32toF16_RELU, CRMODE_S32toF16_NONE, CRMODE_F16toF32_NONE,
                  CRMODE_NONE_RELU, CRMODE_F16_MUL, CRMODE_S32toF16_DEQSCALE_SPR, CRMODE_DEQSCALE_VDEQ8,
                  CRMODE_DEQSCALE_DEQ8, CRMODE_DEQSCALE_VDEQ16, CRMODE_DEQSCALE_DEQ16, CRMODE_DEQSCALE_VDEQS16,
                  CRMODE_DEQSCALE_DEQS16 };
enum csize_t { CSIZE0, CSIZE1 };
ASCGEN_DEVKIT_MISSING(copy_matrix_cc_to_cbuf)
ASCGEN_DEVKIT_MISSING(copy_matrix_cc_to_ubuf)
ASCGEN_DEVKIT_MISSING(copy_vector_cc_to_ubuf)
ASCGEN_DEVKIT_MISSING(copy_vector_ubuf_to_cc)
ASCGEN_DEVKIT_MISSING(copy_matrix_ubuf_to_cc)
ASCGEN_DEVKIT_MISSING(copy_ubuf_to_cbuf)
ASCGEN_DEVKIT_MISSING(copy_cbuf_to_ubuf)
ASCGEN_DEVKIT_MISSING(vscatter)
ASCGEN_DEVKIT_MISSING(vreduce)
ASCGEN_DEVKIT_MISSING(vpadding)
ASCGEN_DEVKIT_MISSING(vaddrelu)
ASCGEN_DEVKIT_MISSING(vadddeqrelu)
ASCGEN_DEVKIT_MISSING(v4dtrans)
ASCGEN_DEVKIT_MISSING(load_unzip_index_from_gm)
ASCGEN_DEVKIT_MISSING(load_gm_to_cbuf_unzip)
ASCGEN_DEVKIT_MISSING(load_gm_to_cb_unzip)
ASCGEN_DEVKIT_MISSING(img2colv2_cbuf_to_cb_s4)
ASCGEN_DEVKIT_MISSING(vconv_s322s16)
ASCGEN_DEVKIT_MISSING(vcbd_s322s16)
ASCGEN_DEVKIT_MISSING(get_status)
ASCGEN_DEVKIT_MISSING(get_imm)
// other arities than dav_c220's
ASCGEN_DEVKIT_MISSING(vconv_f162s4)   // dav_m200 adds repeatStrideMode / strideSizeMode (convert.h has the 7-argument form)
ASCGEN_DEVKIT_MISSING(vsel)
ASCGEN_DEVKIT_MISSING(vcmax)
ASCGEN_DEVKIT_MISSING(vcmin)
ASCGEN_DEVKIT_MISSING(vconv_s162f16)
ASCGEN_DEVKIT_MISSING(vconv_f162s16r)
ASCGEN_DEVKIT_MISSING(vlrelu)
#endif
