// Per-core Unified Buffer: thread-local storage sized by the product's usable UB (rt::ub_capacity()).
//
// Each emulated core is a thread, so a thread-local block is exactly one core's UB. Allocation is a bump
// pointer owned by TPipe (reset by its constructor, i.e. per kernel invocation) or by a
// LocalMemAllocator; the storage itself is kept between launches to avoid a 256 KB malloc per core.
#pragma once
#include <cstdint>
#include <cstdlib>

#include "ascendc/check.h"

namespace ascgen {
namespace lib {

constexpr uint64_t kUbAlign = 32;   // UB addresses of vector ops and DataCopy must be 32-byte aligned

struct UbStore {
    uint8_t* base = nullptr;
    uint64_t cap = 0;
    ~UbStore() { std::free(base); }
};

inline UbStore& ub_store() {
    static thread_local UbStore s;
    return s;
}

// The calling core's UB, (re)allocated when the product's capacity differs from the last launch.
inline uint8_t* ub_base() {
    UbStore& s = ub_store();
    uint64_t cap = rt::ub_capacity();
    if (s.base == nullptr || s.cap != cap) {
        std::free(s.base);
        s.base = static_cast<uint8_t*>(std::aligned_alloc(64, (cap + 63) / 64 * 64 + 64));
        s.cap = cap;
    }
    return s.base;
}

inline uint64_t ub_offset(const void* p) {
    return uint64_t(static_cast<const uint8_t*>(p) - ub_store().base);
}

inline uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace lib
}  // namespace ascgen
