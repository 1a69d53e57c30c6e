"""The one table of the devkit backend's CCE intrinsics: every name the CPU model defines or declares for the
library's CPU-debug code (intrinsics and the library's CPU hooks), with its status on each architecture.

From it are generated (and committed; tests/devkit/test_intrinsic_table.py regenerates them and fails on any
difference, `write_all()` rewrites them):

* runtime/devkit/include/ascgen_devkit/missing.h: the declarations of what is named-missing or partial, so a
  kernel that reaches one fails to link and the build names it (`missing_report` in ascgen/runtime/backends/devkit/toolchain.py,
  which reads the names from here);
* runtime/devkit/include/ascgen_devkit/dav3510/others.h: the other forms of dav_3510 intrinsics the model
  implements in some forms, declared as C variadics so any implemented form wins overload resolution;
* docs/intrinsics.md: per intrinsic, per arch.

The table is Python rather than an X-macro .def because every consumer but the declarations is Python (the
report, the docs, the tests), and a declaration's arch condition is computed from a row's cells, which the
preprocessor cannot do per row.

Cells (one per arch of ARCHES, __NPU_ARCH__ 2201 dav_c220, 2002 dav_m200, 3510 dav_3510):
    I  implemented: defined in the family headers listed
    P  partial: some forms defined; the others declared in missing.h (a variadic template)
    F  partial: some forms defined; the others declared name(...) in dav3510/others.h
    M  named-missing: declared only, in missing.h
    -  not on this arch (the library does not call it there)
The family is where the name is defined (header stems under ascgen_devkit/; several when arches differ), or
for a missing name where it would belong. The SIMT stand-ins of dav3510/simt.h are not CCE intrinsics and not
listed: they are the launch model and its geometry. The device compiler's SIMT builtins the library's SIMT API
is written over (dav3510/simt_builtins.h: __cvt_*, atomicAdd..., __shfl...) are listed: those that need a
launch's threads together (__sync_workitems, the warp exchanges) are implemented for a one-thread launch and
refused with a named fault otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ascgen import resources

# The table's columns: the architectures the devkit backend runs (devkit.SUPPORTED_ARCHES), by CANN's names.
ARCH_NAMES = {2201: "dav_c220", 2002: "dav_m200", 3510: "dav_3510"}
ARCHES = tuple(ARCH_NAMES)
STATUS = {"I": "implemented", "P": "partial", "F": "partial", "M": "named-missing", "-": "-"}
DECLARED = frozenset("PFM")     # cells whose (other) forms are declared only

# name                        family                         2201  2002  3510
_TABLE = """
AscendCBufAbsAddr              hooks                          I     I     I
AscendCBufAlloc                hooks                          I     I     I
AscendCBufDeque                hooks                          I     I     I
AscendCBufEnque                hooks                          I     I     I
AscendCBufFree                 hooks                          I     I     I
AscendCBufGet                  hooks                          I     I     I
AscendCBufInit                 hooks                          I     I     I
AscendCQueCreate               hooks                          I     I     I
AscendCRecordPoolHierarchy     hooks                          I     I     I
AscendCTBufPoolInit            hooks                          I     I     I
AscendCTBufPoolResetCheck      hooks                          I     I     I
AscendCUpdateTbufPoolStatus    hooks                          I     I     I
VagCpuSim                      dav3510/vreg                   -     -     I
__activemask                   dav3510/simt_builtins          -     -     I
__all                          dav3510/simt_builtins          -     -     I
__any                          dav3510/simt_builtins          -     -     I
__ballot                       dav3510/simt_builtins          -     -     I
__ceilf                        dav3510/simt_builtins          -     -     I
__cvt_bfloat16_t               dav3510/simt_builtins          -     -     I
__cvt_float                    dav3510/simt_builtins          -     -     I
__cvt_half                     dav3510/simt_builtins          -     -     I
__cvt_half2                    dav3510/simt_builtins          -     -     I
__cvt_int32_t                  dav3510/simt_builtins          -     -     I
__cvt_int64_t                  dav3510/simt_builtins          -     -     I
__cvt_uint32_t                 dav3510/simt_builtins          -     -     I
__cvt_uint64_t                 dav3510/simt_builtins          -     -     I
__exp                          dav3510/simt_builtins          -     -     I
__expf                         dav3510/simt_builtins          -     -     I
__fabsf                        dav3510/simt_builtins          -     -     I
__floorf                       dav3510/simt_builtins          -     -     I
__fma                          dav3510/simt_builtins          -     -     I
__fmaxf                        dav3510/simt_builtins          -     -     I
__fminf                        dav3510/simt_builtins          -     -     I
__ib_set_stub                  sync                           I     I     I
__ib_wait_stub                 sync                           I     I     I
__ldg                          dav3510/simt_builtins          -     -     I
__log                          dav3510/simt_builtins          -     -     I
__logf                         dav3510/simt_builtins          -     -     I
__powf                         dav3510/simt_builtins          -     -     I
__reduce_add                   dav3510/simt_builtins          -     -     I
__reduce_max                   dav3510/simt_builtins          -     -     I
__reduce_min                   dav3510/simt_builtins          -     -     I
__rintf                        dav3510/simt_builtins          -     -     I
__roundf                       dav3510/simt_builtins          -     -     I
__shfl                         dav3510/simt_builtins          -     -     I
__shfl_down                    dav3510/simt_builtins          -     -     I
__shfl_up                      dav3510/simt_builtins          -     -     I
__shfl_xor                     dav3510/simt_builtins          -     -     I
__sqrtf                        dav3510/simt_builtins          -     -     I
__stg                          dav3510/simt_builtins          -     -     I
__sync_all_stub                sync                           I     I     I
__sync_workitems               dav3510/simt_builtins          -     -     I
__threadfence                  dav3510/simt_builtins          -     -     I
__threadfence_block            dav3510/simt_builtins          -     -     I
atomicAdd                      dav3510/simt_builtins          -     -     I
atomicAnd                      dav3510/simt_builtins          -     -     I
atomicCAS                      dav3510/simt_builtins          -     -     I
atomicDec                      dav3510/simt_builtins          -     -     I
atomicExch                     dav3510/simt_builtins          -     -     I
atomicInc                      dav3510/simt_builtins          -     -     I
atomicMax                      dav3510/simt_builtins          -     -     I
atomicMin                      dav3510/simt_builtins          -     -     I
atomicOr                       dav3510/simt_builtins          -     -     I
atomicSub                      dav3510/simt_builtins          -     -     I
atomicXOr                      dav3510/simt_builtins          -     -     I
bcnt0                          scalar                         I     I     I
bcnt1                          scalar                         I     I     I
byte_step                      dav3510/vconv                  -     -     I
chistv2                        scalar                         -     -     M
clz                            scalar                         I     I     I
conv_f322f16o                  convert                        I     I     I
conv_f322s32a                  convert                        I     I     I
conv_f322s32c                  convert                        I     I     I
conv_f322s32f                  convert                        I     I     I
conv_f322s32r                  convert                        I     I     I
copy_cbuf_to_bt                cube                           I     I     I
copy_cbuf_to_fbuf              cube                           I     I     I
copy_cbuf_to_gm                dma                            I     I     I
copy_cbuf_to_ubuf              dav3510/cube                   -     M     I
copy_data_align64              dma                            M     M     M
copy_gm_to_cbuf                dma                            I     I     I
copy_gm_to_cbuf_align_v2       dav3510/dma                    -     -     I
copy_gm_to_cbuf_multi_dn2nz    dav3510/cube                   -     -     I
copy_gm_to_cbuf_multi_nd2nz    dav3510/cube                   -     -     I
copy_gm_to_cbuf_multi_nd2nz_b16 cube                           I     I     I
copy_gm_to_cbuf_multi_nd2nz_b32s cube                           I     I     I
copy_gm_to_cbuf_multi_nd2nz_b8 cube                           I     I     I
copy_gm_to_ubuf                dma                            I     I     I
copy_gm_to_ubuf_align_b16      dma                            I     I     I
copy_gm_to_ubuf_align_b32      dma                            I     I     I
copy_gm_to_ubuf_align_b8       dma                            I     I     I
copy_gm_to_ubuf_align_v2       dav3510/dma                    -     -     I
copy_matrix_cbuf_to_cc         cube                           M     M     M
copy_matrix_cc_to_cbuf         cube,dav3510/cube              I     P     I
copy_matrix_cc_to_gm           cube,dav3510/cube              I     I     I
copy_matrix_cc_to_ub           dav3510/cube                   -     -     I
copy_matrix_cc_to_ubuf         cube                           -     M     -
copy_matrix_ubuf_to_cc         cube                           -     M     -
copy_ubuf_to_cbuf              dav3510/cube                   -     M     I
copy_ubuf_to_gm                dma                            I     I     I
copy_ubuf_to_gm_align_b16      dma                            I     I     I
copy_ubuf_to_gm_align_b32      dma                            I     I     I
copy_ubuf_to_gm_align_b8       dma                            I     I     I
copy_ubuf_to_gm_align_v2       dav3510/dma                    -     -     I
copy_ubuf_to_ubuf              dma                            I     I     I
copy_vector_cc_to_ubuf         cube                           -     M     -
copy_vector_ubuf_to_cc         cube                           -     M     -
create_ca_matrix               cube                           I     I     M
create_ca_matrix_bf16          cube                           I     I     M
create_cb_matrix               cube                           I     I     M
create_cb_matrix_bf16          cube                           I     I     M
create_cbuf_matrix             cube                           I     I     M
create_cbuf_matrix_bf16        cube                           I     I     M
dc_preload                     scalar                         I     I     I
dcci                           scalar                         I     I     I
dhistv2                        scalar                         -     -     M
dsb                            sync                           I     I     I
ffts_cross_core_sync           sync                           I     I     I
get_acc_val                    cmpsel                         I     I     I
get_ar                         dav3510/vreg                   -     -     I
get_arch_ver                   scalar                         I     I     I
get_block_idx                  scalar                         I     I     I
get_block_num                  scalar                         I     I     I
get_buf                        dav3510/intrinsics             -     -     I
get_cmpmask                    cmpsel                         I     I     I
get_coreid                     scalar                         M     M     M
get_ctrl                       scalar                         I     I     I
get_icache_prl_st              scalar                         M     M     M
get_imm                        scalar                         I     P     I
get_max_min_cnt                scalar                         M     M     M
get_para_base                  scalar                         M     M     M
get_pc                         scalar                         M     M     M
get_rsvd_cnt                   rearrange                      I     I     I
get_st_atomic_cfg              scalar                         M     M     M
get_status                     scalar                         -     M     -
get_subblockid                 scalar                         I     I     I
get_vms4_sr                    sort                           I     I     I
hset_flag                      scalar                         M     M     M
hwait_flag                     scalar                         M     M     M
img2colv2_cbuf_to_ca           cube                           I     I     I
img2colv2_cbuf_to_ca_s4        cube_int4                      P     P     P
img2colv2_cbuf_to_cb           cube                           I     I     I
img2colv2_cbuf_to_cb_s4        cube                           -     M     -
img2colv2_cbuf_to_ub           cube                           M     M     M
ld_dev                         dma                            I     I     I
ldva                           scalar                         -     -     M
load_cbuf_to_ca                cube,dav3510/cube              I     I     I
load_cbuf_to_ca_mx             cube                           -     -     M
load_cbuf_to_ca_s4             cube_int4                      P     P     P
load_cbuf_to_ca_transpose      cube                           I     I     I
load_cbuf_to_cb                cube,dav3510/cube              I     I     I
load_cbuf_to_cb_mx             cube                           -     -     M
load_cbuf_to_cb_s4             cube_int4                      P     P     P
load_cbuf_to_cb_sp             cube_sparse                    I     I     I
load_cbuf_to_cb_transpose      cube                           I     I     I
load_cbuf_to_cb_transpose_s4   cube_int4                      P     P     P
load_gm_to_ca                  cube                           M     M     M
load_gm_to_cb                  cube                           M     M     M
load_gm_to_cb_unzip            cube                           -     M     -
load_gm_to_cbuf                cube                           M     M     M
load_gm_to_cbuf_unzip          cube                           -     M     -
load_image_to_cbuf             cube                           M     M     M
load_unzip_index_from_gm       cube                           -     M     -
mad                            cube                           I     I     I
mad_s4                         cube_int4                      P     P     P
mad_sp                         cube_sparse                    I     I     I
max                            scalar                         I     I     I
mem_bar                        dav3510/vreg                   -     -     F
min                            scalar                         I     I     I
movp_b16                       dav3510/vpred                  -     -     I
movp_b32                       dav3510/vpred                  -     -     I
movvp                          vector                         -     -     M
nddma_out_to_ub_b16            dav3510/nddma                  -     -     I
nddma_out_to_ub_b32            dav3510/nddma                  -     -     I
nddma_out_to_ub_b8             dav3510/nddma                  -     -     I
pand                           dav3510/vpred                  -     -     F
pdintlv_b16                    dav3510/vpred                  -     -     F
pdintlv_b32                    dav3510/vpred                  -     -     F
pdintlv_b8                     dav3510/vpred                  -     -     F
pintlv_b16                     dav3510/vpred                  -     -     F
pintlv_b32                     dav3510/vpred                  -     -     F
pintlv_b8                      dav3510/vpred                  -     -     F
pipe_barrier                   sync                           I     I     I
pld                            vector                         -     -     M
plds                           dav3510/vconv                  -     -     F
plt_b16                        dav3510/vpred                  -     -     F
plt_b32                        dav3510/vpred                  -     -     F
plt_b8                         dav3510/vpred                  -     -     F
pmov                           dav3510/vpred                  -     -     F
pnot                           dav3510/vpred                  -     -     F
por                            dav3510/vpred                  -     -     F
ppack                          dav3510/vpred                  -     -     F
preload                        scalar                         M     M     M
psel                           dav3510/vpred                  -     -     F
pset_b16                       dav3510/vpred                  -     -     F
pset_b32                       dav3510/vpred                  -     -     F
pset_b8                        dav3510/vpred                  -     -     F
pst                            vector                         -     -     M
psts                           dav3510/vreg                   -     -     F
pstu                           dav3510/vreg                   -     -     F
punpack                        dav3510/vpred                  -     -     F
pxor                           dav3510/vpred                  -     -     F
rls_buf                        dav3510/intrinsics             -     -     I
sbitset0                       scalar                         I     I     I
sbitset1                       scalar                         I     I     I
scatter_vnchwconv_b16          rearrange                      I     I     I
scatter_vnchwconv_b32          rearrange                      I     I     I
scatter_vnchwconv_b8           rearrange                      I     I     I
set_aipp_spr_0                 scalar                         M     M     M
set_aipp_spr_1                 scalar                         M     M     M
set_aipp_spr_18                scalar                         M     M     M
set_aipp_spr_19                scalar                         M     M     M
set_aipp_spr_2                 scalar                         M     M     M
set_aipp_spr_20                scalar                         M     M     M
set_aipp_spr_21                scalar                         M     M     M
set_aipp_spr_3                 scalar                         M     M     M
set_aipp_spr_4                 scalar                         M     M     M
set_aipp_spr_5                 scalar                         M     M     M
set_aipp_spr_6                 scalar                         M     M     M
set_aipp_spr_7                 scalar                         M     M     M
set_aipp_spr_8                 scalar                         M     M     M
set_aipp_spr_9                 scalar                         M     M     M
set_atomic_add                 scalar                         I     I     I
set_atomic_bf16                scalar                         I     I     I
set_atomic_f16                 scalar                         I     I     I
set_atomic_f32                 scalar                         I     I     I
set_atomic_max                 scalar                         I     I     I
set_atomic_min                 scalar                         I     I     I
set_atomic_none                scalar                         I     I     I
set_atomic_s16                 scalar                         I     I     I
set_atomic_s32                 scalar                         I     I     I
set_atomic_s8                  scalar                         I     I     I
set_channel_para               dav3510/cube                   -     -     I
set_cmpmask                    cmpsel                         I     I     I
set_ctrl                       scalar                         I     I     I
set_data_exp_0                 scalar                         M     M     M
set_data_exp_1                 scalar                         M     M     M
set_data_exp_2                 scalar                         M     M     M
set_data_exp_3                 scalar                         M     M     M
set_deqscale                   convert                        P     P     P
set_ffts_base_addr             scalar                         M     M     M
set_flag                       sync                           I     I     I
set_fmatrix                    cube                           I     I     I
set_fmatrix_b                  cube                           I     I     I
set_fpc                        cube                           I     I     I
set_intra_block                scalar                         -     -     M
set_l1_3d_size                 scalar                         I     I     I
set_l3d_rpt                    dav3510/cube                   M     M     I
set_loop0_stride_nddma         dav3510/nddma                  -     -     I
set_loop1_stride_nddma         dav3510/nddma                  -     -     I
set_loop1_stride_outtoub       dav3510/dma                    -     -     I
set_loop1_stride_ubtoout       dav3510/dma                    -     -     I
set_loop2_stride_nddma         dav3510/nddma                  -     -     I
set_loop2_stride_outtoub       dav3510/dma                    -     -     I
set_loop2_stride_ubtoout       dav3510/dma                    -     -     I
set_loop3_para                 dav3510/cube                   -     -     I
set_loop3_stride_nddma         dav3510/nddma                  -     -     I
set_loop4_stride_nddma         dav3510/nddma                  -     -     I
set_loop_size_outtoub          dav3510/dma                    -     -     I
set_loop_size_ubtoout          dav3510/dma                    -     -     I
set_mask_count                 scalar                         I     I     I
set_mask_norm                  scalar                         I     I     I
set_mov_pad_val                scalar                         I     I     I
set_mte2_nz_para               dav3510/cube                   -     -     I
set_mte2_src_para              dma                            -     -     M
set_nd_para                    cube                           I     I     I
set_pad_cnt_nddma              dav3510/nddma                  -     -     I
set_pad_val_nddma              dav3510/nddma                  -     -     I
set_padding                    scalar                         I     I     I
set_pcie_rd_ctrl               dav3510/nddma                  -     -     I
set_quant_pre                  cube                           I     I     I
set_st_atomic_cfg              dav3510/dma                    M     M     I
set_ub_addr_upper_bound        dav3510/intrinsics             -     -     I
set_va_reg_sb                  rearrange                      I     I     I
set_vector_mask                scalar                         I     I     I
sff0                           scalar                         I     I     I
sff1                           scalar                         I     I     I
sflbits                        scalar                         M     M     M
signbitf                       dav3510/simt_builtins          -     -     I
sprclr                         dav3510/vreg                   -     -     F
st_dev                         dma                            I     I     I
trap                           sync                           I     I     I
v4dtrans                       vector                         -     M     -
vabs                           dav3510/valu,vector            I     I     F
vabsdif                        dav3510/valu                   -     -     I
vadd                           dav3510/valu,vector            I     I     F
vaddc                          dav3510/valu                   -     -     I
vaddcs                         dav3510/valu                   -     -     I
vadddeqrelu                    vector                         -     M     -
vaddrelu                       vector                         I     P     I
vadds                          dav3510/valu,vector            I     I     F
vag_b16                        vector                         -     -     M
vag_b32                        vector                         -     -     M
vag_b8                         vector                         -     -     M
vand                           dav3510/valu,vector            I     I     F
vaxpy                          vector,dav3510/valu            I     I     P
vbitsort                       sort                           I     I     I
vbr                            dav3510/valu                   -     -     F
vbrcb                          rearrange                      I     I     I
vcadd                          cmpsel,dav3510/vreduce         I     I     F
vcbd_s322s16                   convert                        -     M     -
vcgadd                         cmpsel,dav3510/vreduce         I     I     F
vcgmax                         cmpsel,dav3510/vreduce         I     I     I
vcgmin                         cmpsel,dav3510/vreduce         I     I     I
vci                            dav3510/vreduce                -     -     F
vcmax                          cmpsel,dav3510/vreduce         I     P     F
vcmin                          cmpsel,dav3510/vreduce         I     P     F
vcmp_eq                        cmpsel,dav3510/valu            I     I     F
vcmp_ge                        cmpsel,dav3510/valu            I     I     F
vcmp_gt                        cmpsel,dav3510/valu            I     I     F
vcmp_le                        cmpsel,dav3510/valu            I     I     F
vcmp_lt                        cmpsel,dav3510/valu            I     I     F
vcmp_ne                        cmpsel,dav3510/valu            I     I     F
vcmps_eq                       dav3510/valu                   -     -     F
vcmps_ge                       dav3510/valu                   -     -     F
vcmps_gt                       dav3510/valu                   -     -     F
vcmps_le                       dav3510/valu                   -     -     F
vcmps_lt                       dav3510/valu                   -     -     F
vcmps_ne                       dav3510/valu                   -     -     F
vcmpv_eq                       cmpsel                         I     I     I
vcmpv_ge                       cmpsel                         I     I     I
vcmpv_gt                       cmpsel                         I     I     I
vcmpv_le                       cmpsel                         I     I     I
vcmpv_lt                       cmpsel                         I     I     I
vcmpv_ne                       cmpsel                         I     I     I
vcmpvs_eq                      cmpsel                         I     I     I
vcmpvs_ge                      cmpsel                         I     I     I
vcmpvs_gt                      cmpsel                         I     I     I
vcmpvs_le                      cmpsel                         I     I     I
vcmpvs_lt                      cmpsel                         I     I     I
vcmpvs_ne                      cmpsel                         I     I     I
vconv_bf162f32                 convert                        I     I     I
vconv_bf162s32a                convert                        I     I     I
vconv_bf162s32c                convert                        I     I     I
vconv_bf162s32f                convert                        I     I     I
vconv_bf162s32r                convert                        I     I     I
vconv_bf162s32z                convert                        I     I     I
vconv_deq                      convert                        I     I     I
vconv_f162f32                  convert                        I     I     I
vconv_f162s16a                 convert                        I     I     I
vconv_f162s16c                 convert                        I     I     I
vconv_f162s16f                 convert                        I     I     I
vconv_f162s16r                 convert                        I     P     I
vconv_f162s16z                 convert                        I     I     I
vconv_f162s32a                 convert                        I     I     I
vconv_f162s32c                 convert                        I     I     I
vconv_f162s32f                 convert                        I     I     I
vconv_f162s32r                 convert                        I     I     I
vconv_f162s32z                 convert                        I     I     I
vconv_f162s4                   convert                        I     P     I
vconv_f162s4a                  convert                        I     I     I
vconv_f162s4c                  convert                        I     I     I
vconv_f162s4f                  convert                        I     I     I
vconv_f162s4r                  convert                        I     I     I
vconv_f162s4z                  convert                        I     I     I
vconv_f162s8                   convert                        I     I     I
vconv_f162s8a                  convert                        I     I     I
vconv_f162s8c                  convert                        I     I     I
vconv_f162s8f                  convert                        I     I     I
vconv_f162s8r                  convert                        I     I     I
vconv_f162s8z                  convert                        I     I     I
vconv_f162u8                   convert                        I     I     I
vconv_f162u8a                  convert                        I     I     I
vconv_f162u8c                  convert                        I     I     I
vconv_f162u8f                  convert                        I     I     I
vconv_f162u8r                  convert                        I     I     I
vconv_f162u8z                  convert                        I     I     I
vconv_f322bf16a                convert                        I     I     I
vconv_f322bf16c                convert                        I     I     I
vconv_f322bf16f                convert                        I     I     I
vconv_f322bf16r                convert                        I     I     I
vconv_f322bf16z                convert                        I     I     I
vconv_f322f16                  convert                        I     I     I
vconv_f322f16a                 convert                        I     I     I
vconv_f322f16c                 convert                        I     I     I
vconv_f322f16f                 convert                        I     I     I
vconv_f322f16o                 convert                        I     I     I
vconv_f322f16r                 convert                        I     I     I
vconv_f322f16z                 convert                        I     I     I
vconv_f322f32a                 convert                        I     I     I
vconv_f322f32c                 convert                        I     I     I
vconv_f322f32f                 convert                        I     I     I
vconv_f322f32r                 convert                        I     I     I
vconv_f322f32z                 convert                        I     I     I
vconv_f322s16a                 convert                        I     I     I
vconv_f322s16c                 convert                        I     I     I
vconv_f322s16f                 convert                        I     I     I
vconv_f322s16r                 convert                        I     I     I
vconv_f322s16z                 convert                        I     I     I
vconv_f322s32a                 convert                        I     I     I
vconv_f322s32c                 convert                        I     I     I
vconv_f322s32f                 convert                        I     I     I
vconv_f322s32r                 convert                        I     I     I
vconv_f322s32z                 convert                        I     I     I
vconv_f322s64a                 convert                        I     I     I
vconv_f322s64c                 convert                        I     I     I
vconv_f322s64f                 convert                        I     I     I
vconv_f322s64r                 convert                        I     I     I
vconv_f322s64z                 convert                        I     I     I
vconv_s162f16                  convert                        I     P     I
vconv_s162f16a                 convert                        I     I     I
vconv_s162f16c                 convert                        I     I     I
vconv_s162f16f                 convert                        I     I     I
vconv_s162f16r                 convert                        I     I     I
vconv_s162f16z                 convert                        I     I     I
vconv_s162f32                  convert                        I     I     I
vconv_s322f32                  convert                        I     I     I
vconv_s322f32a                 convert                        I     I     I
vconv_s322f32c                 convert                        I     I     I
vconv_s322f32f                 convert                        I     I     I
vconv_s322f32r                 convert                        I     I     I
vconv_s322f32z                 convert                        I     I     I
vconv_s322s16                  convert                        I     P     I
vconv_s322s64                  convert                        I     I     I
vconv_s42f16                   convert                        I     I     I
vconv_s642f32a                 convert                        I     I     I
vconv_s642f32c                 convert                        I     I     I
vconv_s642f32f                 convert                        I     I     I
vconv_s642f32r                 convert                        I     I     I
vconv_s642f32z                 convert                        I     I     I
vconv_s642s32                  convert                        I     I     I
vconv_s82f16                   convert                        I     I     I
vconv_u82f16                   convert                        I     I     I
vcopy                          vector                         I     I     I
vcpadd                         cmpsel,dav3510/vconv           I     I     F
vcvt                           dav3510/vconv                  -     -     F
vcvt_f162s4                    convert                        -     -     M
vcvt_s162s4                    convert                        -     -     M
vcvt_s42bf16                   convert                        -     -     M
vcvt_s42f16                    convert                        -     -     M
vcvt_s42s16                    convert                        -     -     M
vdintlv                        dav3510/valu                   -     -     F
vdiv                           dav3510/valu,vector            I     I     F
vdup                           dav3510/valu,dav3510/vreduce   -     -     F
vector_dup                     vector                         I     I     I
vexp                           dav3510/valu,vector            I     I     F
vexpdif                        dav3510/valu                   -     -     I
vgather                        rearrange                      P     I     P
vgather2                       dav3510/vblock                 -     -     F
vgatherb                       rearrange,dav3510/vblock       I     I     I
vintlv                         dav3510/valu                   -     -     F
vld                            dav3510/vreg                   -     -     F
vld_va_reg                     vector                         M     M     M
vlda                           vector                         -     -     M
vldas                          dav3510/vreg                   -     -     F
vlds                           dav3510/vreg                   -     -     F
vldu                           vector                         -     -     M
vldus                          dav3510/vreg                   -     -     F
vln                            dav3510/valu,vector            I     I     F
vlrelu                         dav3510/valu,vector            I     P     F
vmadd                          dav3510/valu,vector            P     P     P
vmax                           dav3510/valu,vector            I     I     F
vmaxs                          dav3510/valu,vector            I     I     F
vmin                           dav3510/valu,vector            I     I     F
vmins                          dav3510/valu,vector            I     I     F
vmla                           vector                         I     I     I
vmov                           dav3510/valu                   -     -     F
vmrgsort4                      sort                           I     I     I
vmul                           dav3510/valu,vector            I     I     F
vmula                          dav3510/valu                   -     -     F
vmulconv_f162s8                convert                        M     M     M
vmulconv_f162u8                convert                        M     M     M
vmull                          dav3510/valu                   -     -     I
vmuls                          dav3510/valu,vector            I     I     F
vneg                           dav3510/valu                   -     -     F
vnot                           dav3510/valu,vector            I     I     F
vor                            dav3510/valu,vector            I     I     F
vpack                          dav3510/vconv                  -     -     I
vpadding                       vector                         -     M     -
vrec                           vector                         I     I     P
vreduce                        vector                         -     M     -
vreducev2                      rearrange                      I     I     I
vrelu                          dav3510/valu,vector            I     I     F
vrsqrt                         vector                         I     I     P
vscatter                       dav3510/vblock                 -     M     F
vsel                           cmpsel,dav3510/valu            I     P     F
vselr                          dav3510/valu                   -     -     F
vshl                           dav3510/valu,vector            I     I     F
vshls                          dav3510/valu                   -     -     F
vshr                           dav3510/valu,vector            I     I     F
vshrs                          dav3510/valu                   -     -     F
vsldb                          dav3510/vblock                 -     -     I
vsqrt                          dav3510/valu,vector            I     I     F
vsqz                           dav3510/vreg                   -     -     F
vsstb                          dav3510/vblock                 -     -     I
vst                            dav3510/vreg                   -     -     F
vsta                           vector                         -     -     M
vstar                          dav3510/vreg                   -     -     F
vstas                          dav3510/vreg                   -     -     F
vsts                           dav3510/vreg                   -     -     F
vstu                           vector                         -     -     M
vstur                          dav3510/vreg                   -     -     F
vstus                          dav3510/vreg                   -     -     F
vsub                           dav3510/valu,vector            I     I     F
vsubc                          dav3510/valu                   -     -     I
vsubcs                         dav3510/valu                   -     -     I
vsubrelu                       vector                         I     I     I
vtranspose                     rearrange                      I     I     I
vtrc                           dav3510/vconv                  -     -     F
vunpack                        dav3510/vconv                  -     -     I
vxor                           dav3510/valu                   -     -     F
wait_flag                      sync                           I     I     I
wait_flag_dev                  dav3510/intrinsics,sync        I     I     I
wait_intra_block               scalar                         -     -     M
"""

# What part of a partial row is implemented (F rows: the forms their family headers define).
NOTES = {
    **dict.fromkeys(('copy_matrix_cc_to_cbuf', 'get_imm', 'vaddrelu', 'vcmax', 'vcmin', 'vconv_f162s16r', 'vconv_s162f16', 'vconv_s322s16', 'vsel'), 'dav_m200: its own arity, declared only'),
    **dict.fromkeys(('vlrelu',), "dav_m200: its own arity, declared only; dav_3510: the register form (Reg::LeakyRelu) and the level-0 form"),
    **dict.fromkeys(('img2colv2_cbuf_to_ca_s4', 'load_cbuf_to_ca_s4', 'load_cbuf_to_cb_s4', 'load_cbuf_to_cb_transpose_s4'), "the form the library's LoadData uses; the config-word and hwWaitCtrl forms are declared only"),
    **dict.fromkeys(('mad_s4',), "the form the library's Mmad uses; the 13-argument form is declared only"),
    **dict.fromkeys(('vaxpy', 'vrec', 'vrsqrt'), 'dav_3510: the level-0 (dav_c220) form only'),
    **dict.fromkeys(('vconv_f162s4',), "the 7-argument form; dav_m200's with repeatStrideMode / strideSizeMode is declared only"),
    **dict.fromkeys(('vmadd',), "the repeat form the library's FusedMulAdd uses and dav_3510's register form (MulDstAdd, fused: one rounding); the config-word form is declared only"),
    **dict.fromkeys(('vgather',), 'the five-operand form (dav_c220); the config-word form (dst, offsets, config) on dav_m200 only'),
}


@dataclass(frozen=True)
class Intrinsic:
    name: str
    families: tuple[str, ...]
    cells: dict            # arch -> status letter
    note: str = ""

    def on(self, arch: int) -> str:
        return self.cells[arch]


def _parse(text: str) -> tuple[Intrinsic, ...]:
    rows = []
    for n, line in enumerate(text.strip().splitlines(), 1):
        parts = line.split()
        if len(parts) != 2 + len(ARCHES) or any(c not in STATUS for c in parts[2:]):
            raise ValueError(f"intrinsics.py: table line {n} is not 'name family {' '.join(map(str, ARCHES))}' "
                             f"with cells in {''.join(STATUS)}: {line!r}")
        name, family, *cells = parts
        rows.append(Intrinsic(name, tuple(family.split(",")), dict(zip(ARCHES, cells)), NOTES.get(name, "")))
    names = [r.name for r in rows]
    if len(set(names)) != len(names):
        raise ValueError(f"intrinsics.py: listed twice: {sorted({x for x in names if names.count(x) > 1})}")
    return tuple(rows)


ROWS = _parse(_TABLE)


def declared_names() -> frozenset[str]:
    """Every name some arch declares only (in some or all forms): an undefined symbol of one is an intrinsic
    the model lacks."""
    return frozenset(r.name for r in ROWS if DECLARED & set(r.cells.values()))


def totals(arch: int) -> dict[str, int]:
    """Rows per status on one arch (partial counts P and F)."""
    out = {"implemented": 0, "partial": 0, "named-missing": 0}
    for r in ROWS:
        status = STATUS[r.on(arch)]
        if status in out:
            out[status] += 1
    return out


# ---- generated C++ ----------------------------------------------------------------------------------------

_PREAMBLE = """\
// Generated by ascgen/runtime/backends/devkit/intrinsics.py from its table; do not edit (write_all() rewrites it;
// tests/devkit/test_intrinsic_table.py fails on any difference).
//
// Intrinsics the library can call that this backend does not implement, in all or some of their forms.
// Each is declared, never defined: a kernel whose instantiated library code calls one fails to link, and the
// build reports the intrinsic and the library function that calls it (missing_report in
// ascgen/runtime/backends/devkit/toolchain.py). Implementing one means defining it under ascgen_devkit/ and changing its row.
#pragma once

namespace ascgen_devkit {
// Stands in for any return type; its conversion is declared only, so it also never links.
struct Missing {
    template <class T> operator T() const;
};
// Library code does arithmetic on some results (get_pc() & mask): declared only, like the rest.
#define ASCGEN_DEVKIT_MISSING_OP(op) \\
    template <class T> Missing operator op(Missing, T); \\
    template <class T> Missing operator op(T, Missing);
ASCGEN_DEVKIT_MISSING_OP(&) ASCGEN_DEVKIT_MISSING_OP(|) ASCGEN_DEVKIT_MISSING_OP(>>) ASCGEN_DEVKIT_MISSING_OP(<<)
ASCGEN_DEVKIT_MISSING_OP(+) ASCGEN_DEVKIT_MISSING_OP(-) ASCGEN_DEVKIT_MISSING_OP(*) ASCGEN_DEVKIT_MISSING_OP(/)
ASCGEN_DEVKIT_MISSING_OP(<) ASCGEN_DEVKIT_MISSING_OP(>) ASCGEN_DEVKIT_MISSING_OP(<=) ASCGEN_DEVKIT_MISSING_OP(>=)
ASCGEN_DEVKIT_MISSING_OP(==) ASCGEN_DEVKIT_MISSING_OP(!=)
#undef ASCGEN_DEVKIT_MISSING_OP
}  // namespace ascgen_devkit

#define ASCGEN_DEVKIT_MISSING(name) template <class... A> ::ascgen_devkit::Missing name(A...);
"""


def _condition(arches: frozenset) -> str | None:
    """The #if of a set of arches (None: every arch). 2201 stands for every arch but the others."""
    if arches == frozenset(ARCHES):
        return None
    if 2201 in arches:
        rest = " || ".join(f"__NPU_ARCH__ == {a}" for a in ARCHES if a not in arches)
        return f"#if !(defined(__NPU_ARCH__) && ({rest}))"
    return "#if defined(__NPU_ARCH__) && (" + " || ".join(f"__NPU_ARCH__ == {a}" for a in sorted(arches)) + ")"


def missing_header() -> str:
    groups: dict[frozenset, list[str]] = {}
    for r in ROWS:
        arches = frozenset(a for a in ARCHES if r.on(a) in "PM")
        if arches:
            groups.setdefault(arches, []).append(r.name)
    lines = [_PREAMBLE]
    for arches in sorted(groups, key=lambda s: (-len(s), sorted(s))):
        cond = _condition(arches)
        lines.append("// " + ", ".join(ARCH_NAMES[a] for a in ARCHES if a in arches))
        if cond:
            lines.append(cond)
        lines += [f"ASCGEN_DEVKIT_MISSING({n})" for n in groups[arches]]
        if cond:
            lines.append("#endif")
        lines.append("")
    return "\n".join(lines)


def other_forms_header() -> str:
    names = [r.name for r in ROWS if r.on(3510) == "F"]
    return "\n".join([
        "// Generated by ascgen/runtime/backends/devkit/intrinsics.py from its table; do not edit (write_all() rewrites it).",
        "//",
        "// The other forms (arities, operand kinds) of the dav_3510 intrinsics the model implements in some forms:",
        "// declared only, as a C variadic so that any implemented form wins overload resolution; the build reports",
        "// the name. Included by intrinsics.h after the model's headers.",
        "#pragma once",
        '#include "../missing.h"',
        "",
        *(f"ascgen_devkit::Missing {n}(...);" for n in names), ""])


# ---- generated docs ---------------------------------------------------------------------------------------

def docs_page(coverage: dict | None = None) -> str:
    """docs/intrinsics.md; `coverage` maps an intrinsic to the tests that exercise it (and "_about" to how
    that was measured: benchmarks/intrinsic_coverage.py)."""
    coverage = coverage or {}
    usable = [r for r in ROWS if set(r.cells.values()) & set("IPF")]
    uncovered = [r.name for r in usable if not coverage.get(r.name)]
    head = "| intrinsic | family | " + " | ".join(f"{ARCH_NAMES[a]} ({a})" for a in ARCHES) + " | known-answer test | note |"
    lines = [
        "# The devkit backend's intrinsics, per architecture",
        "",
        "Generated by `ascgen/runtime/backends/devkit/intrinsics.py` from its table (do not edit; "
        "`tests/devkit/test_intrinsic_table.py` fails on any difference). Every name the CPU model defines or "
        "declares for the library's CPU-debug code: the CCE intrinsics and the library's CPU hooks. "
        "*implemented*: defined in the family headers under `runtime/devkit/include/ascgen_devkit/`; *partial*: "
        "some forms defined, the others declared only; *named-missing*: declared only, so a kernel that reaches "
        "it fails to build with a `CompileError` naming it and the library function that calls it; *-*: not "
        "called by the library on that architecture. A partial row without a note has the register forms of "
        "its dav_3510 family headers; its other arities and operand kinds are declared `name(...)` in "
        "`dav3510/others.h`.",
        "",
        "## Totals",
        "",
        "| architecture | implemented | partial | named-missing |",
        "|---|---|---|---|",
        *(f"| {ARCH_NAMES[a]} ({a}) | " + " | ".join(str(v) for v in totals(a).values()) + " |" for a in ARCHES),
        "",
        "The named-missing and partial names per architecture are exactly what a build for that architecture "
        "reports when a kernel reaches each of them (`tests/devkit/test_intrinsic_table.py`).",
        "",
        "## Known-answer coverage",
        "",
        coverage.get("_about", "No coverage mapping recorded."),
        "",
        f"{len(usable) - len(uncovered)} of the {len(usable)} implemented or partial rows are instantiated by a "
        f"checked kernel of those tests; not by any of them, so without a known-answer test ({len(uncovered)}): " + ", ".join(f"`{n}`" for n in uncovered) + ".",
        "",
        "## The table",
        "",
        head,
        "|" + "---|" * (head.count("|") - 1),
    ]
    for r in ROWS:
        cells = " | ".join(STATUS[r.on(a)] for a in ARCHES)
        test = "<br>".join(f"`{t}`" for t in coverage.get(r.name, ()))
        lines.append(f"| `{r.name}` | {', '.join(r.families)} | {cells} | {test} | {r.note} |")
    return "\n".join(lines) + "\n"


# ---- files ------------------------------------------------------------------------------------------------

def model_dir() -> Path:
    return resources.runtime_dir() / "devkit" / "include" / "ascgen_devkit"


def docs_path() -> Path:
    return resources.runtime_dir().parent / "docs" / "intrinsics.md"


def generated(coverage: dict | None = None) -> dict[Path, str]:
    """Each generated file and the text the table (and the measured known-answer coverage) gives it today."""
    return {model_dir() / "missing.h": missing_header(), model_dir() / "dav3510" / "others.h": other_forms_header(),
            docs_path(): docs_page(coverage)}


def write_all(coverage: dict | None = None) -> list[Path]:
    out = []
    for path, text in generated(coverage).items():
        path.write_text(text)
        out.append(path)
    return out
