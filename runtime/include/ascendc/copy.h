// DataCopy and DataCopyPad between GM and UB (and UB to UB).
//
// One bounds/race record per copy goes to the core (rt::gm_access, or gm_access_strided for strided
// copies); the data moves with memcpy. Length rules of the device are enforced: a GM<->UB DataCopy must
// move a multiple of 32 bytes (the hardware silently rounds down), UB addresses must be 32-byte aligned.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/check.h"
#include "ascendc/kernel_state.h"
#include "ascendc/tensor.h"
#include "ascendc/ub.h"

namespace ascgen {
namespace lib {

// The UB side of a copy or vector op: allocated, 32-byte aligned, and `bytes` fit in the tensor's buffer.
template <class T>
inline void check_ub(const AscendC::LocalTensor<T>& t, uint64_t bytes, const char* op, const char* role,
                     rt::Loc loc) {
    ASCGEN_MEM_CHECK(t.data() != nullptr, loc, "%s: %s is a LocalTensor that was never allocated", op, role);
    ASCGEN_MEM_CHECK(reinterpret_cast<uintptr_t>(t.data()) % kUbAlign == 0, loc,
                     "%s: %s UB address %llu is not 32-byte aligned; hint: sub-tensor offsets must be a multiple "
                     "of %zu elements of this type",
                     op, role, ull(t.ub_off()), size_t(kUbAlign / sizeof(T)));
    ASCGEN_MEM_CHECK(bytes <= uint64_t(t.capacity()) * sizeof(T), loc,
                     "local tensor overflow: %s touches %llu bytes of %s, which has %llu bytes (%u elements) at UB "
                     "offset %llu",
                     op, ull(bytes), role, ull(uint64_t(t.capacity()) * sizeof(T)), t.capacity(), ull(t.ub_off()));
}

// A UB->GM copy whose whole source was never written in this launch (still poisoned, ub.h).
inline void check_written(const void* src, uint64_t bytes, uint64_t ub_off, const char* op, rt::Loc loc) {
    ASCGEN_MEM_CHECK(!never_written(src, bytes), loc,
                     "%s copies %llu bytes of local memory (UB offset %llu) that nothing wrote in this launch: "
                     "uninitialised data would reach GM; hint: fill the tensor (DataCopy in, Duplicate, a compute "
                     "op) before copying it out, or set ASCGEN_POISON_LOCAL=0 to turn this check off",
                     op, ull(bytes), ull(ub_off));
}

inline void check_copy_len(uint64_t bytes, uint64_t count, const char* dir, rt::Loc loc) {
    ASCGEN_MEM_CHECK(bytes % 32 == 0, loc,
                     "DataCopy %s of %llu elements = %llu bytes is not a multiple of 32 bytes; the device silently "
                     "copies only %llu bytes; hint: use DataCopyPad for a tail, or pad the length",
                     dir, ull(count), ull(bytes), ull(bytes / 32 * 32));
}

// Record a GM access of `blocks` blocks of `block_bytes`, block starts `pitch` bytes apart.
inline void gm_record(const void* addr, uint64_t block_bytes, uint64_t blocks, uint64_t pitch, bool write,
                      rt::Loc loc) {
    if (block_bytes == 0 || blocks == 0) return;
    if (blocks == 1 || pitch == block_bytes)
        rt::gm_access(addr, block_bytes * blocks, write, loc);
    else
        rt::gm_access_strided(addr, block_bytes, blocks, pitch, write, loc);
}

// Elements of T spanned by `blocks` blocks of `block_bytes` with starts `pitch` bytes apart.
inline uint64_t span_bytes(uint64_t block_bytes, uint64_t blocks, uint64_t pitch) {
    return blocks == 0 ? 0 : (blocks - 1) * pitch + block_bytes;
}

// A small code per element type, to check that an atomic mode matches the copied tensor's type.
template <class T>
constexpr uint8_t type_code() {
    return uint8_t(sizeof(T) * 4 + (std::is_integral<T>::value ? 0 : std::is_same<T, bfloat16_t>::value ? 2 : 1));
}

// Read-modify-write of one GM element, atomic across cores (compare-and-swap on its bits).
template <class T, class F>
inline void atomic_update(T* p, F f) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "atomic element size");
    using B = std::conditional_t<sizeof(T) == 1, uint8_t,
              std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    B* bp = reinterpret_cast<B*>(p);
    B old = __atomic_load_n(bp, __ATOMIC_RELAXED);
    for (;;) {
        T o, n;
        std::memcpy(&o, &old, sizeof(T));
        n = f(o);
        B nb;
        std::memcpy(&nb, &n, sizeof(T));
        if (__atomic_compare_exchange_n(bp, &old, nb, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
}

// Store n elements to GM: a memcpy, or an element-wise atomic add/max/min after SetAtomicAdd/Max/Min.
template <class T>
inline void gm_store(T* dst, const T* src, uint64_t n, rt::Loc loc) {
    const KernelState& ks = kernel_state();
    if (ks.atomic_op == 0) {
        std::memcpy(dst, src, n * sizeof(T));
        return;
    }
    ASCGEN_ARG_CHECK(ks.atomic_type == type_code<T>(), loc,
                     "DataCopy to GM with an atomic mode set for another element type (SetAtomic*<T> must name "
                     "the copied tensor's type, %zu-byte elements here)", sizeof(T));
    using C = compute_t<T>;
    for (uint64_t i = 0; i < n; ++i) {
        C v = C(src[i]);
        switch (ks.atomic_op) {
            case 1: atomic_update(dst + i, [v](T o) { return T(C(o) + v); }); break;
            case 2: atomic_update(dst + i, [v](T o) { return C(o) > v ? o : T(v); }); break;
            default: atomic_update(dst + i, [v](T o) { return C(o) < v ? o : T(v); }); break;
        }
    }
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

// ---- atomic mode of the following UB->GM copies ----
template <typename T>
inline void SetAtomicAdd(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().atomic_op = 1;
    ::ascgen::lib::kernel_state().atomic_type = ::ascgen::lib::type_code<T>();
}
template <typename T>
inline void SetAtomicMax(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().atomic_op = 2;
    ::ascgen::lib::kernel_state().atomic_type = ::ascgen::lib::type_code<T>();
}
template <typename T>
inline void SetAtomicMin(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().atomic_op = 3;
    ::ascgen::lib::kernel_state().atomic_type = ::ascgen::lib::type_code<T>();
}
inline void SetAtomicNone(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().atomic_op = 0;
}
inline void DisableDmaAtomic(::ascgen::rt::Loc loc = ASCGEN_HERE) { SetAtomicNone(loc); }

// ---- contiguous ----
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t bytes = uint64_t(count) * sizeof(T);
    L::check_copy_len(bytes, count, "GM->UB", loc);
    L::check_ub(dst, bytes, "DataCopy GM->UB", "the destination", loc);
    src.check_range(0, count, "DataCopy GM->UB", loc);
    L::gm_record(src.data(), bytes, 1, bytes, false, loc);
    std::memcpy(dst.data(), src.data(), bytes);
    ::ascgen::rt::cost(PIPE_MTE2, bytes);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t bytes = uint64_t(count) * sizeof(T);
    L::check_copy_len(bytes, count, "UB->GM", loc);
    L::check_ub(src, bytes, "DataCopy UB->GM", "the source", loc);
    dst.check_range(0, count, "DataCopy UB->GM", loc);
    L::check_written(src.data(), bytes, src.ub_off(), "DataCopy UB->GM", loc);
    L::gm_record(dst.data(), bytes, 1, bytes, true, loc);
    L::gm_store(dst.data(), src.data(), count, loc);
    ::ascgen::rt::cost(PIPE_MTE3, bytes);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t bytes = uint64_t(count) * sizeof(T);
    L::check_copy_len(bytes, count, "UB->UB", loc);
    L::check_ub(src, bytes, "DataCopy UB->UB", "the source", loc);
    L::check_ub(dst, bytes, "DataCopy UB->UB", "the destination", loc);
    std::memmove(dst.data(), src.data(), bytes);
    ::ascgen::rt::cost(PIPE_V, count);
}

// ---- strided: blockCount blocks of blockLen x 32 bytes, gaps in 32-byte units ----
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t blk = uint64_t(p.blockLen) * 32, n = p.blockCount;
    uint64_t spitch = blk + uint64_t(p.srcStride) * 32, dpitch = blk + uint64_t(p.dstStride) * 32;
    L::check_ub(dst, L::span_bytes(blk, n, dpitch), "DataCopy GM->UB (DataCopyParams)", "the destination", loc);
    src.check_range(0, L::span_bytes(blk, n, spitch) / sizeof(T), "DataCopy GM->UB (DataCopyParams)", loc);
    L::gm_record(src.data(), blk, n, spitch, false, loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < n; ++i) std::memcpy(d + i * dpitch, s + i * spitch, blk);
    ::ascgen::rt::cost(PIPE_MTE2, blk * n);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t blk = uint64_t(p.blockLen) * 32, n = p.blockCount;
    uint64_t spitch = blk + uint64_t(p.srcStride) * 32, dpitch = blk + uint64_t(p.dstStride) * 32;
    L::check_ub(src, L::span_bytes(blk, n, spitch), "DataCopy UB->GM (DataCopyParams)", "the source", loc);
    dst.check_range(0, L::span_bytes(blk, n, dpitch) / sizeof(T), "DataCopy UB->GM (DataCopyParams)", loc);
    L::gm_record(dst.data(), blk, n, dpitch, true, loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < n; ++i)
        L::gm_store(reinterpret_cast<T*>(d + i * dpitch), reinterpret_cast<const T*>(s + i * spitch), blk / sizeof(T), loc);
    ::ascgen::rt::cost(PIPE_MTE3, blk * n);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    uint64_t blk = uint64_t(p.blockLen) * 32, n = p.blockCount;
    uint64_t spitch = blk + uint64_t(p.srcStride) * 32, dpitch = blk + uint64_t(p.dstStride) * 32;
    L::check_ub(src, L::span_bytes(blk, n, spitch), "DataCopy UB->UB (DataCopyParams)", "the source", loc);
    L::check_ub(dst, L::span_bytes(blk, n, dpitch), "DataCopy UB->UB (DataCopyParams)", "the destination", loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.data());
    for (uint64_t i = 0; i < n; ++i) std::memmove(d + i * dpitch, s + i * spitch, blk);
    ::ascgen::rt::cost(PIPE_V, blk * n / sizeof(T));
}

}  // namespace AscendC

#include "ascendc/copy_pad.h"
