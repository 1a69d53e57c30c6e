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
