// Kernel launches from hand-written host code.
//
// g++ cannot parse `kernel<<<blocks, l2ctrl, stream>>>(args...)`, so `ascgen run` rewrites only that token
// sequence, on the same line, into
//     ::ascgen::host::launch(&kernel, "kernel", blocks, l2ctrl, stream)(args...)
// The arguments are converted to the kernel's parameter types exactly as a direct call would, stored
// once, and every emulated core calls the kernel with them (rt::host_launch runs the launch to completion
// with the kernel type Python registered for the name, and throws rt::Cancelled on a fault).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// The backend's hooks (enter/leave a kernel, host launches): the builtin library's unless the backend
// names its own header (ascgen/runtime/backends/).
#if !defined(ASCGEN_BACKEND_HOOKS)
#define ASCGEN_BACKEND_HOOKS "ascgen/backend_hooks.h"
#endif
#include ASCGEN_BACKEND_HOOKS
#include "ascgen/host_crash.h"
#include "ascgen/rt.h"

namespace ascgen {
namespace host {

// "add_custom<2048>" / "&ns::add_custom" -> "add_custom" (the name Python registered the kernel under).
inline const char* bare_name(const char* written, char* buf, std::size_t size) {
    const char* s = written;
    while (*s == '&' || *s == ' ') ++s;
    const char* end = std::strchr(s, '<');
    if (end == nullptr) end = s + std::strlen(s);
    while (end > s && end[-1] == ' ') --end;
    const char* start = s;
    for (const char* p = s; p + 1 < end; ++p)
        if (p[0] == ':' && p[1] == ':') start = p + 2;
    std::size_t n = static_cast<std::size_t>(end - start);
    if (n >= size) n = size - 1;
    std::memcpy(buf, start, n);
    buf[n] = '\0';
    return buf;
}

// What a launch calls on each core: a kernel function (a pointer taken in the module the host code runs in,
// which backend::on_host_core moves to the core's module copy)...
template <class... P>
struct KernelFunction {
    void (*kernel)(P...);

    void call(std::tuple<P...>& values, const void* thunk) const {
        std::apply(backend::on_host_core(kernel, thunk), values);
    }
};

// ... or a closure: ICPU_RUN_KF's lambda that captures (host_icpu.h). The closure object is the host's and
// is read through its address from every core; its call operator runs in the core's module copy, reached
// through `enter`, a plain function placed like a kernel.
template <class L, class... P>
struct Closure {
    L* closure;

    static void enter(L* closure, P... args) { (*closure)(args...); }

    void call(std::tuple<P...>& values, const void* thunk) const {
        auto entry = backend::on_host_core(&enter, thunk);
        std::apply([&](P&... args) { entry(closure, args...); }, values);
    }
};

template <class Target, class... P>
class BasicLauncher {
public:
    BasicLauncher(Target target, const char* name, uint32_t block_dim, rt::Loc loc)
        : target_(target), name_(name), block_dim_(block_dim), loc_(loc) {}

    template <class... A>
    void operator()(A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P),
                      "ascgen: this <<<>>> launch passes a different number of arguments than the kernel declares");
        std::tuple<P...> values(std::forward<A>(args)...);   // converted once, like a direct call
        char buf[256];
        const char* bare = bare_name(name_, buf, sizeof buf);
        Ctx ctx{&target_, &values, bare};
        backend::host_launch(bare, &thunk, &ctx, block_dim_, loc_);
    }

private:
    struct Ctx {
        const Target* target;
        std::tuple<P...>* values;
        const char* name;
    };
    // Runs on each core thread; names the kernel for an isolated-mode crash report (host_crash.h).
    static void thunk(void* c) {
        Ctx* ctx = static_cast<Ctx*>(c);
        struct Mark {
            const char* saved = crash::current_kernel;
            ~Mark() { crash::current_kernel = saved; }
        } mark;
        crash::current_kernel = ctx->name;
        crash::on_core_thread();
        ctx->target->call(*ctx->values, reinterpret_cast<const void*>(&thunk));
    }
    Target target_;
    const char* name_;
    uint32_t block_dim_;
    rt::Loc loc_;
};

template <class... P>
using Launcher = BasicLauncher<KernelFunction<P...>, P...>;

// `l2ctrl` and `stream` are accepted and ignored: launches are synchronous on the emulator.
template <class... P>
Launcher<P...> launch(void (*kernel)(P...), const char* name, uint32_t block_dim, const void* /*l2ctrl*/ = nullptr,
                      const void* /*stream*/ = nullptr, rt::Loc loc = ASCGEN_HERE) {
    return Launcher<P...>(KernelFunction<P...>{kernel}, name, block_dim, loc);
}

}  // namespace host
}  // namespace ascgen
