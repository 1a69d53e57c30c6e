// Core identity and synchronisation between cores: GetBlockIdx & co, SyncAll, CrossCoreSetFlag /
// CrossCoreWaitFlag and the SuperKernel task-sync calls. All of it is the core runtime's business; this
// header forwards to rt.h with the user's location.
#pragma once
#include <cstdint>

#include "ascendc/check.h"
#include "ascendc/kernel_state.h"
#include "ascendc/tensor.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return ::ascgen::rt::block_idx(); }
inline int64_t GetBlockNum() { return ::ascgen::rt::block_num(); }
inline int64_t GetSubBlockIdx() { return ::ascgen::rt::sub_block_idx(); }
inline int64_t GetSubBlockNum() { return ::ascgen::rt::task_ratio(); }
inline int64_t GetTaskRatio() { return ::ascgen::rt::task_ratio(); }

// Start-of-kernel housekeeping on the device; here it starts this core's per-kernel state.
inline void InitSocState(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::lib::kernel_start();
}

// Hardware SyncAll across every core of the launch (isAIVOnly: vector cores only).
template <bool isAIVOnly = true>
inline void SyncAll(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::rt::sync_all(isAIVOnly, loc);
}

// Software SyncAll through a GM workspace. The emulator synchronises the same cores directly; the
// workspace is still checked for size, as the device writes one 32-byte slot per core into it.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                    int32_t usedCores = 0, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    (void)ubWorkspace;
    int64_t cores = usedCores > 0 ? usedCores : ::ascgen::rt::block_num();
    ASCGEN_MEM_CHECK(gmWorkspace.data() != nullptr, loc, "SyncAll: the GM workspace has no SetGlobalBuffer");
    ASCGEN_ARG_CHECK(usedCores == 0 || usedCores == ::ascgen::rt::block_num(), loc,
                     "SyncAll(gm, ub, usedCores=%d): the emulator synchronises all %lld cores of the launch only",
                     int(usedCores), static_cast<long long>(::ascgen::rt::block_num()));
    (void)cores;
    ::ascgen::rt::sync_all(isAIVOnly, loc);
}

// Cross-core flags: mode 0 (all cores of a type), 1 (within one AIV group), 2 (AIC <-> its AIVs).
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::rt::cross_core_set_flag(modeId, int(pipe), flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::rt::cross_core_wait_flag(flagId, loc);
}

// SuperKernel task sync. The default pipes are the product table's for this __NPU_ARCH__ (ascgen_arch.h):
// the AIC waits on PIPE_MTE3 on arch 1001/2002 (no FIX pipe), else on PIPE_FIX.
template <pipe_t AIV_PIPE = pipe_t(::ascgen::arch::kThis.aiv_pipe),
          pipe_t AIC_PIPE = pipe_t(::ascgen::arch::kThis.aic_pipe), bool FORCE = false>
inline void SetNextTaskStart(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    static_assert(AIV_PIPE == PIPE_MTE2 || AIV_PIPE == PIPE_MTE3 || AIV_PIPE == PIPE_S || AIV_PIPE == PIPE_V,
                  "SetNextTaskStart: AIV_PIPE must be PIPE_MTE2, PIPE_MTE3, PIPE_S or PIPE_V");
    static_assert(AIC_PIPE == PIPE_MTE1 || AIC_PIPE == PIPE_MTE2 || AIC_PIPE == PIPE_MTE3 || AIC_PIPE == PIPE_FIX ||
                      AIC_PIPE == PIPE_M,
                  "SetNextTaskStart: AIC_PIPE must be PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX or PIPE_M");
    ::ascgen::lib::enter(loc);
    ::ascgen::rt::set_next_task_start(int(AIV_PIPE), int(AIC_PIPE), FORCE, loc);
}

template <bool FORCE = false>
inline void WaitPreTaskEnd(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    ::ascgen::rt::wait_pre_task_end(FORCE, loc);
}

// Cycle counter: the emulator has no cycles; a monotonically increasing per-call value keeps timing code
// (end - start) working.
inline int64_t GetSystemCycle() {
    static thread_local int64_t t = 0;
    return t += 50;
}

}  // namespace AscendC
