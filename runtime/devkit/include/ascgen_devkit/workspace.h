// The system workspace: what the library's GetSysWorkSpacePtr() returns (model.h defines it). The Matmul API
// keeps its AIC <-> AIV message queues there (REGIST_MATMUL_OBJ, the KFC code).
//
// Why a buffer of its own, apart from the kernel's workspace argument: on the device the launcher hands the
// argument to the core's KFC register, and the library's device GetUserWorkspace() returns that address plus
// RESERVED_WORKSPACE, so the kernel's own data never meets the message queues. In the library's CPU-debug
// configuration GetUserWorkspace(ws) returns ws unchanged, so a kernel that keeps a C buffer at the start of
// its workspace (batch_matmul_iterate_n_batch, matmul_async_iterate...) would write over the queues if the
// system workspace were that same address. CANN's CPU model keeps it elsewhere too; so does this one: each
// launch of a kernel that has a workspace parameter gets a zeroed buffer, registered as GM of the launch and
// shared by all its cores, and the kernel's argument is left wholly to the kernel.
//
// Which kernels: every ICPU_RUN_KF launch (CANN's CPU-debug launcher gives each one: copies.h), and those with a
// parameter written `__kfc_workspace__`, or one named `workspace` (the cube-only examples pass it unmarked),
// in any source of the program. The module wrapper (ascgen/runtime/backends/devkit/backend.py) registers them
// by name for host <<<>>> launches; for Python launches the module appends the buffer as a hidden last argument.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include "ascgen/rt.h"

extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_set_workspace(void* workspace);

namespace ascgen_devkit {

// What a dav-2201 host program allocates for the library (the platform's GetLibApiWorkSpaceSize()).
constexpr uint64_t SYSTEM_WORKSPACE_BYTES = uint64_t(16) << 20;

// This module copy's system workspace (one copy per core), set before each launch runs the kernel here.
inline uint8_t* sys_workspace = nullptr;

// Names of the kernels that get a system workspace (copy 0 launches, so copy 0's set is the one read).
inline std::set<std::string>& workspace_kernels() {
    static std::set<std::string> names;
    return names;
}
inline std::mutex& workspace_kernels_lock() {
    static std::mutex mu;
    return mu;
}
inline int register_workspace_kernel(const char* kernel) {
    std::lock_guard<std::mutex> lock(workspace_kernels_lock());
    workspace_kernels().insert(kernel);
    return 1;
}
inline bool needs_system_workspace(const char* kernel) {
    std::lock_guard<std::mutex> lock(workspace_kernels_lock());
    return workspace_kernels().count(kernel) != 0;
}

// One host launch's system workspace: zeroed, a GM buffer of the launch while it runs (GM checks and race
// records see it), released when the launch returns or a fault unwinds through the host program.
class SystemWorkspace {
public:
    SystemWorkspace() : data_(static_cast<uint8_t*>(std::calloc(1, SYSTEM_WORKSPACE_BYTES))) {
        if (!data_)
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen::rt::Loc{"devkit backend", 0},
                               "devkit backend: cannot allocate the %llu-byte system workspace of a launch",
                               static_cast<unsigned long long>(SYSTEM_WORKSPACE_BYTES));
        ::ascgen::rt::gm_register(data_, SYSTEM_WORKSPACE_BYTES, "system workspace");
    }
    ~SystemWorkspace() {
        ::ascgen::rt::gm_unregister(data_);
        std::free(data_);
    }
    SystemWorkspace(const SystemWorkspace&) = delete;
    SystemWorkspace& operator=(const SystemWorkspace&) = delete;
    uint8_t* data() const { return data_; }

private:
    uint8_t* data_;
};

}  // namespace ascgen_devkit
