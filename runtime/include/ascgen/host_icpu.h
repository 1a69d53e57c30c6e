// The legacy CPU-debug host API (tikicpulib.h in CANN): AscendC::GmAlloc / GmFree, ICPU_RUN_KF,
// AscendC::SetKernelMode. GmAlloc memory is GM registered with the core, like aclrtMalloc.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include "acl/acl_rt.h"
#include "ascgen/host_launch.h"

// CANN's CPU-debug launcher runs an ICPU_RUN_KF launch with the kernel mode AscendC::SetKernelMode set last
// (hicann/asc-tools cpudebug stub_base.cpp: g_kernelMode; MIX_MODE is MIX 1:2). Until a program sets one, the
// kernel type is what ascgen infers from the source (or `ascgen run --kernel-type`), as for <<<>>> launches,
// which take the kernel's own type in CANN too; a kernel the analysis did not find gets CANN's default, MIX 1:2. A lambda wrapper (`auto k = [](...) { op<1, 2>(...); };`) has
// no type of its own: without its SetKernelMode(MIX_MODE) it ran on AIV cores only and waited forever for a
// cube that was never launched.
enum class KernelMode { MIX_MODE = 0, AIC_MODE = 1, AIV_MODE = 2, MIX_AIC_1_1 = 3, MIX_AIC_1_2 = 4 };

namespace ascgen::host {
// The mode SetKernelMode set in this program (-1: none yet), as rt::next_launch_kernel_type's code.
inline int g_icpu_kernel_type = -1;
constexpr int kernel_type_of(KernelMode mode) {
    switch (mode) {
        case KernelMode::AIV_MODE: return 0;
        case KernelMode::AIC_MODE: return 1;
        case KernelMode::MIX_AIC_1_1: return 2;
        case KernelMode::MIX_MODE:
        case KernelMode::MIX_AIC_1_2: return 3;
    }
    return -1;
}
}  // namespace ascgen::host

namespace AscendC {
inline void* GmAlloc(std::size_t size, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    return ::ascgen::acl::alloc(size, false, loc);
}
inline void GmFree(void* ptr) { ::ascgen::acl::release(ptr); }
inline void SetKernelMode(KernelMode mode) { ::ascgen::host::g_icpu_kernel_type = ::ascgen::host::kernel_type_of(mode); }
}  // namespace AscendC

namespace ascgen::host {
// ICPU_RUN_KF takes what CANN's launcher takes (any callable, by value): a kernel function or one instance
// of a kernel template (`k<0>`, `(k<N>)`), a pointer to one, a lambda that captures nothing (the operator
// repositories' UTs write `auto kernel = [](GM_ADDR x, ...) { op<T>(x, ...); };`), which unary + converts
// to a kernel function, or a lambda that captures (`[mode](GM_ADDR x, ...) { if (mode == 0) ... }`).
template <class F, class = void>
struct converts_to_function : std::false_type {};
template <class F>
struct converts_to_function<F, std::void_t<decltype(+std::declval<F&>())>> : std::true_type {};

// The parameter types of a lambda's call operator (none for a generic lambda: `[&](auto x)`).
template <class M>
struct call_operator {
    static constexpr bool known = false;
};
template <class L, class R, class... P>
struct call_operator<R (L::*)(P...) const> {
    static constexpr bool known = true;
    template <class Closure>
    static auto launcher(Closure* c, const char* name, uint32_t block_dim, rt::Loc loc) {
        return BasicLauncher<::ascgen::host::Closure<Closure, P...>, P...>({c}, name, block_dim, loc);
    }
};
template <class L, class R, class... P>
struct call_operator<R (L::*)(P...)> : call_operator<R (L::*)(P...) const> {};   // a mutable lambda
template <class L, class R, class... P>
struct call_operator<R (L::*)(P...) const noexcept> : call_operator<R (L::*)(P...) const> {};
template <class L, class R, class... P>
struct call_operator<R (L::*)(P...) noexcept> : call_operator<R (L::*)(P...) const> {};

template <class F, class = void>
struct has_call_operator : std::false_type {};
template <class F>
struct has_call_operator<F, std::void_t<decltype(&F::operator())>>
    : std::bool_constant<call_operator<decltype(&F::operator())>::known> {};

// A capturing lambda runs like CANN's forked cores for what it reads; what it captures by reference is the
// host's one object for every core (CANN's cores each write their own copy, lost at the end).
template <class F>
auto icpu_launch(F&& kernel, const char* name, uint32_t block_dim, rt::Loc loc = ASCGEN_HERE) {
    using K = std::remove_reference_t<F>;
    // The launch just below: the mode SetKernelMode set, else, for a kernel the source analysis did not find
    // (one a macro defines: `#define DEFINE_KERNEL(NAME, T) extern "C" __global__ ... void NAME(...)`), CANN's
    // default mode MIX 1:2 (asc-tools cpudebug stub_base.cpp: `g_kernelMode = KernelMode::MIX_MODE`). Run on
    // AIV cores only, ops-nn fused_patch_mlp's AIC-only test kernels returned at once and wrote nothing.
    // A lambda wrapper keeps the type ascgen gives it (AIV unless SetKernelMode): its body is not a kernel the
    // analysis reads, and the repositories' vector UTs launch them so.
    constexpr bool named_function = std::is_function_v<K> ||
                                    (std::is_pointer_v<K> && std::is_function_v<std::remove_pointer_t<K>>);
    if (g_icpu_kernel_type >= 0) rt::next_launch_kernel_type(g_icpu_kernel_type);
    else if (named_function) rt::next_launch_kernel_type(kernel_type_of(KernelMode::MIX_MODE), /*unless_registered=*/true);
    backend::next_launch_is_icpu();
    if constexpr (std::is_function_v<K>) {
        return launch(&kernel, name, block_dim, nullptr, nullptr, loc);
    } else if constexpr (converts_to_function<K>::value) {
        return launch(+kernel, name, block_dim, nullptr, nullptr, loc);
    } else {
        static_assert(has_call_operator<std::remove_cv_t<K>>::value,
                      "ICPU_RUN_KF: the kernel must be a function, a template instance or a lambda whose "
                      "parameters have types (a generic lambda, `[](auto x)`, gives no kernel signature)");
        return call_operator<decltype(&std::remove_cv_t<K>::operator())>::launcher(&kernel, name, block_dim, loc);
    }
}
}  // namespace ascgen::host

// ICPU_RUN_KF(kernel, blockDim, args...): run `kernel` on blockDim emulated blocks.
#define ICPU_RUN_KF(func, blockDim, ...) ::ascgen::host::icpu_launch(func, #func, (blockDim))(__VA_ARGS__)
