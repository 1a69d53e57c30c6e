// One copy of the kernel module per emulated core (included by model.h, so it is compiled into every
// module; only copy 0, the one Python or the host program loaded, runs this code).
//
// Why: the library keeps local memory, masks and buffer bookkeeping in function-local statics and plain
// globals. Built with -fvisibility=hidden and -fno-gnu-unique, every dlopen of a distinct file gets its
// own instances; cores are threads, so each core runs the kernel in its own file copy. dlopen returns the
// same handle for the same file (and for hard links), hence real copies next to the module.
#pragma once
#include <utility>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include "ascgen/code_site.h"
#include "ascgen/rt.h"
#include "ascgen_devkit/state.h"
#include "ascgen_devkit/workspace.h"

extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_enter();
extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_leave();
// The launch's tiling key in this copy (model.h); each core's copy receives it when the core starts.
extern "C" __attribute__((visibility("default"))) uint64_t ascgen_tiling_key;

namespace ascgen_devkit {

constexpr int SLOTS = 512;

// Slot of the current core: AIV cores first, AIC cores from 256.
inline int slot() {
    namespace rt = ::ascgen::rt;
    return (rt::core_type() == rt::CoreType::AIC ? 256 : 0) + int(rt::block_idx());
}

inline const char* self_path() {
    static std::string path = [] {
        Dl_info info{};
        dladdr(reinterpret_cast<void*>(&__ascgen_devkit_enter), &info);
        return std::string(info.dli_fname ? info.dli_fname : "");
    }();
    return path.c_str();
}

// Copy the module file to `dst` unless it exists; write then rename, so concurrent processes sharing a
// cache never load a half-written copy.
inline bool copy_file(const char* src, const std::string& dst) {
    struct stat st{};
    if (stat(dst.c_str(), &st) == 0) return true;
    std::string tmp = dst + ".tmp" + std::to_string(getpid());
    FILE* in = std::fopen(src, "rb");
    if (!in) return false;
    FILE* out = std::fopen(tmp.c_str(), "wb");
    if (!out) { std::fclose(in); return false; }
    char buf[1 << 16];
    size_t n;
    bool ok = true;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) ok = ok && std::fwrite(buf, 1, n, out) == n;
    std::fclose(in);
    ok = (std::fclose(out) == 0) && ok;
    return ok && std::rename(tmp.c_str(), dst.c_str()) == 0;
}

// The handle of the module copy serving `s` (slot 0 is this module itself). Loaded on first use.
// ASCGEN_DEVKIT_ONE_COPY=1 runs every core in copy 0: only for the test that shows why copies exist.
inline void* copy_handle(int s) {
    static const bool one_copy = std::getenv("ASCGEN_DEVKIT_ONE_COPY") != nullptr;
    if (one_copy) s = 0;
    static std::mutex mu;
    static void* handles[SLOTS] = {};
    std::lock_guard<std::mutex> lock(mu);
    if (handles[s]) return handles[s];
    if (s == 0) {
        handles[0] = dlopen(self_path(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        return handles[0];
    }
    std::string path = std::string(self_path()) + ".core" + std::to_string(s) + ".so";
    if (!copy_file(self_path(), path))
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{"devkit backend", 0},
                           "devkit backend: cannot write the per-core module copy %s", path.c_str());
    ::ascgen::rt::module_copy(path.c_str(), self_path());
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{"devkit backend", 0},
                           "devkit backend: cannot load the per-core module copy: %s", dlerror());
    handles[s] = h;
    return h;
}

inline void* symbol_in_copy(int s, const char* name) {
    void* p = dlsym(copy_handle(s), name);
    if (!p)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{"devkit backend", 0},
                           "devkit backend: module copy %d has no symbol %s", s, name);
    return p;
}

// Python-launched kernels: `entry_name` is the kernel's exported trampoline (it calls enter() itself);
// args[workspace_index] (an 8-byte slot of pointer bits, the hidden argument after the kernel's own) is the
// launch's system workspace (workspace.h), if the index is >= 0.
inline void dispatch(const char* entry_name, void** args, int workspace_index = -1) {
    int s = slot();
    if (s < 0 || s >= SLOTS)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{entry_name, 0},
                           "devkit backend: core %s is beyond the %d module copies supported",
                           ::ascgen::rt::core_name(), SLOTS);
    void* workspace = workspace_index >= 0 ? *static_cast<void**>(args[workspace_index]) : nullptr;
    reinterpret_cast<void (*)(void*)>(symbol_in_copy(s, "__ascgen_devkit_set_workspace"))(workspace);
    reinterpret_cast<void (*)(uint64_t)>(symbol_in_copy(s, "__ascgen_devkit_set_tiling_key"))(ascgen_tiling_key);
    reinterpret_cast<void (*)(void**)>(symbol_in_copy(s, entry_name))(args);
}

// An address in this module's image, moved to the same offset in the image of the copy that contains
// `anchor_in_copy` (copies are byte-identical files, so code lies at the same offsets).
template <class F>
inline F relocate(F f, const void* anchor_in_copy) {
    Dl_info mine{}, theirs{};
    dladdr(reinterpret_cast<const void*>(f), &mine);
    dladdr(anchor_in_copy, &theirs);
    if (!mine.dli_fbase || !theirs.dli_fbase) return f;
    // through integers: clang refuses a const char* -> function pointer cast ("casts away qualifiers")
    return reinterpret_cast<F>(reinterpret_cast<std::uintptr_t>(f) - reinterpret_cast<std::uintptr_t>(mine.dli_fbase) +
                               reinterpret_cast<std::uintptr_t>(theirs.dli_fbase));
}

// Host programs (<<<>>> / host_launch): each core runs the launch thunk of its own copy.
struct HostCtx {
    void (*thunk)(void*);
    void* ctx;
    void* workspace;
    uint64_t tiling_key;     // ICPU_SET_TILING_KEY's value when the host program launched
};
inline void host_thunk(void* c) {
    auto* h = static_cast<HostCtx*>(c);
    // Python launches are checked before they start (backends/devkit/backend.py, check_launch); a host
    // program's <<<>>> is not, so a core past its type's 256 slots stops here instead of sharing a copy.
    if (::ascgen::rt::block_idx() >= SLOTS / 2)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{"devkit backend", 0},
                           "devkit backend: core %s is beyond the %d module copies per core type; launch at most "
                           "%d blocks of each core type", ::ascgen::rt::core_name(), SLOTS / 2, SLOTS / 2);
    int s = slot();
    void* enter = symbol_in_copy(s, "__ascgen_devkit_enter");
    reinterpret_cast<void (*)(void*)>(symbol_in_copy(s, "__ascgen_devkit_set_workspace"))(h->workspace);
    reinterpret_cast<void (*)(uint64_t)>(symbol_in_copy(s, "__ascgen_devkit_set_tiling_key"))(h->tiling_key);
    reinterpret_cast<void (*)()>(enter)();
    relocate(h->thunk, enter)(h->ctx);
    reinterpret_cast<void (*)()>(symbol_in_copy(s, "__ascgen_devkit_leave"))();
}

}  // namespace ascgen_devkit

namespace ascgen_devkit {
// Set by an ICPU_RUN_KF just before its launch (backend_hooks.h), on the host thread (module copy 0). CANN's
// CPU-debug launcher gives every ICPU launch a zeroed system workspace (hicann/asc-tools cpudebug kern_fwk.h,
// RunKernelFunctionOnCpu: g_sysWorkspaceReserved), whatever the kernel's parameters are called; a kernel
// that checks `GetSysWorkSpacePtr() == nullptr` and returns (ops-nn foreach_norm) ran nothing without one.
inline bool icpu_launch_next = false;

// host_launch.h calls this instead of rt::host_launch when the module is built for the devkit backend.
inline void host_launch(const char* name, void (*thunk)(void*), void* ctx, uint32_t block_dim, ::ascgen::rt::Loc loc) {
    const bool icpu = std::exchange(icpu_launch_next, false);
    if (!icpu && !needs_system_workspace(name)) {
        HostCtx h{thunk, ctx, nullptr, ascgen_tiling_key};
        ::ascgen::rt::host_launch(name, &host_thunk, &h, block_dim, loc);
        return;
    }
    SystemWorkspace workspace;
    HostCtx h{thunk, ctx, workspace.data(), ascgen_tiling_key};
    ::ascgen::rt::host_launch(name, &host_thunk, &h, block_dim, loc);
}
}  // namespace ascgen_devkit
