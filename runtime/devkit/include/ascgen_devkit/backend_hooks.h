// The devkit backend's hooks for the builtin library's host glue (runtime/include/ascgen/backend_hooks.h
// says what each does); the backend passes -DASCGEN_BACKEND_HOOKS naming this header
// (ascgen/runtime/backends/devkit/backend.py). Local memory belongs to the real library here, so nothing is
// poisoned; each core runs in its own module copy (copies.h).
#pragma once
#include <cstdint>

#include "ascgen/rt.h"
#include "ascgen_devkit/copies.h"

namespace ascgen {
namespace backend {

// This core's identity in the real library's globals, and the task-sync recogniser's end (model.h).
inline void enter_kernel() { __ascgen_devkit_enter(); }
inline void leave_kernel() { __ascgen_devkit_leave(); }

inline void host_launch(const char* name, void (*thunk)(void*), void* ctx, uint32_t block_dim, rt::Loc loc) {
    ::ascgen_devkit::host_launch(name, thunk, ctx, block_dim, loc);   // per-core module copies
}

// An ICPU_RUN_KF launch gets a system workspace whatever its parameters are named (copies.h, host_launch).
inline void next_launch_is_icpu() { ::ascgen_devkit::icpu_launch_next = true; }

// The thunk runs in the calling core's module copy; the kernel pointer was taken in copy 0.
template <class F>
inline F on_host_core(F kernel, const void* thunk) {
    return ::ascgen_devkit::relocate(kernel, thunk);
}

}  // namespace backend
}  // namespace ascgen
