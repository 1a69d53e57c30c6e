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

// Capacities of the cube memories (bytes). The public product specifications give L1 512 KB, L0A/L0B
// 64 KB, L0C 128 KB (dav-2201) or 256 KB (dav-3510); UB comes from the core (it depends on the product).
inline uint64_t mem_capacity(Mem m) {
    switch (m) {
        case Mem::UB: return rt::ub_capacity();
        case Mem::L1: return 512 * 1024;
        case Mem::L0A:
        case Mem::L0B: return 64 * 1024;
        default:
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
            return 256 * 1024;
#else
            return 128 * 1024;
#endif
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

// The calling core's memory `m`, (re)allocated when its capacity differs from the last launch.
inline uint8_t* mem_base(Mem m) {
    MemStore& s = mem_store(m);
    uint64_t cap = mem_capacity(m);
    if (s.base == nullptr || s.cap != cap) {
        std::free(s.base);
        s.base = static_cast<uint8_t*>(std::aligned_alloc(64, (cap + 63) / 64 * 64 + 64));
        s.cap = cap;
    }
    return s.base;
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
