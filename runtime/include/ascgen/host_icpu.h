// The legacy CPU-debug host API (tikicpulib.h in CANN): AscendC::GmAlloc / GmFree, ICPU_RUN_KF,
// AscendC::SetKernelMode. GmAlloc memory is GM registered with the core, like aclrtMalloc.
#pragma once
#include <cstddef>

#include "acl/acl_rt.h"
#include "ascgen/host_launch.h"

// The kernel type is inferred statically from the source (or forced with `ascgen run --kernel-type`),
// as for <<<>>> launches, so SetKernelMode only documents intent here.
enum class KernelMode { MIX_MODE = 0, AIC_MODE = 1, AIV_MODE = 2, MIX_AIC_1_1 = 3, MIX_AIC_1_2 = 4 };

namespace AscendC {
inline void* GmAlloc(std::size_t size, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    return ::ascgen::acl::alloc(size, false, loc);
}
inline void GmFree(void* ptr) { ::ascgen::acl::release(ptr); }
inline void SetKernelMode(KernelMode /*mode*/) {}
}  // namespace AscendC

// ICPU_RUN_KF(kernel, blockDim, args...): run `kernel` on blockDim emulated blocks.
#define ICPU_RUN_KF(func, blockDim, ...) ::ascgen::host::launch(&func, #func, (blockDim))(__VA_ARGS__)
