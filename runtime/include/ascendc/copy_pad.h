// DataCopyPad: GM<->UB copies of any byte length. Each UB block starts 32-byte aligned; on GM->UB the
// block is padded (leftPadding / rightPadding elements, then dummy bytes) up to the next 32 bytes.
//
// Padding contents follow the documented rules: isPad -> paddingValue; else SetPadValue's value when one
// was set; else, with no left/right padding, the block's first element; else left untouched (the device
// leaves unspecified values).
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/check.h"
#include "ascendc/copy.h"   // check_ub, span_bytes, gm_record, gm_store
#include "ascendc/kernel_state.h"
#include "ascendc/tensor.h"
#include "ascendc/ub.h"

namespace ascgen {
namespace lib {

template <class T>
inline void fill_elems(uint8_t* d, uint64_t bytes, const T& v) {
    for (uint64_t o = 0; o + sizeof(T) <= bytes; o += sizeof(T)) std::memcpy(d + o, &v, sizeof(T));
}

template <class T>
inline void check_pad_args(uint64_t blockLen, uint64_t left, uint64_t right, rt::Loc loc) {
    ASCGEN_ARG_CHECK(blockLen % sizeof(T) == 0, loc,
                     "DataCopyPad: blockLen %llu bytes is not a multiple of the element size %zu",
                     ull(blockLen), sizeof(T));
    ASCGEN_ARG_CHECK(left * sizeof(T) <= 32 && right * sizeof(T) <= 32, loc,
                     "DataCopyPad: leftPadding %llu / rightPadding %llu elements exceed 32 bytes", ull(left),
                     ull(right));
}

// GM -> UB, byte-exact blocks.
template <class T>
inline void copy_pad_in(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint64_t n,
                        uint64_t blockLen, uint64_t gmGap, uint64_t ubGapBlocks, bool isPad, uint64_t left,
                        uint64_t right, const T& padValue, rt::Loc loc) {
    enter(loc);
    if (n == 0 || blockLen == 0) return;   // documented: a NOP
    check_pad_args<T>(blockLen, left, right, loc);
    const uint64_t sz = sizeof(T);
    const uint64_t ublk = round_up(left * sz + blockLen + right * sz, kUbAlign);
    const uint64_t upitch = ublk + ubGapBlocks * 32, gpitch = blockLen + gmGap;
    check_ub(dst, span_bytes(ublk, n, upitch), "DataCopyPad GM->UB", "the destination", loc);
    src.check_range(0, span_bytes(blockLen, n, gpitch) / sz, "DataCopyPad GM->UB", loc);
    gm_record(src.data(), blockLen, n, gpitch, false, loc);
    const KernelState& ks = kernel_state();
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
    uint8_t* d0 = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < n; ++i) {
        uint8_t* d = d0 + i * upitch;
        const uint8_t* si = s + i * gpitch;
        std::memcpy(d + left * sz, si, blockLen);
        uint8_t* tail = d + left * sz + blockLen;
        uint64_t tail_bytes = ublk - left * sz - blockLen;
        T fill;
        if (isPad) {
            fill = padValue;
        } else if (ks.pad_set) {
            std::memcpy(&fill, ks.pad_bytes, sz);
        } else if (left == 0 && right == 0) {
            std::memcpy(&fill, si, sz);    // dummy = the block's first element
        } else {
            continue;                      // unspecified on the device: leave UB as it was
        }
        fill_elems(d, left * sz, fill);
        fill_elems(tail, tail_bytes, fill);
    }
    rt::cost(PIPE_MTE2, blockLen * n);
}

// UB -> GM: blockLen bytes of each 32-byte-aligned UB block.
template <class T>
inline void copy_pad_out(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t n,
                         uint64_t blockLen, uint64_t ubGapBlocks, uint64_t gmGap, rt::Loc loc) {
    enter(loc);
    if (n == 0 || blockLen == 0) return;
    check_pad_args<T>(blockLen, 0, 0, loc);
    const uint64_t ublk = round_up(blockLen, kUbAlign);
    const uint64_t upitch = ublk + ubGapBlocks * 32, gpitch = blockLen + gmGap;
    check_ub(src, span_bytes(blockLen, n, upitch), "DataCopyPad UB->GM", "the source", loc);
    if (n == 1) check_written(src.data(), blockLen, src.ub_off(), "DataCopyPad UB->GM", loc);
    dst.check_range(0, span_bytes(blockLen, n, gpitch) / sizeof(T), "DataCopyPad UB->GM", loc);
    gm_record(dst.data(), blockLen, n, gpitch, true, loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < n; ++i)
        gm_store(reinterpret_cast<T*>(d + i * gpitch), reinterpret_cast<const T*>(s + i * upitch), blockLen / sizeof(T),
                 loc);
    rt::cost(PIPE_MTE3, blockLen * n);
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::copy_pad_in(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad,
                               pad.leftPadding, pad.rightPadding, pad.paddingValue, loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                        ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::copy_pad_out(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}

// The older parameter structs: blockLen in bytes (uint16_t), paddingValue as raw bits.
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                        const DataCopyPadParams& pad, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    T v;
    std::memcpy(&v, &pad.paddingValue, sizeof(T) < 8 ? sizeof(T) : 8);
    ::ascgen::lib::copy_pad_in(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad,
                               pad.leftPadding, pad.rightPadding, v, loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                        ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::copy_pad_out(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}

// The value DataCopyPad fills padding with when isPad is false.
template <typename T>
inline void SetPadValue(T value, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    static_assert(sizeof(T) <= 8, "SetPadValue: element types up to 8 bytes");
    ::ascgen::lib::KernelState& ks = ::ascgen::lib::kernel_state();
    ks.pad_set = true;
    std::memcpy(ks.pad_bytes, &value, sizeof(T));
}

}  // namespace AscendC
