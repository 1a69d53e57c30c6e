// Task sync and SyncAll as the library emits them, recognised from flag traffic.
//
// The real library has no call-level hook: with the SuperKernel compiler's macros
// (__ASCENDC_ENABLE_SET_NEXT_TASK_START, __ASCENDC_ENABLE_WAIT_PRE_TASK_END, early start V1) its
// SetNextTaskStart / WaitPreTaskEnd / SyncAll become fixed sequences of ffts_cross_core_sync (set) and
// wait_flag_dev (wait) on flags 11-14 (S<mode>_<flag>, W<flag>):
//   AIV  SyncAll<true>   S0_14 W14            AIC  SyncAll<false>  W12 S0_11 W11 S2_13
//        SyncAll<false>  S2_12 W13                 SetNextTaskStart S0_11
//        SetNextTaskStart S0_14                    WaitPreTaskEnd   W11 S2_13 W12
//        WaitPreTaskEnd  W14 S2_12 W13
// This layer buffers the flag operations of one such sequence (nothing else runs in between) and hands the
// whole call to the core (rt::sync_all, rt::set_next_task_start, rt::wait_pre_task_end), so the
// SuperKernel boundary semantics, call counts, hang and race detectors see the calls as they do for the
// builtin backend. A lone S0_14 / S0_11 is a SetNextTaskStart once any other intrinsic (or the end of the
// kernel) follows; a buffer that matches no sequence is replayed as raw flags, in order.
#pragma once
#include <cstdint>
#include <exception>
#include "../../../include/ascgen/rt.h"
#include "site.h"

namespace ascgen_devkit {

// A fault cancels the run by throwing rt::Cancelled through the kernel; the library's destructors (TPipe
// waits for its events) then call intrinsics while the exception unwinds. They must not throw again
// (that would terminate the process), so during unwinding the intrinsics neither poll nor talk to the core.
inline bool unwinding() { return std::uncaught_exceptions() > 0; }

struct FlagOp {
    bool set;
    int mode, pipe, flag;
    ::ascgen::rt::Loc loc{nullptr, 0};   // the call site, captured when the op is issued (flag_op)
};

struct TaskSync {
    FlagOp ops[4];
    int n = 0;
};
inline TaskSync tsync;

inline bool is_sync_flag(int flag) { return flag >= 11 && flag <= 14; }

inline bool matches(const FlagOp* ops, int n, const char* pattern) {
    // pattern: space-separated tokens "S0_14", "W13"
    int i = 0;
    const char* p = pattern;
    while (*p) {
        while (*p == ' ') ++p;
        if (!*p) break;
        if (i >= n) return false;
        const FlagOp& o = ops[i++];
        if (*p == 'S') {
            int mode = p[1] - '0';
            int flag = (p[3] - '0') * 10 + (p[4] - '0');
            if (!o.set || o.mode != mode || o.flag != flag) return false;
            p += 5;
        } else {
            int flag = (p[1] - '0') * 10 + (p[2] - '0');
            if (o.set || o.flag != flag) return false;
            p += 3;
        }
    }
    return i == n;
}
inline bool is_prefix(const FlagOp* ops, int n, const char* pattern) {
    // Parse the pattern's tokens and compare the first n with ops.
    FlagOp tmp[4];
    int m = 0;
    const char* p = pattern;
    while (*p && m < 4) {
        while (*p == ' ') ++p;
        if (!*p) break;
        if (*p == 'S') { tmp[m++] = FlagOp{true, p[1] - '0', 0, (p[3] - '0') * 10 + (p[4] - '0')}; p += 5; }
        else { tmp[m++] = FlagOp{false, 0, 0, (p[1] - '0') * 10 + (p[2] - '0')}; p += 3; }
    }
    if (n > m) return false;
    for (int i = 0; i < n; ++i) {
        if (ops[i].set != tmp[i].set || ops[i].flag != tmp[i].flag) return false;
        if (ops[i].set && ops[i].mode != tmp[i].mode) return false;
    }
    return true;
}

inline void replay_raw() {
    TaskSync t = tsync;
    tsync.n = 0;
    for (int i = 0; i < t.n; ++i) {
        const FlagOp& o = t.ops[i];
        if (o.set) ::ascgen::rt::cross_core_set_flag(o.mode, o.pipe, o.flag, o.loc);
        else ::ascgen::rt::cross_core_wait_flag(o.flag, o.loc);
    }
}

// A pending lone set: the library's SetNextTaskStart (nothing else followed it in its sequence).
inline void flush_sync() {
    if (tsync.n == 0 || unwinding()) return;
    const bool aic = ::ascgen::rt::core_type() == ::ascgen::rt::CoreType::AIC;
    if (tsync.n == 1 && matches(tsync.ops, 1, aic ? "S0_11" : "S0_14")) {
        int pipe = tsync.ops[0].pipe;
        tsync.n = 0;
        ::ascgen::rt::set_next_task_start(aic ? ::ascgen::rt::pipe::MTE3 : pipe, aic ? pipe : ::ascgen::rt::pipe::FIX,
                                          false, tsync.ops[0].loc);
        return;
    }
    replay_raw();
}

// Every other intrinsic calls this first: it ends a pending sequence and polls for cancellation.
inline void tick() {
    if (unwinding()) return;
    if (tsync.n) flush_sync();
    ::ascgen::rt::poll();
}

// A buffered op keeps the site of its own call: a SetNextTaskStart is only recognised when the next
// intrinsic runs, and must name its own line, not the next one's.
inline const char* op_name(const FlagOp& op, bool aic) {
    if (op.set && op.mode == 0 && op.flag == (aic ? 11 : 14)) return "SetNextTaskStart";
    return op.set ? "ffts_cross_core_sync" : "wait_flag_dev";
}

inline void flag_op(FlagOp op) {
    if (unwinding()) return;
    ::ascgen::rt::poll();
    const bool aic = ::ascgen::rt::core_type() == ::ascgen::rt::CoreType::AIC;
    if (!op.loc.file) op.loc = at(is_sync_flag(op.flag) ? op_name(op, aic) : op.set ? "ffts_cross_core_sync" : "wait_flag_dev");
    if (!is_sync_flag(op.flag)) {
        if (tsync.n) flush_sync();
        if (op.set) ::ascgen::rt::cross_core_set_flag(op.mode, op.pipe, op.flag, op.loc);
        else ::ascgen::rt::cross_core_wait_flag(op.flag, op.loc);
        return;
    }
    if (tsync.n == 4) flush_sync();
    tsync.ops[tsync.n++] = op;
    struct Pattern { const char* ops; int kind; };  // kind: 0 sync_all(aiv only), 1 sync_all(mixed), 2 wait
    static const Pattern aiv[] = {{"S0_14 W14", 0}, {"S2_12 W13", 1}, {"W14 S2_12 W13", 2}};
    static const Pattern aicp[] = {{"W12 S0_11 W11 S2_13", 1}, {"W11 S2_13 W12", 2}};
    const Pattern* ps = aic ? aicp : aiv;
    const int np = aic ? 2 : 3;
    for (int i = 0; i < np; ++i)
        if (matches(tsync.ops, tsync.n, ps[i].ops)) {
            tsync.n = 0;
            if (ps[i].kind == 2) ::ascgen::rt::wait_pre_task_end(false, at("WaitPreTaskEnd"));
            else ::ascgen::rt::sync_all(ps[i].kind == 0, at("SyncAll"));
            return;
        }
    bool prefix = false;
    for (int i = 0; i < np; ++i) prefix = prefix || is_prefix(tsync.ops, tsync.n, ps[i].ops);
    // A lone set of the SetNextTaskStart shape waits for what follows.
    if (tsync.n == 1 && matches(tsync.ops, 1, aic ? "S0_11" : "S0_14")) return;
    if (prefix) return;
    // Not a library sequence: S0_14 followed by something else was a SetNextTaskStart, then go on.
    if (tsync.n >= 2 && matches(tsync.ops, 1, aic ? "S0_11" : "S0_14")) {
        FlagOp rest[4];
        int m = tsync.n - 1;
        for (int i = 0; i < m; ++i) rest[i] = tsync.ops[i + 1];
        tsync.n = 1;
        flush_sync();
        for (int i = 0; i < m; ++i) flag_op(rest[i]);
        return;
    }
    replay_raw();
}

}  // namespace ascgen_devkit
