// Enumerations and parameter structs of the Ascend C basic API (positions, events, modes, copy and
// repeat parameters). Plain data: behaviour lives in the op headers.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/defs.h"
#include "ascgen/int4.h"
#include "ascendc/ub.h"

namespace AscendC {

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Intra-core pipe-to-pipe events, named SRC_DST.
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX,
    MAX,
};
using TEventID = int8_t;

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,   // to nearest, ties to even
    CAST_FLOOR,  // toward -inf
    CAST_CEIL,   // toward +inf
    CAST_ROUND,  // to nearest, ties away from zero
    CAST_TRUNC,  // toward zero
    CAST_ODD,    // von Neumann: truncate, then set the last bit if inexact
    UNKNOWN = 0xFF,
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

// DataCopy with strides. blockLen and the gaps are in 32-byte units (the gap is the space *between*
// blocks, not the distance between their starts).
struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
};

// DataCopyPad: blockLen in bytes. The GM-side gap is in bytes, the UB-side gap in 32-byte units.
struct DataCopyExtParams {
    DataCopyExtParams() {}
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

// Padding of each UB block on GM->UB DataCopyPad: leftPadding / rightPadding elements set to paddingValue.
template <typename T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(bool isPadValue, uint8_t left, uint8_t right, T padValue)
        : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
};

// The older form of the padding parameters (paddingValue as raw bits).
struct DataCopyPadParams {
    DataCopyPadParams() {}
    DataCopyPadParams(bool isPadValue, uint8_t left, uint8_t right, uint64_t padValue)
        : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

// Which operand of a scalar op is the scalar when both are tensors (arch 3510 form): its element [0].
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
inline constexpr BinaryConfig DEFAULT_BINARY_CONFIG{};
struct BinaryDefaultType {};

// Level-0 (masked, repeated) vector ops: one repeat covers 8 blocks of 32 bytes; a block stride is in
// blocks, a repeat stride in blocks between the starts of consecutive repeats.
struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                       uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
          src0RepStride(src0Rep), src1RepStride(src1Rep) {}
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1;
    uint16_t srcBlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t srcRepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

// Brcb: each source element fills one 32-byte destination block.
struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint16_t dstBlkStride = 1;
};

// A 4-bit signed integer, two per byte (element 2i in the low nibble of byte i, 2i+1 in the high one).
// Tensors of it come from ReinterpretCast of a byte tensor; Cast can write it.
struct int4b_t {
    uint8_t storage;
};

constexpr uint32_t ONE_BLK_SIZE = 32;       // bytes in one data block
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t TOTAL_UB_SIZE = 256 * 1024;  // informational; capacity checks use the product's value

// The local memory a logical position lives in (cube positions included).
inline ::ascgen::lib::Mem position_mem(TPosition pos) {
    using ::ascgen::lib::Mem;
    switch (pos) {
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM: return Mem::L1;
        case TPosition::A2: return Mem::L0A;
        case TPosition::B2: return Mem::L0B;
        case TPosition::CO1: return Mem::L0C;
        default: return Mem::UB;
    }
}

}  // namespace AscendC

namespace ascgen {
namespace lib {
template <class T> struct is_int4 : std::false_type {};
template <> struct is_int4<AscendC::int4b_t> : std::true_type {};
// Elements of T in `bytes` bytes, and bytes of n elements (int4b_t packs two per byte).
template <class T>
constexpr uint64_t elems_in(uint64_t bytes) { return is_int4<T>::value ? bytes * 2 : bytes / sizeof(T); }
template <class T>
constexpr uint64_t bytes_of(uint64_t n) { return is_int4<T>::value ? (n + 1) / 2 : n * sizeof(T); }
// The packing rule is ascgen/int4.h, shared with the devkit backend.
using ::ascgen::int4::set_nibble;
}  // namespace lib
}  // namespace ascgen
