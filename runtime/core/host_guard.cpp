// A host program that crashes in-process (a wild pointer, glibc's heap check aborting on a double free)
// takes the Python process with it: nothing can be recovered after memory is corrupted. What ascgen can do
// is say so. While a program's main runs, a fatal signal first writes one line naming the program, the
// signal and the way to a full report (`ascgen run --isolated`), then goes on to what was installed
// before (the default action: the process dies of the same signal, with the same exit status).
//
// Only when nothing else handles the signal: an isolated worker has its own crash handler, whose
// machine-readable line the parent turns into a KernelCrashError, and pytest's faulthandler prints
// tracebacks; both keep their handler and get no hint. Async-signal-safe: the line is built in a local buffer
// and written with one write(2). Several cores may fault at once: the first one writes, the others wait for
// the process to die, so the report is one whole line, never two interleaved.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "host_guard.h"

namespace ascgen {
namespace core {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kCount = sizeof kSignals / sizeof kSignals[0];

struct sigaction g_before[kCount];
bool g_guarded[kCount];
char g_program[512];

const char* describe(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV (an invalid memory access)";
        case SIGBUS: return "SIGBUS (a misaligned or unmapped memory access)";
        case SIGFPE: return "SIGFPE (an arithmetic fault such as an integer division by zero)";
        case SIGILL: return "SIGILL (an illegal instruction)";
        case SIGABRT: return "SIGABRT (abort(): an assert, or the C library finding its heap corrupted)";
        default: return "a fatal signal";
    }
}

std::atomic_flag g_reporting = ATOMIC_FLAG_INIT;

void put(char*& p, const char* end, const char* s) {
    while (*s && p < end) *p++ = *s++;
}

void on_fatal(int sig) {
    if (g_reporting.test_and_set()) {
        for (;;) pause();       // another thread is reporting and will take the process down
    }
    char line[1024];
    char* p = line;
    const char* end = line + sizeof line - 1;
    put(p, end, "ascgen: error: the host program ");
    put(p, end, g_program);
    put(p, end, " died of ");
    put(p, end, describe(sig));
    put(p, end, " inside this process, which cannot survive it. Rerun with `ascgen run --isolated` for a report "
        "naming the source line (and the kernel and core, if a kernel crashed).");
    *p++ = '\n';
    ssize_t ignored = write(2, line, static_cast<size_t>(p - line));
    (void)ignored;
    for (int i = 0; i < kCount; ++i) {
        if (kSignals[i] == sig) sigaction(sig, &g_before[i], nullptr);
    }
    // The signal is blocked while this handler runs: it is delivered again, to the action restored above,
    // when the handler returns (a faulting instruction faults again).
    raise(sig);
}

}  // namespace

void host_guard_begin(const char* program) {
    std::snprintf(g_program, sizeof g_program, "%s", program && *program ? program : "(unnamed)");
    for (int i = 0; i < kCount; ++i) {
        g_guarded[i] = false;
        if (sigaction(kSignals[i], nullptr, &g_before[i]) != 0) continue;
        bool is_default = !(g_before[i].sa_flags & SA_SIGINFO) && g_before[i].sa_handler == SIG_DFL;
        if (!is_default) continue;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        g_guarded[i] = sigaction(kSignals[i], &sa, nullptr) == 0;
    }
}

void host_guard_end() {
    for (int i = 0; i < kCount; ++i) {
        if (g_guarded[i]) sigaction(kSignals[i], &g_before[i], nullptr);
        g_guarded[i] = false;
    }
}

}  // namespace core
}  // namespace ascgen
