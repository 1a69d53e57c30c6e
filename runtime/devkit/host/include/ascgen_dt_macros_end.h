// ascgen devkit backend: the end of the library's kernel-side DT_* data-type macros.
//
// In the CPU-debug configuration (none of __NPU_HOST__, __NPU_DEVICE__, __ASCC_HOST__, __ASCC_DEVICE__
// defined) the library's kernel_type.h defines DT_FLOAT, DT_UNDEFINED... as macros; the real toolchain
// compiles host and device code apart and makes them AscendC:: enumerators, so a program's own code never
// meets them. In one translation unit they would expand inside ge::DataType and matmul_tiling::DataType
// (the tiling API) and inside a program's own enums (the examples' data_utils.h declares
// `DT_UNDEFINED = -1`). No dav_c220 library code uses them, so they end right after the library's headers:
// the devkit tikicpulib.h (part of every translation unit's prelude) and graph/types.h include this.
// A later use is a compile error naming the macro, never a wrong value. No include guard: undefining is
// idempotent, and each includer may come after another kernel_type.h inclusion.
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
