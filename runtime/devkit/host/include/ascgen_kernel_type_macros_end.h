// ascgen devkit backend: the end of the library's kernel-side DT_* data-type and FORMAT_* format macros.
//
// In the CPU-debug configuration (none of __NPU_HOST__, __NPU_DEVICE__, __ASCC_HOST__, __ASCC_DEVICE__
// defined) the library's kernel_type.h defines DT_FLOAT, DT_UNDEFINED... and FORMAT_NCHW, FORMAT_ND... as
// macros; the real toolchain compiles host and device code apart and makes them AscendC:: enumerators, so a
// program's own code never meets them. In one translation unit they would expand inside ge::DataType,
// ge::Format (metadef's graph/types.h: `FORMAT_NCHW = ::C_FORMAT_NCHW`, which an op_host tiling header
// brings into a kernel UT) and matmul_tiling::DataType (the tiling API), and inside a program's own enums
// (the examples' data_utils.h declares `DT_UNDEFINED = -1`; UTs name `ge::FORMAT_ND`). No dav_c220 library
// code uses them, so they end right after the library's headers: the devkit tikicpulib.h (part of every
// translation unit's prelude) and graph/types.h include this. A later use is a compile error naming the
// macro, never a wrong value. No include guard: undefining is idempotent, and each includer may come after
// another kernel_type.h inclusion. tests/devkit/test_kernel_type_macros.py checks this list against the tree.
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT8
#undef DT_INT32
#undef DT_UINT8
#undef DT_INT16
#undef DT_UINT16
#undef DT_UINT32
#undef DT_INT64
#undef DT_UINT64
#undef DT_DOUBLE
#undef DT_BOOL
#undef DT_STRING
#undef DT_DUAL_SUB_INT8
#undef DT_DUAL_SUB_UINT8
#undef DT_COMPLEX64
#undef DT_COMPLEX128
#undef DT_QINT8
#undef DT_QINT16
#undef DT_QINT32
#undef DT_QUINT8
#undef DT_QUINT16
#undef DT_RESOURCE
#undef DT_STRING_REF
#undef DT_DUAL
#undef DT_VARIANT
#undef DT_BF16
#undef DT_UNDEFINED
#undef DT_INT4
#undef DT_UINT1
#undef DT_INT2
#undef DT_UINT2
#undef DT_COMPLEX32
#undef DT_HIFLOAT8
#undef DT_FLOAT8_E5M2
#undef DT_FLOAT8_E4M3FN
#undef DT_FLOAT8_E8M0
#undef DT_FLOAT6_E3M2
#undef DT_FLOAT6_E2M3
#undef DT_FLOAT4_E2M1
#undef DT_FLOAT4_E1M2
#undef DT_MAX
#undef FORMAT_NCHW
#undef FORMAT_NHWC
#undef FORMAT_ND
#undef FORMAT_NC1HWC0
#undef FORMAT_FRACTAL_Z
#undef FORMAT_NC1C0HWPAD
#undef FORMAT_NHWC1C0
#undef FORMAT_FSR_NCHW
#undef FORMAT_FRACTAL_DECONV
#undef FORMAT_C1HWNC0
#undef FORMAT_FRACTAL_DECONV_TRANSPOSE
#undef FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS
#undef FORMAT_NC1HWC0_C04
#undef FORMAT_FRACTAL_Z_C04
#undef FORMAT_CHWN
#undef FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS
#undef FORMAT_HWCN
#undef FORMAT_NC1KHKWHWC0
#undef FORMAT_BN_WEIGHT
#undef FORMAT_FILTER_HWCK
#undef FORMAT_HASHTABLE_LOOKUP_LOOKUPS
#undef FORMAT_HASHTABLE_LOOKUP_KEYS
#undef FORMAT_HASHTABLE_LOOKUP_VALUE
#undef FORMAT_HASHTABLE_LOOKUP_OUTPUT
#undef FORMAT_HASHTABLE_LOOKUP_HITS
#undef FORMAT_C1HWNCoC0
#undef FORMAT_MD
#undef FORMAT_NDHWC
#undef FORMAT_FRACTAL_ZZ
#undef FORMAT_FRACTAL_NZ
#undef FORMAT_NCDHW
#undef FORMAT_DHWCN
#undef FORMAT_NDC1HWC0
#undef FORMAT_FRACTAL_Z_3D
#undef FORMAT_CN
#undef FORMAT_NC
#undef FORMAT_DHWNC
#undef FORMAT_FRACTAL_Z_3D_TRANSPOSE
#undef FORMAT_FRACTAL_ZN_LSTM
#undef FORMAT_FRACTAL_Z_G
#undef FORMAT_RESERVED
#undef FORMAT_ALL
#undef FORMAT_NULL
#undef FORMAT_ND_RNN_BIAS
#undef FORMAT_FRACTAL_ZN_RNN
#undef FORMAT_NYUV
#undef FORMAT_NYUV_A
#undef FORMAT_NCL
#undef FORMAT_MAX
