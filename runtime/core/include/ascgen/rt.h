// ascgen runtime hooks: the only functions the emulated Ascend C library (runtime/include) calls in the
// core runtime (runtime/core, one shared library per process). Kernel shared objects resolve these
// symbols from the core library at load time, so every module shares one scheduler, one GM registry and
// one set of cross-core flags.
//
// Contract (see docs/architecture.md, "Contracts between the parts"):
//  * Every hook may throw ascgen::rt::Cancelled when the run has been cancelled (an error on any core,
//    the time limit). The library lets it propagate; the core catches it at the top of each core thread.
//  * `Loc` is the user's source location: library entry points take `Loc loc = ASCGEN_HERE` as a last
//    defaulted parameter so __builtin_FILE/LINE evaluate at the user's call site.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ascgen_arch.h"   // runtime/common: generated from the product table

#if defined(__GNUC__)
#define ASCGEN_RT_API __attribute__((visibility("default")))
#else
#define ASCGEN_RT_API
#endif

namespace ascgen {
namespace rt {

struct Loc {
    const char* file;
    int line;
    static constexpr Loc here(const char* f = __builtin_FILE(), int l = __builtin_LINE()) { return Loc{f, l}; }
};
#define ASCGEN_HERE ::ascgen::rt::Loc::here()

// Thrown through kernel code when the run is cancelled; never caught by library code.
struct Cancelled {};

enum class CoreType : int { AIC = 0, AIV = 1 };

// Pipe numbers shared by the library's pipe_t enumerators, the core and Python (ascgen/products.py).
namespace pipe = ::ascgen::arch::pipe;

// Error kinds, mapped one to one onto ascgen.errors in Python.
enum class Fault : int {
    None = 0,
    Memory = 1,      // KernelMemoryError: GM out of bounds, local overflow, UB capacity/alignment, DataCopy length
    Hang = 2,        // HangError (raised by the core's deadlock detector, not by the library)
    SyncCount = 3,   // SyncCountError
    Timeout = 4,     // KernelTimeoutError
    Assert = 5,      // KernelAssertError: unsupported argument, bad flag id, trap, ascendc_assert
};

// ---- core identity (thread-local in the core; valid inside a kernel call) ----
ASCGEN_RT_API CoreType core_type();      // on coupled products the single core type is AIV
ASCGEN_RT_API bool is_coupled();         // coupled products: one core does cube and vector work
ASCGEN_RT_API int64_t block_idx();       // GetBlockIdx(): [0, B) on AIC, [0, 2B) on AIV of a MIX 1:2 launch
ASCGEN_RT_API int64_t block_num();       // GetBlockNum(): B of the current task
ASCGEN_RT_API int64_t sub_block_idx();   // GetSubBlockIdx(): 0/1 on AIV of MIX 1:2, else 0
ASCGEN_RT_API int64_t task_ratio();      // GetTaskRatio(): 2 on AIV of MIX 1:2, else 1
ASCGEN_RT_API uint64_t ub_capacity();    // usable UB bytes of the product
ASCGEN_RT_API int npu_arch();            // __NPU_ARCH__ of the product being emulated
ASCGEN_RT_API const char* core_name();   // "AIV3", "AIC0"  (for messages and printf prefixes)

// ---- faults ----
// Record the first fault of the run (kind, message, core, task, loc), cancel every core, throw Cancelled.
[[noreturn]] ASCGEN_RT_API void fail(Fault kind, Loc loc, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
// Throw Cancelled if the run was cancelled. Cheap (one relaxed atomic load); called by every library op so
// runaway loops that call any API stop at the time limit.
ASCGEN_RT_API void poll();
// The same, remembering `loc` as the core's latest user line, so a time-limit report can name the line
// of a runaway loop that calls only, say, PipeBarrier (two relaxed stores).
ASCGEN_RT_API void poll(Loc loc);

// ---- global memory ----
// Check [addr, addr+bytes) lies inside one registered GM allocation (launch arguments, GmAlloc, aclrtMalloc)
// and record it for cross-task race detection. Called once per DataCopy / GetValue / SetValue, never per
// element of a contiguous copy. `strided`: (stride_bytes, blocks) for strided copies, or zeros.
ASCGEN_RT_API void gm_access(const void* addr, uint64_t bytes, bool write, Loc loc);
ASCGEN_RT_API void gm_access_strided(const void* addr, uint64_t block_bytes, uint64_t blocks,
                                     uint64_t stride_bytes, bool write, Loc loc);
// SetGlobalBuffer(ptr, size): a view that must lie inside an allocation (size 0 = to the end of it).
ASCGEN_RT_API void gm_view(const void* addr, uint64_t bytes, Loc loc);
// Host-side allocations (aclrtMalloc, GmAlloc) register and unregister GM ranges; name may be null.
ASCGEN_RT_API void gm_register(const void* addr, uint64_t bytes, const char* name);
ASCGEN_RT_API void gm_unregister(const void* addr);

// ---- synchronisation between cores ----
// pipe values are the emulated pipe_t enumerators (PIPE_S=0 ... see kernel_operator.h).
ASCGEN_RT_API void cross_core_set_flag(int mode, int pipe, int flag_id, Loc loc);
ASCGEN_RT_API void cross_core_wait_flag(int flag_id, Loc loc);
// This core's flag counters may hold completed rounds at the end of the run, up to the hardware's 15
// (a protocol that notifies both AIVs and has each wait for its own flag, as the Matmul API's server).
ASCGEN_RT_API void allow_unconsumed_flags(Loc loc);
// Hardware SyncAll: all cores of the launch (aiv_only: only vector cores), built on flags 11-14.
ASCGEN_RT_API void sync_all(bool aiv_only, Loc loc);
// The task-sync calls. No-ops outside a SuperKernel; inside one the core applies the boundary semantics
// of tasksync-semantics.md section 3.1 and counts calls per core and task.
ASCGEN_RT_API void set_next_task_start(int aiv_pipe, int aic_pipe, bool force, Loc loc);
ASCGEN_RT_API void wait_pre_task_end(bool force, Loc loc);

// ---- local buffers across the cores of a group ----
// dav_3510 moves data between the local buffers of an AIC and its AIVs (Fixpipe L0C -> an AIV's UB, an AIV's
// UB -> the AIC's L1). Each core publishes its buffers on entering a task (`hw`: the library's Hardware
// index), with `inbox`, an opaque pointer the writers of that buffer share (the devkit model's ordering of
// peer writes with the owner's buffer fill, ascgen_devkit/peer.h); a core finds its peer's: the group's AIC
// (sub < 0) or its AIV `sub`. Waits until that core has entered the current task; false when the launch
// has no such core.
ASCGEN_RT_API void local_publish(int hw, uint64_t base, uint64_t bytes, void* inbox = nullptr);
ASCGEN_RT_API bool local_of_peer(int sub, int hw, uint64_t* base, uint64_t* bytes, Loc loc, void** inbox = nullptr);

// ---- modeled timeline ----
// Account work on a pipe of this core: `units` are bytes for MTE1/MTE2/MTE3/FIX, elements for V/M/S.
// The cost model turns units into modeled cycles (parameters documented in docs/timeline.md).
ASCGEN_RT_API void cost(int pipe, uint64_t units);

// ---- output ----
// AscendC::printf / PRINTF: the core prefixes "[AIV3] " and serialises lines across cores.
ASCGEN_RT_API void print(const char* text);

// ---- host side: acl emulation, <<<>>> launches and ICPU_RUN_KF in hand-written programs ----
// `thunk(ctx)` calls the kernel with its bound arguments on the calling core thread. The core runs the
// launch with the kernel type Python registered for `kernel_name` (AIV-only if none and no
// next_launch_kernel_type says otherwise), waits for it, and on
// a fault throws Cancelled through the host program (the Python caller turns it into the typed error).
using KernelThunk = void (*)(void* ctx);
ASCGEN_RT_API void host_launch(const char* kernel_name, KernelThunk thunk, void* ctx, uint32_t block_dim, Loc loc);
// The kernel type of the next host_launch only, instead of the registered one: 0 AIV, 1 AIC, 2 MIX 1:1, 3 MIX 1:2
// (Python's KERNEL_TYPES order). ICPU_RUN_KF passes the mode AscendC::SetKernelMode set, as CANN's CPU-debug
// launcher runs its launches with the mode last set (host_icpu.h). `unless_registered`: only for a kernel the
// source analysis did not register (ICPU_RUN_KF's default for a kernel ascgen could not see, host_icpu.h).
ASCGEN_RT_API void next_launch_kernel_type(int kernel_type, bool unless_registered = false);

}  // namespace rt
}  // namespace ascgen
