// Per-core local memories: the Unified Buffer (sized by the product, rt::ub_capacity()) and, for the cube
// unit, L1, L0A, L0B and L0C. Each is a thread-local block (one thread per emulated core), allocated on
// first use and kept between launches. Allocation inside them is a bump pointer owned by TPipe (reset by
// its constructor, i.e. per kernel invocation) or by a LocalMemAllocator.
#pragma once
#include <cstdint>
#include <cstdlib>

#include "ascendc/check.h"

namespace ascgen {
namespace lib {

constexpr uint64_t kUbAlign = 32;   // UB addresses of vector ops and DataCopy must be 32-byte aligned

enum class Mem : int { UB = 0, L1, L0A, L0B, L0C, kCount };

inline const char* mem_name(Mem m) {
    static const char* const names[] = {"UB", "L1", "L0A", "L0B", "L0C"};
    return names[int(m)];
}

// Capacities (bytes): UB from the core (it depends on the product), the cube memories from the product
// table for the __NPU_ARCH__ compiled for (ascgen_arch.h; the library's TOTAL_L1_SIZE... constants).
inline uint64_t mem_capacity(Mem m) {
    switch (m) {
        case Mem::UB: return rt::ub_capacity();
        case Mem::L1: return arch::kThis.l1;
        case Mem::L0A: return arch::kThis.l0a;
        case Mem::L0B: return arch::kThis.l0b;
        default: return arch::kThis.l0c;
    }
}

struct MemStore {
    uint8_t* base = nullptr;
    uint64_t cap = 0;
    ~MemStore() { std::free(base); }
};

inline MemStore& mem_store(Mem m) {
    static thread_local MemStore s[int(Mem::kCount)];
    return s[int(m)];
}

// ---- poisoning: nothing written by one launch is readable in the next --------------------------------
// Every local memory is filled with kPoisonWord when a kernel call starts on a core (the trampolines call
// poison_local_memories), and when it is allocated. As float32 the word is a signalling NaN, so uninitialised
// data that reaches an output is visible; a UB->GM copy whose whole source still holds it is reported
// (never_written). ASCGEN_POISON_LOCAL=0 turns both off.
constexpr uint32_t kPoisonWord = 0x7FBADBADu;

inline bool poison_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("ASCGEN_POISON_LOCAL");
        return !(v && v[0] == '0' && v[1] == '\0');
    }();
    return on;
}

inline uint64_t alloc_bytes(uint64_t cap) { return (cap + 63) / 64 * 64 + 64; }

inline void poison(uint8_t* base, uint64_t bytes) {
    uint32_t* w = reinterpret_cast<uint32_t*>(base);
    for (uint64_t i = 0, n = bytes / 4; i < n; ++i) w[i] = kPoisonWord;
}

// True when [p, p+bytes) (at least one 32-byte block) still holds the poison of this launch everywhere.
inline bool never_written(const void* p, uint64_t bytes) {
    if (!poison_enabled() || bytes < 32 || reinterpret_cast<uintptr_t>(p) % 4 != 0) return false;
    const uint32_t* w = static_cast<const uint32_t*>(p);
    for (uint64_t i = 0, n = bytes / 4; i < n; ++i)
        if (w[i] != kPoisonWord) return false;
    return true;
}

// The calling core's memory `m`, (re)allocated when its capacity differs from the last launch.
inline uint8_t* mem_base(Mem m) {
    MemStore& s = mem_store(m);
    uint64_t cap = mem_capacity(m);
    if (s.base == nullptr || s.cap != cap) {
        std::free(s.base);
        s.base = static_cast<uint8_t*>(std::aligned_alloc(64, alloc_bytes(cap)));
        s.cap = cap;
        if (poison_enabled()) poison(s.base, alloc_bytes(cap));
    }
    return s.base;
}

// Called at the start of every kernel call on a core thread (launch, SuperKernel task, <<<>>>).
inline void poison_local_memories() {
    if (!poison_enabled()) return;
    for (int i = 0; i < int(Mem::kCount); ++i) {
        MemStore& s = mem_store(Mem(i));
        if (s.base) poison(s.base, alloc_bytes(s.cap));
    }
}

inline uint8_t* ub_base() { return mem_base(Mem::UB); }

// Byte offset of p in whichever local memory holds it (for messages).
inline uint64_t ub_offset(const void* p) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (int i = 0; i < int(Mem::kCount); ++i) {
        const MemStore& s = mem_store(Mem(i));
        if (s.base && q >= s.base && q <= s.base + s.cap) return uint64_t(q - s.base);
    }
    return 0;
}

inline uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace lib
}  // namespace ascgen
