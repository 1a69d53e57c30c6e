// Pipe flags, barriers and the cross-core (FFTS) flags.
//
// The emulated core executes every pipe in program order, so set_flag/wait_flag/pipe_barrier/dsb order
// nothing further; like the builtin backend they only poll for cancellation. Cross-core flags go to the
// core's flag model, which is what makes the library's own CrossCoreSetFlag / SyncAll / WaitPreTaskEnd /
// SetNextTaskStart visible to the hang, count and race detectors.
#pragma once
#include "state.h"
#include "tasksync.h"
#include <thread>

inline void set_flag(pipe_t, pipe_t, event_t) { ascgen_devkit::tick(); }
inline void wait_flag(pipe_t, pipe_t, event_t) { ascgen_devkit::tick(); }
inline void set_flag(pipe_t, pipe_t, int) { ascgen_devkit::tick(); }
inline void wait_flag(pipe_t, pipe_t, int) { ascgen_devkit::tick(); }
// SyncAll starts with PipeBarrier<PIPE_ALL>; a barrier does not end a pending flag sequence.
inline void pipe_barrier(pipe_t) {
    if (!ascgen_devkit::unwinding()) ::ascgen::rt::poll();
}
inline void dsb(mem_dsb_t) { ascgen_devkit::tick(); }

// config = 1 | mode << 4 | flag << 8 (the library's GetffstMsg). `caller` is the function the call is
// written in: the task-sync recogniser (tasksync.h) takes the calls of the library's SyncAll and task-sync
// functions; every other call goes straight to the core's flag model.
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, const char* caller = __builtin_FUNCTION()) {
    int mode = int((config >> 4) & 0x3);
    int flag = int((config >> 8) & 0xf);
    ascgen_devkit::flag_op(ascgen_devkit::FlagOp{true, mode, int(pipe), flag}, caller);
}
inline void wait_flag_dev(int64_t flag, const char* caller = __builtin_FUNCTION()) {
    ascgen_devkit::flag_op(ascgen_devkit::FlagOp{false, 0, 0, int(flag)}, caller);
}

// The library's CPU-mode barrier around its software SyncAll (it spins on GM between the two calls).
inline void __sync_all_stub(int /*usedCores*/, bool aivOnly) {
    if (ascgen_devkit::unwinding()) return;
    ascgen_devkit::tick();
    ::ascgen::rt::sync_all(aivOnly, ascgen_devkit::at("SyncAll"));
}

inline void trap() {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ascgen_devkit::at("trap"), "the kernel executed trap()");
}

// IBSet / IBWait: the library synchronises through a GM word it polls; CANN's process-per-core model uses
// these markers to schedule its processes. Cores are threads here, running concurrently, so the library's
// own GM protocol is the synchronisation; the markers only yield the CPU to the core being waited for.
inline void __ib_set_stub(int64_t, int64_t, bool) { ascgen_devkit::tick(); std::this_thread::yield(); }
inline void __ib_wait_stub(int64_t, int64_t, bool) { ascgen_devkit::tick(); std::this_thread::yield(); }
