// The vector mask register and its two modes, used by level-0 ops called with isSetMask = false
// (their mask argument is then MASK_PLACEHOLDER) and by every level-0 op in counter mode.
//
// Normal mode: SetVectorMask<T>(high, low) enables lanes by bit (low = lanes 0..63, high = 64..127), or
// SetVectorMask<T>(len) the first len lanes. Counter mode (SetMaskCount): the register holds a total
// element count; a level-0 op processes that many elements in consecutive repeats and ignores repeatTimes
// (with isSetMask = true its own mask argument is the count).
#pragma once
#include <cstdint>

#include "ascendc/check.h"
#include "ascendc/kernel_state.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
constexpr int32_t MASK_PLACEHOLDER = 0;
constexpr uint64_t FULL_MASK = ~uint64_t(0);

inline void SetMaskCount(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().mask_counter = true;
}
inline void SetMaskNorm(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().mask_counter = false;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::KernelState& ks = ::ascgen::lib::kernel_state();
    if (mode == MaskMode::COUNTER) ks.mask_counter = true;
    ks.vmask[0] = maskLow;
    ks.vmask[1] = ks.mask_counter ? 0 : maskHigh;
    ks.vmask_set = true;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::KernelState& ks = ::ascgen::lib::kernel_state();
    if (mode == MaskMode::COUNTER) ks.mask_counter = true;
    ASCGEN_ARG_CHECK(len >= 0, loc, "SetVectorMask(%d): negative length", int(len));
    if (ks.mask_counter) {
        ks.vmask[0] = uint64_t(len);
        ks.vmask[1] = 0;
    } else {
        ASCGEN_ARG_CHECK(len <= 128, loc, "SetVectorMask(%d): at most 128 lanes in normal mode", int(len));
        ks.vmask[0] = len >= 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
        ks.vmask[1] = len <= 64 ? 0 : len >= 128 ? ~uint64_t(0) : (uint64_t(1) << (len - 64)) - 1;
    }
    ks.vmask_set = true;
}

// Every lane on (normal mode).
inline void ResetMask(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_state().vmask_set = false;
}

}  // namespace AscendC
