// Index creation and data rearrangement: CreateVecIndex, Interleave / DeInterleave, Gather (element byte
// offsets), Gatherb (32-byte block offsets), GatherMask (keep the elements whose pattern bit is 1, packed),
// and Transpose (16x16 of 2-byte elements; NCHW <-> NHWC).
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/compare.h"
#include "ascendc/scratch.h"
#include "ascendc/vec_engine.h"

namespace AscendC {

struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(uint8_t dstBlk, uint8_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
};

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(uint8_t src0Blk, uint16_t repeats, uint16_t src0Rep, uint8_t src1Rep)
        : src0BlockStride(src0Blk), repeatTimes(repeats), src0RepeatStride(src0Rep), src1RepeatStride(src1Rep) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE, TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213, TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N, TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM, TRANSPOSE_GRAD_ND_UB_GM, TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
    TransposeParamsExt() = default;
    TransposeParamsExt(uint16_t n, uint16_t c, uint16_t h, uint16_t w, TransposeType t)
        : nSize(n), cSize(c), hSize(h), wSize(w), transposeType(t) {}
    uint16_t nSize = 0, cSize = 0, hSize = 0, wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeats, uint16_t dstRep, uint16_t srcRep)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeats), dstRepStride(dstRep), srcRepStride(srcRep) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

// dst[i] = firstValue + i
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const ::ascgen::lib::same_t<T>& firstValue, uint32_t count,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::vec_operand(dst, count, "CreateVecIndex", "dst", loc);
    using C = L::compute_t<T>;
    C first = C(firstValue);
    for (uint32_t i = 0; i < count; ++i) dst.data()[i] = T(first + C(i));
    ::ascgen::rt::cost(PIPE_V, count);
}

// dst0 = a0 b0 a1 b1 ... over the first half of src0/src1, dst1 the same over the second half.
template <typename T>
inline void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                       const LocalTensor<T>& src1, int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    for (auto* t : {&dst0, &dst1, &src0, &src1}) L::vec_operand(*t, count, "Interleave", "operand", loc);
    ASCGEN_ARG_CHECK(count % 2 == 0, loc, "Interleave: count %d must be even", int(count));
    const int32_t half_n = count / 2;
    for (int32_t i = 0; i < half_n; ++i) {
        T a0 = src0.data()[i], b0 = src1.data()[i], a1 = src0.data()[half_n + i], b1 = src1.data()[half_n + i];
        dst0.data()[2 * i] = a0;
        dst0.data()[2 * i + 1] = b0;
        dst1.data()[2 * i] = a1;
        dst1.data()[2 * i + 1] = b1;
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(count) * 2);
}

// The inverse: even elements of src0 ++ src1 to dst0, odd elements to dst1.
template <typename T>
inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                         const LocalTensor<T>& src1, int32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    for (auto* t : {&dst0, &dst1, &src0, &src1}) L::vec_operand(*t, count, "DeInterleave", "operand", loc);
    ASCGEN_ARG_CHECK(count % 2 == 0, loc, "DeInterleave: count %d must be even", int(count));
    const int32_t half_n = count / 2;
    ::ascgen::lib::Scratch<T> e(static_cast<size_t>(count)), o(static_cast<size_t>(count));   // sources may alias dsts
    for (int32_t i = 0; i < count; ++i) {
        const T* s = i < half_n ? src0.data() + 2 * i : src1.data() + 2 * (i - half_n);
        e[size_t(i)] = s[0];
        o[size_t(i)] = s[1];
    }
    std::memcpy(dst0.data(), e.data(), size_t(count) * sizeof(T));
    std::memcpy(dst1.data(), o.data(), size_t(count) * sizeof(T));
    ::ascgen::rt::cost(PIPE_V, uint64_t(count) * 2);
}

// dst[i] = the element at byte offset srcBaseAddr + srcOffset[i] of src.
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   uint32_t srcBaseAddr, uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    L::vec_operand(dst, count, "Gather", "dst", loc);
    L::vec_operand(srcOffset, count, "Gather", "srcOffset", loc);
    const uint64_t limit = uint64_t(src.capacity()) * sizeof(T);
    const uint8_t* base = reinterpret_cast<const uint8_t*>(src.data());
    // Per repeat of 256 bytes, every source is read before any lane is written, as the device's vgather
    // does: a gather of a buffer into itself (a RoPE pair swap) never reads a lane it already overwrote.
    constexpr uint32_t per = 256 / sizeof(T);
    T lanes[per];
    for (uint32_t r0 = 0; r0 < count; r0 += per) {
        const uint32_t n = count - r0 < per ? count - r0 : per;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t i = r0 + k;
            uint64_t off = uint64_t(srcBaseAddr) + srcOffset.data()[i];
            ASCGEN_MEM_CHECK(off % sizeof(T) == 0 && off + sizeof(T) <= limit, loc,
                             "Gather: srcOffset[%u] = %llu bytes is %s src (%llu bytes)", i, L::ull(off),
                             off % sizeof(T) ? "not element-aligned in" : "outside", L::ull(limit));
            std::memcpy(&lanes[k], base + off, sizeof(T));
        }
        std::memcpy(dst.data() + r0, lanes, n * sizeof(T));
    }
    ::ascgen::rt::cost(PIPE_V, count);
}

// Per repeat 8 blocks: dst block j = the 32-byte block at byte offset offsets[8 r + j] of src.
template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
                    uint8_t repeatTime, const GatherRepeatParams& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    constexpr int epb = int(32 / sizeof(T));
    L::vec_operand(offsets, int64_t(repeatTime) * 8, "Gatherb", "offsets", loc);
    int64_t need = repeatTime ? (int64_t(repeatTime - 1) * p.dstRepStride + 7 * int64_t(p.dstBlkStride) + 1) * epb : 0;
    L::vec_operand(dst, need, "Gatherb", "dst", loc);
    const uint64_t limit = uint64_t(src.capacity()) * sizeof(T);
    uint8_t blocks[8 * 32];   // a repeat's sources, read before any block is written (see Gather)
    for (int r = 0; r < repeatTime; ++r) {
        for (int j = 0; j < 8; ++j) {
            uint64_t off = offsets.data()[r * 8 + j];
            ASCGEN_MEM_CHECK(off % 32 == 0 && off + 32 <= limit, loc,
                             "Gatherb: offset[%d] = %llu bytes is %s src (%llu bytes)", r * 8 + j, L::ull(off),
                             off % 32 ? "not 32-byte aligned in" : "outside", L::ull(limit));
            std::memcpy(blocks + j * 32, reinterpret_cast<const uint8_t*>(src.data()) + off, 32);
        }
        for (int j = 0; j < 8; ++j)
            std::memcpy(dst.data() + (int64_t(r) * p.dstRepStride + int64_t(j) * p.dstBlkStride) * epb, blocks + j * 32, 32);
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 8 * epb);
}

namespace detail {
// Built-in GatherMask patterns 1..7: bit i of the pattern byte repeated says whether element i is kept.
inline bool builtin_pattern(uint8_t pattern, int64_t i) {
    switch (pattern) {
        case 1: return i % 2 == 0;   // 0b0101...
        case 2: return i % 2 == 1;   // 0b1010...
        case 3: return i % 4 == 0;   // 0b0001 0001...
        case 4: return i % 4 == 1;
        case 5: return i % 4 == 2;
        case 6: return i % 4 == 3;
        default: return true;        // 7: every element
    }
}

// Normal mode: each repeat covers 256 bytes of src0; counter mode (reduceMode): `mask` elements per
// repeat (the dav-2201 rule). Kept elements are packed into dst; rsvdCnt counts them.
template <typename T, typename Keep>
inline void gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduceMode, uint32_t mask,
                        const GatherMaskParams& p, uint64_t& rsvdCnt, Keep keep, ::ascgen::rt::Loc loc) {
    namespace L = ::ascgen::lib;
    constexpr int epb = int(32 / sizeof(T));
    const int64_t per = reduceMode ? int64_t(mask) : int64_t(256 / sizeof(T));
    ASCGEN_ARG_CHECK(!reduceMode || mask >= 1, loc, "GatherMask: counter mode needs mask >= 1");
    const int repeats = p.repeatTimes;
    int64_t need = 0;
    if (repeats > 0 && per > 0) {
        int64_t j = per - 1;
        need = int64_t(repeats - 1) * p.src0RepeatStride * epb + (j / epb) * p.src0BlockStride * epb + j % epb + 1;
    }
    L::vec_operand(src0, need, "GatherMask", "src0", loc);
    L::Scratch<T> kept(static_cast<size_t>(int64_t(repeats) * per));
    size_t count = 0;
    for (int r = 0; r < repeats; ++r)
        for (int64_t j = 0; j < per; ++j)
            if (keep(r, j))
                kept[count++] = src0.data()[int64_t(r) * p.src0RepeatStride * epb + (j / epb) * p.src0BlockStride * epb +
                                            j % epb];
    L::vec_operand(dst, int64_t(count), "GatherMask", "dst", loc);
    if (count) std::memcpy(dst.data(), kept.data(), count * sizeof(T));
    rsvdCnt = count;
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeats) * uint64_t(per));
}
}  // namespace detail

// GatherMask with a built-in pattern (1..7).
template <typename T>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, uint8_t src1Pattern, bool reduceMode,
                       uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ASCGEN_ARG_CHECK(src1Pattern >= 1 && src1Pattern <= 7, loc, "GatherMask: built-in pattern %d outside 1..7",
                     int(src1Pattern));
    detail::gather_mask(dst, src0, reduceMode, mask, p, rsvdCnt,
                        [=](int, int64_t j) { return detail::builtin_pattern(src1Pattern, j); }, loc);
}

// GatherMask with a user pattern tensor: bit j of repeat r's pattern (src1RepeatStride blocks apart).
template <typename T, typename U>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       bool reduceMode, uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt,
                       ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    const int64_t per = reduceMode ? int64_t(mask) : int64_t(256 / sizeof(T));
    const int64_t bits = p.repeatTimes ? int64_t(p.repeatTimes - 1) * p.src1RepeatStride * 256 + per : 0;
    L::check_ub_bytes(src1Pattern, (bits + 7) / 8, "GatherMask", "src1Pattern", loc);
    const uint8_t* pat = reinterpret_cast<const uint8_t*>(src1Pattern.data());
    const int64_t rep_bits = int64_t(p.src1RepeatStride) * 256;
    detail::gather_mask(dst, src0, reduceMode, mask, p, rsvdCnt,
                        [=](int r, int64_t j) { return L::mask_bit(pat, r * rep_bits + j); }, loc);
}

// 16 x 16 transpose of 2-byte elements.
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(sizeof(T) == 2, "Transpose(dst, src): 16 x 16 of 2-byte elements");
    L::enter(loc);
    L::vec_operand(dst, 256, "Transpose", "dst", loc);
    L::vec_operand(src, 256, "Transpose", "src", loc);
    T tmp[256];
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = src.data()[i * 16 + j];
    std::memcpy(dst.data(), tmp, sizeof tmp);
    ::ascgen::rt::cost(PIPE_V, 256);
}

// The extended transpose: NCHW <-> NHWC (and the plain 16 x 16); other layouts stop with a fault.
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& p, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    (void)sharedTmpBuffer;
    if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
        if constexpr (sizeof(T) == 2) return Transpose(dst, src, loc);
    }
    const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    ASCGEN_ARG_CHECK(to_nhwc || p.transposeType == TransposeType::TRANSPOSE_NHWC2NCHW, loc,
                     "Transpose: TransposeType %d is not emulated (NCHW2NHWC, NHWC2NCHW and ND2ND_B16 are)",
                     int(p.transposeType));
    const int64_t n = p.nSize, c = p.cSize, hw = int64_t(p.hSize) * p.wSize, total = n * c * hw;
    L::vec_operand(dst, total, "Transpose", "dst", loc);
    L::vec_operand(src, total, "Transpose", "src", loc);
    ::ascgen::lib::Scratch<T> out(static_cast<size_t>(total));
    for (int64_t a = 0; a < n; ++a)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t s = 0; s < hw; ++s) {
                int64_t nchw = (a * c + ch) * hw + s, nhwc = (a * hw + s) * c + ch;
                if (to_nhwc) out[size_t(nhwc)] = src.data()[nchw];
                else out[size_t(nchw)] = src.data()[nhwc];
            }
    std::memcpy(dst.data(), out.data(), out.size() * sizeof(T));
    ::ascgen::rt::cost(PIPE_V, uint64_t(total));
}

// TransDataTo5HD for 2-byte elements: per repeat, 16 source blocks of 16 elements (addresses in srcList,
// advanced by srcRepStride blocks per repeat) form a 16 x 16 matrix whose transpose goes to the 16
// destination blocks. Addresses are LocalTensor::GetPhyAddr values and must lie in this core's UB.
template <typename T>
inline void TransDataTo5HD(const uint64_t dstList[16], const uint64_t srcList[16], const TransDataTo5HDParams& p,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(sizeof(T) == 2, "ascgen: TransDataTo5HD is emulated for 2-byte elements only");
    L::enter(loc);
    const uintptr_t lo = reinterpret_cast<uintptr_t>(L::ub_base()), hi = lo + ::ascgen::rt::ub_capacity();
    auto block = [&](uint64_t addr, int r, int stride, const char* which, int i) {
        uintptr_t a = uintptr_t(addr) + uintptr_t(r) * stride * 32;
        ASCGEN_MEM_CHECK(a >= lo && a + 32 <= hi && (a - lo) % 32 == 0, loc,
                         "TransDataTo5HD: %s[%d] block of repeat %d (UB offset %lld) is outside this core's UB or not "
                         "32-byte aligned; hint: pass LocalTensor::GetPhyAddr() values",
                         which, i, r, static_cast<long long>(a - lo));
        return reinterpret_cast<T*>(a);
    };
    for (int r = 0; r < p.repeatTimes; ++r) {
        T m[16][16];
        for (int i = 0; i < 16; ++i) std::memcpy(m[i], block(srcList[i], r, p.srcRepStride, "srcList", i), 32);
        for (int k = 0; k < 16; ++k) {
            T* d = block(dstList[k], r, p.dstRepStride, "dstList", k);
            for (int i = 0; i < 16; ++i) d[i] = m[i][k];
        }
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(p.repeatTimes) * 256);
}

}  // namespace AscendC
