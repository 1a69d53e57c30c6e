// The system workspace: what the library's GetSysWorkSpacePtr() returns (model.h defines it). On the device
// the launcher hands the kernel's `__kfc_workspace__` argument to the core's KFC register; the Matmul API
// keeps its AIC <-> AIV message queues there (REGIST_MATMUL_OBJ). Here each launch names it for each core.
//
// Which argument: the parameter written `__kfc_workspace__`, else the one named `workspace` (the cube-only
// examples pass it unmarked); the module wrapper (ascgen/runtime/devkit_module.py) registers its index per
// kernel name for host launches and passes it to dispatch() for Python launches.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_set_workspace(void* workspace);

namespace ascgen_devkit {

// This module copy's workspace (one copy per core), set before each launch runs the kernel here.
inline uint8_t* sys_workspace = nullptr;

// Kernel name -> index of its workspace parameter (copy 0 launches, so copy 0's table is the one read).
inline std::map<std::string, int>& workspace_params() {
    static std::map<std::string, int> table;
    return table;
}
inline std::mutex& workspace_params_lock() {
    static std::mutex mu;
    return mu;
}
inline int register_workspace_param(const char* kernel, int index) {
    std::lock_guard<std::mutex> lock(workspace_params_lock());
    workspace_params()[kernel] = index;
    return index;
}
// The workspace argument of a host launch of `kernel`, from its arguments' pointer values (nullptr for a
// non-pointer argument), or nullptr if the kernel has none.
inline void* launch_workspace(const char* kernel, void* const* pointers, int n) {
    std::lock_guard<std::mutex> lock(workspace_params_lock());
    auto it = workspace_params().find(kernel);
    return it != workspace_params().end() && it->second < n ? pointers[it->second] : nullptr;
}

}  // namespace ascgen_devkit
