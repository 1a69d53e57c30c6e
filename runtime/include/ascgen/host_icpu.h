// The legacy CPU-debug host API (tikicpulib.h in CANN): AscendC::GmAlloc / GmFree, ICPU_RUN_KF,
// AscendC::SetKernelMode. GmAlloc memory is GM registered with the core, like aclrtMalloc.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

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

namespace ascgen::host {
// The function pointer a launch needs from any kernel callable ICPU_RUN_KF is given (CANN's takes any
// callable by value): a kernel function or one instance of a kernel template (`k<0>`, `(k<N>)`), a pointer
// to one, or a capture-less lambda wrapping one, named or written in place, const or not (the operator
// repositories' UTs write `auto kernel = [](GM_ADDR x, ...) { op<T>(x, ...); };`), which unary + converts.
template <class F, class = void>
struct converts_to_function : std::false_type {};
template <class F>
struct converts_to_function<F, std::void_t<decltype(+std::declval<F&>())>> : std::true_type {};

template <class F>
auto kernel_pointer(F&& kernel) {
    using K = std::remove_reference_t<F>;
    if constexpr (std::is_function_v<K>) {
        return &kernel;
    } else {
        static_assert(converts_to_function<K>::value,
                      "ICPU_RUN_KF: the kernel must be a function, a template instance or a lambda that captures "
                      "nothing (a launch calls a plain function; CANN forks per core, ascgen runs the cores in "
                      "one process)");
        return +kernel;
    }
}
}  // namespace ascgen::host

// ICPU_RUN_KF(kernel, blockDim, args...): run `kernel` on blockDim emulated blocks.
#define ICPU_RUN_KF(func, blockDim, ...) \
    ::ascgen::host::launch(::ascgen::host::kernel_pointer(func), #func, (blockDim))(__VA_ARGS__)
