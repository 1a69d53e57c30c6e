// The builtin backend's hooks for the host glue (host_launch.h, host_trampoline.h): what runs around a
// kernel on its core thread, and how a host program's <<<>>> launch reaches the cores. Another backend
// passes -DASCGEN_BACKEND_HOOKS=<its header> defining the same five functions (the devkit backend:
// runtime/devkit/include/ascgen_devkit/backend_hooks.h; ascgen/runtime/backends/).
#pragma once
#include <cstdint>

#include "ascendc/ub.h"
#include "ascgen/rt.h"

namespace ascgen {
namespace backend {

// A Python-launched kernel's trampoline, on the core thread, just before and after the kernel.
inline void enter_kernel() { lib::poison_local_memories(); }
inline void leave_kernel() {}

// A <<<>>> launch from host code: `thunk(ctx)` runs on every core of the launch.
inline void host_launch(const char* name, void (*thunk)(void*), void* ctx, uint32_t block_dim, rt::Loc loc) {
    rt::host_launch(name, thunk, ctx, block_dim, loc);
}

// The next host launch is an ICPU_RUN_KF (host_icpu.h): CANN's CPU-debug launcher gives every such launch a
// system workspace. The builtin library keeps none.
inline void next_launch_is_icpu() {}

// In that thunk, on the core thread: prepares the core and returns the kernel to call. `thunk` is an
// address of the thunk's own code (a backend with one module copy per core finds its copy from it).
template <class F>
inline F on_host_core(F kernel, const void* /*thunk*/) {
    lib::poison_local_memories();
    return kernel;
}

}  // namespace backend
}  // namespace ascgen
