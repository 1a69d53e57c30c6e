// Crash reporting for isolated mode (ascgen/runtime/isolate.py): in the worker process a SIGSEGV / SIGBUS /
// SIGFPE / SIGILL / SIGABRT prints one line the parent parses, then the worker dies of the same signal:
//
//   ASCGEN-CRASH signal=11 addr=0x0 core=AIV3 kernel=add_custom module=/cache/x.so offset=0x1234
//
// `offset` is the faulting instruction inside the module, which the parent maps to file:line with
// addr2line (isolated modules are built with line tables, -g1). Only async-signal-safe calls, apart
// from dladdr, which is the best available and runs once on a dying process.
#pragma once
#include <dlfcn.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "ascgen/rt.h"

namespace ascgen {
namespace crash {

// Set by the trampoline around each kernel call on a core thread (see host_trampoline.h).
inline thread_local const char* current_kernel = nullptr;

inline void put(char*& p, const char* end, const char* s) {
    while (*s && p < end) *p++ = *s++;
}

inline void put_hex(char*& p, const char* end, uintptr_t v) {
    char tmp[2 + 16];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v && n < 16);
    put(p, end, "0x");
    while (n && p < end) *p++ = tmp[--n];
}

inline void put_dec(char*& p, const char* end, long v) {
    char tmp[24];
    int n = 0;
    if (v < 0) { put(p, end, "-"); v = -v; }
    do { tmp[n++] = char('0' + v % 10); v /= 10; } while (v && n < 20);
    while (n && p < end) *p++ = tmp[--n];
}

inline uintptr_t fault_pc(void* context) {
    auto* uc = static_cast<ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
}

inline void handler(int sig, siginfo_t* info, void* context) {
    char line[1024];
    char* p = line;
    const char* end = line + sizeof line - 2;
    put(p, end, "ASCGEN-CRASH signal=");
    put_dec(p, end, sig);
    put(p, end, " addr=");
    put_hex(p, end, reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr));
    if (current_kernel) {
        put(p, end, " core=");
        put(p, end, rt::core_name());
        put(p, end, " kernel=");
        put(p, end, current_kernel);
    }
    uintptr_t pc = fault_pc(context);
    Dl_info where;
    if (pc && dladdr(reinterpret_cast<void*>(pc), &where) && where.dli_fname) {
        put(p, end, " module=");
        put(p, end, where.dli_fname);
        put(p, end, " offset=");
        put_hex(p, end, pc - reinterpret_cast<uintptr_t>(where.dli_fbase));
    }
    *p++ = '\n';
    ssize_t ignored = write(2, line, static_cast<size_t>(p - line));
    (void)ignored;
    signal(sig, SIG_DFL);
    raise(sig);
}

inline void install() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace crash
}  // namespace ascgen
