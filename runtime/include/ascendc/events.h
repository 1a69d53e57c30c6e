// Intra-core pipe events (SetFlag / WaitFlag<HardEvent>) and barriers.
//
// Every emulated op completes before the next starts, so pipe ordering itself needs no work here. What
// the emulator can still catch is a WaitFlag that no SetFlag feeds: on the device that core waits
// forever. A per-core counter per (event, id) finds it at the WaitFlag line.
#pragma once
#include <cstdint>

#include "ascendc/check.h"
#include "ascendc/kernel_state.h"
#include "ascendc/types.h"

namespace ascgen {
namespace lib {

static_assert(kHardEvents == int(AscendC::HardEvent::MAX), "kernel_state.h must size every HardEvent");

inline const char* event_name(AscendC::HardEvent e) {
    static const char* const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M",
        "V_V", "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2",
        "MTE2_MTE3", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S",
        "M_S", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    int i = int(e);
    return i >= 0 && i < int(AscendC::HardEvent::MAX) ? names[i] : "?";
}

inline uint16_t& event_slot(AscendC::HardEvent evt, int id, const char* what, rt::Loc loc) {
    ASCGEN_ARG_CHECK(int(evt) < int(AscendC::HardEvent::MAX), loc, "%s: unknown HardEvent %d", what, int(evt));
    ASCGEN_ARG_CHECK(id >= 0 && id < 8, loc, "%s<%s>(%d): event id out of range 0..7", what, event_name(evt), id);
    return kernel_state().events[int(evt)][id];
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <HardEvent evt>
inline void SetFlag(int32_t eventID, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ++::ascgen::lib::event_slot(evt, eventID, "SetFlag", loc);
}

template <HardEvent evt>
inline void WaitFlag(int32_t eventID, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    uint16_t& n = ::ascgen::lib::event_slot(evt, eventID, "WaitFlag", loc);
    ASCGEN_ARG_CHECK(n > 0, loc,
                     "WaitFlag<HardEvent::%s>(%d) without a matching SetFlag on this core: the device would wait "
                     "forever; hint: SetFlag<HardEvent::%s>(%d) before it",
                     ::ascgen::lib::event_name(evt), int(eventID), ::ascgen::lib::event_name(evt), int(eventID));
    --n;
}

// Run-time event variants (the event as an argument).
inline void SetFlag(HardEvent evt, int32_t eventID, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ++::ascgen::lib::event_slot(evt, eventID, "SetFlag", loc);
}

template <pipe_t pipe>
inline void PipeBarrier(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
}

}  // namespace AscendC
