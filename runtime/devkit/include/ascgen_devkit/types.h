// Scalar types the library expects the CPU model to define: half and bfloat16_t (shared with the
// builtin backend, so both backends round identically), placeholders for the fp8/fp4 formats dav_c220
// has no arithmetic for, and the hardware enums.
#pragma once
#include <cstdint>
#include <type_traits>
#include "ascendc/half.h"
#include "fp8.h"
#include "hif8.h"
#include "ascgen_arch.h"   // runtime/common: generated from the product table

// The device compiler's own spellings, which operator kernels use: `float16_t` is half (the register API
// kernels write RegTensor<float16_t>), `float32_t` float (ops-nn pool_3d_common's arch35 kernels,
// experimental sigmoid_grad, unqualified; metadef's graph/types.h declares the same alias, which C++
// allows twice); `__forceinline__` an inline function. (`__bf16`: op_tiling.h.)
using float16_t = half;
using float32_t = float;
#ifndef __forceinline__
#define __forceinline__ inline
#endif

// 8-bit and 4-bit float formats: storage only on dav_c220 (no vector instruction computes in them).
// e4m3fn and e5m2 have element rules (fp8.h): a number converts to the nearest value, ties to even, not
// saturating (OCP's conversion, ml_dtypes' astype), as dav_3510's register casts in ROUND_R / RS_DISABLE.
#define ASCGEN_DEVKIT_STORAGE8(name) \
    struct name { uint8_t val; name() = default; template <class T> explicit name(T) : val(0) {} };
#define ASCGEN_DEVKIT_FP8(name, format)                                                                   \
    struct name {                                                                                         \
        uint8_t val;                                                                                      \
        name() = default;                                                                                 \
        template <class T, std::enable_if_t<std::is_constructible<float, T>::value, int> = 0>             \
        explicit name(T v)                                                                                \
            : val(::ascgen_devkit::fp8::encode(format, double(float(v)), ::ascgen::elem::IntRound::Rint, false)) {} \
    };
ASCGEN_DEVKIT_FP8(fp8_e4m3fn_t, ::ascgen_devkit::fp8::e4m3fn)
ASCGEN_DEVKIT_FP8(fp8_e5m2_t, ::ascgen_devkit::fp8::e5m2)
#undef ASCGEN_DEVKIT_FP8
// hifloat8 converts as en_dtypes' astype does (nearest, ties away, not saturating: hif8.h), the one rounding
// a public source defines for it; before, the constructor stored 0 whatever the value.
struct hifloat8_t {
    uint8_t val;
    hifloat8_t() = default;
    template <class T, std::enable_if_t<std::is_constructible<float, T>::value, int> = 0>
    explicit hifloat8_t(T v) : val(::ascgen_devkit::hif8::encode(double(float(v)), false)) {}
};
namespace ascgen_devkit {
namespace fp8 {
// The format of an element type, for the conversions that take one (vcvt, mad's operands).
template <class T> struct of { static constexpr bool ok = false; };
template <> struct of<fp8_e4m3fn_t> { static constexpr bool ok = true; static constexpr const Format& format = e4m3fn; };
template <> struct of<fp8_e5m2_t> { static constexpr bool ok = true; static constexpr const Format& format = e5m2; };
}  // namespace fp8
}  // namespace ascgen_devkit
ASCGEN_DEVKIT_STORAGE8(fp8_e8m0_t)
ASCGEN_DEVKIT_STORAGE8(fp4x2_e1m2_t)
ASCGEN_DEVKIT_STORAGE8(fp4x2_e2m1_t)
#undef ASCGEN_DEVKIT_STORAGE8

// Pipe numbers are the core's (ascgen::rt::pipe, from the product table) so they pass straight to it.
enum pipe_t : int { ASCGEN_ARCH_PIPE_ENUMERATORS };
enum event_t : int {
    EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7,
};

// Hardware enums the library casts to and passes through to intrinsics. Only names are needed by the
// library; values matter only where the intrinsic layer reads them (documented there).
enum addr_cal_mode_t : int { inc = 0, dec = 1 };
enum atomic_type_t : int { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum atomic_op_t : int { ATOMIC_SUM = 0, ATOMIC_MAX, ATOMIC_MIN };
enum mem_dsb_t : int { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
enum mem_t : int { L0A = 0, L0B, L0C, L1, UB, BIAS };
enum pad_t : int { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };
// QuantMode_t is unscoped, as the device compiler's: the library assigns it to uint8_t fields (Matmul's
// DataCopyOutParams::quantMode) and names its values unqualified (conv3d backprop's `quantMode = NoQuant`).
enum QuantMode_t : int {
    NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, DEQS16, VDEQS16, REQ8, VREQ8, REQ4, VREQ4,
    QF322B8_PRE, VQF322B8_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE, QF322F32_PRE,
    VQF322F32_PRE, QS322BF16_PRE, VQS322BF16_PRE, QF162B8_PRE, VQF162B8_PRE, QF162S16_PRE, VQF162S16_PRE,
    QF162S4_PRE, VQF162S4_PRE, QF322FP8_PRE, VQF322FP8_PRE, QF322HIF8_PRE, VQF322HIF8_PRE,
    QF322HIF8_PRE_HYBRID, VQF322HIF8_PRE_HYBRID,
};
enum cache_line_t : int { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum dcci_dst_t : int { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class Order_t : int { VALUE_INDEX = 0, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX };
// Vector address registers (vld_va_reg) and their halves.
enum ub_addr8_t : int { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
enum vld_va_half_t : int { L128 = 0, H128 };
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
// dav_m200's conversion modes and cube sizes, which its library code names.
enum ConvRelu_t { CRMODE_NONE, CRMODE_F32toF16_NONE, CRMODE_F32toF16_RELU, CRMODE_S32toF16_NONE, CRMODE_F16toF32_NONE,
                  CRMODE_NONE_RELU, CRMODE_F16_MUL, CRMODE_S32toF16_DEQSCALE_SPR, CRMODE_DEQSCALE_VDEQ8,
                  CRMODE_DEQSCALE_DEQ8, CRMODE_DEQSCALE_VDEQ16, CRMODE_DEQSCALE_DEQ16, CRMODE_DEQSCALE_VDEQS16,
                  CRMODE_DEQSCALE_DEQS16 };
enum csize_t { CSIZE0, CSIZE1 };
#endif
// Register-API types: the headers are included on every arch; dav_c220 has no register API, dav_3510's
// registers are modelled in dav3510/types.h.
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#include "dav3510/types.h"
#else
struct vector_bool {};
struct vector_align {};
struct vector_address {};
#endif
