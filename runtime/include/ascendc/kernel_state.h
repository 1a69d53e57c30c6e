// Per-core state that lives for one kernel invocation: SetFlag/WaitFlag counters, the pad value of
// SetPadValue, the atomic mode of UB->GM copies and the CMPMASK register. Thread-local (one thread per
// emulated core); reset where a kernel starts (TPipe constructor, InitSocState).
#pragma once
#include <cstdint>
#include <cstring>

namespace ascgen {
namespace lib {

constexpr int kHardEvents = 35;   // AscendC::HardEvent::MAX

struct KernelState {
    uint16_t events[kHardEvents][8];
    bool pad_set;
    uint8_t pad_bytes[8];          // SetPadValue's value, in the element type's bytes
    uint8_t atomic_op;             // SetAtomicAdd/Max/Min for UB->GM copies: 0 none, 1 add, 2 max, 3 min
    uint8_t atomic_type;           // type_code<T>() of the SetAtomic* call
    uint64_t cmpmask[2];           // the CMPMASK register (level-0 Compare, GetCmpMask / SetCmpMask)
    float reduce_sum;              // the special register ReduceSum leaves its result in (GetReduceRepeatSumSpr)
    bool mask_counter;             // SetMaskCount (true) / SetMaskNorm (false)
    bool vmask_set;                // SetVectorMask was called (otherwise every lane is on)
    uint64_t vmask[2];             // the vector mask register: lane bits (normal) or vmask[0] = count (counter)
};

inline KernelState& kernel_state() {
    static thread_local KernelState s{};
    return s;
}

inline void kernel_start() { std::memset(&kernel_state(), 0, sizeof(KernelState)); }

}  // namespace lib
}  // namespace ascgen
