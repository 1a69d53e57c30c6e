// dav_3510 definitions the library's CPU-debug configuration expects from the CPU model, compiled once
// per kernel module after the kernel (included by ../model.h).
#pragma once

namespace AscendC {
// The pairing of GetBuff / ReleaseBuff per buffer ID and core side: a get of an ID this side still
// holds, or a release of one it does not hold (or holds from another pipe), would wait forever on the
// device; the state turns false and the library's ASCENDC_ASSERT after the pair reports it.
bool BufIdTracker::UpdateState(uint8_t bufId, pipe_t pipe, bool mode, bool released) {
    auto& ids = g_coreType == AscendC::AIC ? bufIdMapAic_ : bufIdMapAiv_;
    bool& ok = g_coreType == AscendC::AIC ? aicState_ : aivState_;
    auto it = ids.find(bufId);
    const bool held = it != ids.end() && !it->second.released;
    if (!released) {
        if (held) ok = false;
    } else if (!held || it->second.pipe != pipe) {
        ok = false;
    }
    ids[bufId] = BufState{pipe, mode, released};
    return ok;
}
bool BufIdTracker::AddBufIdEvent(uint8_t bufId, pipe_t pipe, bool mode, bool released) {
    return UpdateState(bufId, pipe, mode, released);
}
bool BufIdTracker::GetState() { return g_coreType == AscendC::AIC ? aicState_ : aivState_; }
void BufIdTracker::Reset() {
    bufIdMapAiv_.clear();
    bufIdMapAic_.clear();
    aivState_ = aicState_ = true;
}
}  // namespace AscendC

namespace ascgen_devkit {
namespace d3510 {
// Per task: the DMA loop registers at their reset values, no buffer ID held.
inline void enter() {
    loops_in = DmaLoops{};
    loops_out = DmaLoops{};
    st_atomic_cfg = 0;
    ar = 0;
    squeezed_bytes = 0;
    AscendC::BufIdTracker::GetInstance().Reset();
}
}  // namespace d3510
}  // namespace ascgen_devkit
