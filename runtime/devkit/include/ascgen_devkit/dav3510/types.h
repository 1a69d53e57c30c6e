// dav_3510 (ascend950): the register file of the vector unit as the library's CPU-debug configuration
// names it. A vector register is VL = 256 bytes of lanes; a predicate register holds one bit per byte of
// VL (an element of N bytes is governed by the bit of its first byte); an alignment register buffers
// the tail of an unaligned load or store; an address register holds an element offset.
//
// Register objects live where the kernel declares them (RegTensor locals on the core's own stack), so
// every emulated core has its own registers. The mode arguments of the intrinsics are compile-time
// constants: the library passes std::integral_constant<Enum, value>, and the plain constants below
// (PAT_ALL, MODE_ZEROING...) have the same types, so one overload serves both spellings.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascgen_devkit {
namespace d3510 {
constexpr int VL = 256;   // bytes of one vector register
// One vector register holding lanes of T (T only tags the element type; storage is raw bytes).
template <class T, int ESIZE = sizeof(T)>
struct VReg {
    static constexpr bool is_vreg = true;
    static constexpr int esize = ESIZE;
    static constexpr int lanes = VL / ESIZE;
    using elem = T;
    alignas(32) uint8_t b[VL];
    T* e() { return reinterpret_cast<T*>(b); }
    const T* e() const { return reinterpret_cast<const T*>(b); }
};
}  // namespace d3510
}  // namespace ascgen_devkit

// Element tags for formats that only move through registers here (no arithmetic in the model).
struct int4x2_t { uint8_t val; };
struct ascgen_f4e1m2x2_tag { uint8_t val; };
struct ascgen_f4e2m1x2_tag { uint8_t val; };

using vector_u8 = ascgen_devkit::d3510::VReg<uint8_t>;
using vector_s8 = ascgen_devkit::d3510::VReg<int8_t>;
using vector_u16 = ascgen_devkit::d3510::VReg<uint16_t>;
using vector_s16 = ascgen_devkit::d3510::VReg<int16_t>;
using vector_u32 = ascgen_devkit::d3510::VReg<uint32_t>;
using vector_s32 = ascgen_devkit::d3510::VReg<int32_t>;
using vector_u64 = ascgen_devkit::d3510::VReg<uint64_t>;
using vector_s64 = ascgen_devkit::d3510::VReg<int64_t>;
using vector_f16 = ascgen_devkit::d3510::VReg<half>;
using vector_bf16 = ascgen_devkit::d3510::VReg<bfloat16_t>;
using vector_f32 = ascgen_devkit::d3510::VReg<float>;
using vector_hif8 = ascgen_devkit::d3510::VReg<hifloat8_t>;
using vector_f8e4m3 = ascgen_devkit::d3510::VReg<fp8_e4m3fn_t>;
using vector_f8e5m2 = ascgen_devkit::d3510::VReg<fp8_e5m2_t>;
using vector_f8e8m0 = ascgen_devkit::d3510::VReg<fp8_e8m0_t>;
// The library's CPU-debug configuration declares AscendC::fp8_e8m0_t only off dav_3510 (uint8_t,
// kernel_utils_constants.h); on dav_3510 the name is the CPU model's to give, and kernels spell it
// qualified. It is the storage type above (the library's e8m0 casts work on its bits as uint8_t).
namespace AscendC {
using fp8_e8m0_t = ::fp8_e8m0_t;
}
using vector_f4e1m2x2 = ascgen_devkit::d3510::VReg<ascgen_f4e1m2x2_tag>;
using vector_f4e2m1x2 = ascgen_devkit::d3510::VReg<ascgen_f4e2m1x2_tag>;
using vector_s4x2 = ascgen_devkit::d3510::VReg<int4x2_t>;

// Predicate register: bit i governs byte lane i.
struct vector_bool {
    uint8_t bits[ascgen_devkit::d3510::VL / 8];
    bool get(int byte) const { return (bits[byte >> 3] >> (byte & 7)) & 1u; }
    void set(int byte, bool on) {
        if (on) bits[byte >> 3] |= uint8_t(1u << (byte & 7));
        else bits[byte >> 3] &= uint8_t(~(1u << (byte & 7)));
    }
};
// Alignment register of the unaligned loads/stores: the bytes staged so far.
struct vector_align {
    alignas(32) uint8_t buf[2 * ascgen_devkit::d3510::VL];
    uint32_t count;
    uintptr_t base;
};
// Address register (CreateAddrReg): an element offset.
struct vector_address {
    int64_t offset;
};

// Mode types of the register instructions. Values are the library's own enumerators cast to them
// (LoadDist, StoreDist, MaskPattern, MaskMergeMode, HighLowPart, PostLiteral, RegLayout, SatMode...).
enum class Dist : int {};
enum class DistVST : int {};
enum class Post : int {};
enum class Pat : int {};
enum class CpuMode : int {};
enum class HiloPart : int {};
enum class Part : int {};
enum class Part_T : int {};
enum class Pos : int {};
enum class Order : int {};
enum class RoundingSaturation : int { RS_DISABLE_VALUE = 0, RS_ENABLE_VALUE = 1 };
enum class StoreMode : int {};
enum class Spr : int {};
enum class Bin : int {};
enum class Mem_bar : int { VV_ALL, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST, SV_ALL, ST_VLD, LD_VST, ST_VST };
// Rounding of vcvt, named apart from the device compiler's enumerators (as the library's CPU mode expects).
enum class ROUND : int { CAST_RINT = 0, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD, CAST_HYBRID,
                         R = CAST_RINT, A = CAST_ROUND, F = CAST_FLOOR, C = CAST_CEIL, Z = CAST_TRUNC,
                         O = CAST_ODD, H = CAST_HYBRID };

#define ASCGEN_D3510_CONST(name, type, value) \
    constexpr std::integral_constant<type, static_cast<type>(value)> name{};
ASCGEN_D3510_CONST(PAT_ALL, Pat, 0)
ASCGEN_D3510_CONST(PAT_ALLF, Pat, 15)
ASCGEN_D3510_CONST(MODE_UNKNOWN, CpuMode, 0)
ASCGEN_D3510_CONST(MODE_MERGING, CpuMode, 1)
ASCGEN_D3510_CONST(MODE_ZEROING, CpuMode, 2)
ASCGEN_D3510_CONST(POST_UPDATE, Post, 1)
ASCGEN_D3510_CONST(LOWER, HiloPart, 0)
ASCGEN_D3510_CONST(HIGHER, HiloPart, 1)
ASCGEN_D3510_CONST(PART_EVEN, Part, 0)
ASCGEN_D3510_CONST(PART_ODD, Part, 1)
ASCGEN_D3510_CONST(PART_P0, Part_T, 0)
ASCGEN_D3510_CONST(PART_P1, Part_T, 1)
ASCGEN_D3510_CONST(PART_P2, Part_T, 2)
ASCGEN_D3510_CONST(PART_P3, Part_T, 3)
ASCGEN_D3510_CONST(ROUND_R, ROUND, ROUND::CAST_RINT)
ASCGEN_D3510_CONST(ROUND_A, ROUND, ROUND::CAST_ROUND)
ASCGEN_D3510_CONST(ROUND_F, ROUND, ROUND::CAST_FLOOR)
ASCGEN_D3510_CONST(ROUND_C, ROUND, ROUND::CAST_CEIL)
ASCGEN_D3510_CONST(ROUND_Z, ROUND, ROUND::CAST_TRUNC)
ASCGEN_D3510_CONST(ROUND_O, ROUND, ROUND::CAST_ODD)
ASCGEN_D3510_CONST(RS_DISABLE, RoundingSaturation, 0)
ASCGEN_D3510_CONST(RS_ENABLE, RoundingSaturation, 1)
ASCGEN_D3510_CONST(VV_ALL, Mem_bar, Mem_bar::VV_ALL)
ASCGEN_D3510_CONST(VST_VLD, Mem_bar, Mem_bar::VST_VLD)
ASCGEN_D3510_CONST(VLD_VST, Mem_bar, Mem_bar::VLD_VST)
ASCGEN_D3510_CONST(VST_VST, Mem_bar, Mem_bar::VST_VST)
ASCGEN_D3510_CONST(VS_ALL, Mem_bar, Mem_bar::VS_ALL)
ASCGEN_D3510_CONST(VST_LD, Mem_bar, Mem_bar::VST_LD)
ASCGEN_D3510_CONST(VLD_ST, Mem_bar, Mem_bar::VLD_ST)
ASCGEN_D3510_CONST(VST_ST, Mem_bar, Mem_bar::VST_ST)
ASCGEN_D3510_CONST(SV_ALL, Mem_bar, Mem_bar::SV_ALL)
ASCGEN_D3510_CONST(ST_VLD, Mem_bar, Mem_bar::ST_VLD)
ASCGEN_D3510_CONST(LD_VST, Mem_bar, Mem_bar::LD_VST)
ASCGEN_D3510_CONST(ST_VST, Mem_bar, Mem_bar::ST_VST)
#undef ASCGEN_D3510_CONST

// Fixpipe quantisation modes of the post stage (named by the library's dav_3510 Fixpipe path).
enum class QuantMode_post : int { NoConv = 0 };

// A vector-function region: on the CPU a plain block of the core's program.
#define __VEC_SCOPE__
