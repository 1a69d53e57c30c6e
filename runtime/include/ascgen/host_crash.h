// Crash reporting for isolated mode (ascgen/runtime/isolate.py): in the worker process a SIGSEGV / SIGBUS /
// SIGFPE / SIGILL / SIGABRT prints one line the parent parses, then the worker dies of the same signal:
//
//   ASCGEN-CRASH signal=11 addr=0x0 sp=0x7f.. core=AIV3 kernel=add_custom module=/cache/x.so offset=0x1234
//                frames=/cache/k.so:0x1200,0x1180
//
// `offset` is the faulting instruction inside the module, which the parent maps to file:line with
// addr2line (isolated modules are built with line tables, -g1). `frames` are the return addresses inside
// the kernel's own module, innermost first: when the fault is in libc (abort, raise) the parent walks
// them to the user's line. `sp` lets the parent recognise a stack overflow (a fault next to the stack
// pointer). Only async-signal-safe calls, apart from dladdr and backtrace, the best available, which run
// once on a dying process.
#pragma once
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>

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

inline uintptr_t fault_sp(void* context) {
    auto* uc = static_cast<ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
    (void)uc;
    return 0;
#endif
}

// The module this header was compiled into (the kernel's): the crash handler's own address says.
inline void own_module_marker() {}

inline void put_frames(char*& p, const char* end) {
    Dl_info self;
    if (!dladdr(reinterpret_cast<void*>(&own_module_marker), &self) || !self.dli_fname) return;
    void* stack[64];
    int n = backtrace(stack, 64);
    bool first = true;
    int shown = 0;
    for (int i = 0; i < n && shown < 24; ++i) {
        Dl_info where;
        if (!dladdr(stack[i], &where) || where.dli_fbase != self.dli_fbase) continue;
        put(p, end, first ? " frames=" : ",");
        if (first) { put(p, end, self.dli_fname); put(p, end, ":"); }
        // A return address: the call is the instruction before it.
        put_hex(p, end, reinterpret_cast<uintptr_t>(stack[i]) - reinterpret_cast<uintptr_t>(self.dli_fbase) - 1);
        first = false;
        ++shown;
    }
}

// Several cores may fault at once: the first writes its line, the others wait for the process to die (the
// parent reads one whole line, never two interleaved or a second core's fault killing the first's report).
inline std::atomic_flag reporting = ATOMIC_FLAG_INIT;

inline void handler(int sig, siginfo_t* info, void* context) {
    if (reporting.test_and_set()) {
        for (;;) pause();
    }
    char line[1024];
    char* p = line;
    const char* end = line + sizeof line - 2;
    put(p, end, "ASCGEN-CRASH signal=");
    put_dec(p, end, sig);
    put(p, end, " addr=");
    put_hex(p, end, reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr));
    put(p, end, " sp=");
    put_hex(p, end, fault_sp(context));
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
    put_frames(p, end);
    *p++ = '\n';
    ssize_t ignored = write(2, line, static_cast<size_t>(p - line));
    (void)ignored;
    signal(sig, SIG_DFL);
    ::raise(sig);      // qualified: a user's `using namespace AscendC;` before this header (an op's force-included
                       // tiling header) would make the unqualified call ambiguous with AscendC::raise (stub_def.h)
}

inline bool installed = false;

// Core threads run on their own stacks: an alternate signal stack per thread lets the handler run after
// a stack overflow (unbounded recursion) instead of the process dying silently. Isolated workers only.
inline void on_core_thread() {
    static thread_local bool done = false;
    if (!installed || done) return;
    done = true;
    static constexpr size_t kSize = 64 * 1024;
    stack_t alt;
    alt.ss_sp = ::operator new(kSize);     // lives as long as the thread (the worker is short-lived)
    alt.ss_size = kSize;
    alt.ss_flags = 0;
    sigaltstack(&alt, nullptr);
}

inline void install() {
    installed = true;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;      // the handler itself restores the default action
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace crash
}  // namespace ascgen
