// Pipe flags, barriers and the cross-core (FFTS) flags.
//
// The emulated core executes every pipe in program order, so set_flag/wait_flag/pipe_barrier/dsb order
// nothing further; like the builtin backend they only poll for cancellation. Cross-core flags go to the
// core's flag model, which is what makes the library's own CrossCoreSetFlag / SyncAll / WaitPreTaskEnd /
// SetNextTaskStart visible to the hang, count and race detectors.
#pragma once
#include "state.h"

inline void set_flag(pipe_t, pipe_t, event_t) { ::ascgen::rt::poll(); }
inline void wait_flag(pipe_t, pipe_t, event_t) { ::ascgen::rt::poll(); }
inline void set_flag(pipe_t, pipe_t, int) { ::ascgen::rt::poll(); }
inline void wait_flag(pipe_t, pipe_t, int) { ::ascgen::rt::poll(); }
inline void pipe_barrier(pipe_t) { ::ascgen::rt::poll(); }
inline void dsb(mem_dsb_t) { ::ascgen::rt::poll(); }

// config = 1 | mode << 4 | flag << 8 (the library's GetffstMsg).
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config) {
    int mode = int((config >> 4) & 0x3);
    int flag = int((config >> 8) & 0xf);
    ::ascgen::rt::cross_core_set_flag(mode, int(pipe), flag, ascgen_devkit::at("ffts_cross_core_sync"));
}
inline void wait_flag_dev(int64_t flag) {
    ::ascgen::rt::cross_core_wait_flag(int(flag), ascgen_devkit::at("wait_flag_dev"));
}

// The library's CPU-mode barrier around its software SyncAll (it spins on GM between the two calls).
inline void __sync_all_stub(int /*usedCores*/, bool aivOnly) {
    ::ascgen::rt::sync_all(aivOnly, ascgen_devkit::at("SyncAll"));
}

inline void trap() {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ascgen_devkit::at("trap"), "the kernel executed trap()");
}
