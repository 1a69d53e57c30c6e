// Per-core state that lives for one kernel invocation: SetFlag/WaitFlag counters and the pad value of
// SetPadValue. Thread-local (one thread per emulated core); reset where a kernel starts (TPipe
// constructor, InitSocState).
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
};

inline KernelState& kernel_state() {
    static thread_local KernelState s{};
    return s;
}

inline void kernel_start() { std::memset(&kernel_state(), 0, sizeof(KernelState)); }

}  // namespace lib
}  // namespace ascgen
