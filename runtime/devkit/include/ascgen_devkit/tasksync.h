// Task sync and SyncAll as the library emits them, recognised by the library function that issues them.
//
// The real library has no call-level hook: with the SuperKernel compiler's macros
// (__ASCENDC_ENABLE_SET_NEXT_TASK_START, __ASCENDC_ENABLE_WAIT_PRE_TASK_END, early start V1) its
// SetNextTaskStart / WaitPreTaskEnd / SyncAll become fixed sequences of ffts_cross_core_sync (set) and
// wait_flag_dev (wait) on flags 11-14 (S<mode>_<flag>, W<flag>):
//   AIV  SyncAll<true>   S0_14 W14            AIC  SyncAll<false>  W12 S0_11 W11 S2_13
//        SyncAll<false>  S2_12 W13                 SetNextTaskStart S0_11
//        SetNextTaskStart S0_14                    WaitPreTaskEnd   W11 S2_13 W12
//        WaitPreTaskEnd  W14 S2_12 W13
// A kernel's own CrossCoreSetFlag / CrossCoreWaitFlag may use the same flags and the same shapes
// (cross_core_set_wait_flag: `S0_11 W11` on the AIC, `S2_12 W13` on the AIV), so the flags alone cannot
// tell them apart. Both intrinsics therefore take the name of their calling function as a defaulted
// argument (__builtin_FUNCTION(), fixed where the call is written, whatever gets inlined): only the calls
// written inside the library's SyncAllImpl / SetNextTaskStart*Impl / WaitPreTaskEnd*Impl are collected
// here (one library call issues its whole sequence with nothing in between) and handed to the core as one
// call (rt::sync_all, rt::set_next_task_start, rt::wait_pre_task_end), so the SuperKernel boundary
// semantics, call counts, hang and race detectors see them as on the builtin backend. Every other call
// (CrossCoreSetFlag's NotifyEventImpl, the C API, a kernel calling the intrinsic itself) is a raw flag. A
// library sequence of a shape not listed above (another early-start configuration) is replayed as raw
// flags, in order.
#pragma once
#include <cstdint>
#include <cstring>
#include <exception>
#include "ascgen/rt.h"
#include "site.h"   // at(name): the call site, for the reports

namespace ascgen_devkit {

// A fault cancels the run by throwing rt::Cancelled through the kernel; the library's destructors (TPipe
// waits for its events) then call intrinsics while the exception unwinds. They must not throw again
// (that would terminate the process), so during unwinding the intrinsics neither poll nor talk to the core.
inline bool unwinding() { return std::uncaught_exceptions() > 0; }

// Which library call a flag operation belongs to, from the name of the function that issued it.
enum class SyncCall { None, SyncAll, SetNextTaskStart, WaitPreTaskEnd };
inline SyncCall sync_call_of(const char* caller) {
    if (!caller) return SyncCall::None;
    if (!std::strcmp(caller, "SyncAllImpl") || !std::strcmp(caller, "SuperKernelAutoSyncAllImpl"))
        return SyncCall::SyncAll;
    if (!std::strncmp(caller, "SetNextTaskStart", 16)) return SyncCall::SetNextTaskStart;   // Impl, V3Impl
    if (!std::strncmp(caller, "WaitPreTaskEnd", 14)) return SyncCall::WaitPreTaskEnd;       // Impl, V2/V3Impl
    return SyncCall::None;
}

struct FlagOp {
    bool set;
    int mode, pipe, flag;
    ::ascgen::rt::Loc loc{nullptr, 0};   // the call site, captured when the op is issued (flag_op)
};

struct TaskSync {
    FlagOp ops[4];
    int n = 0;
    SyncCall call = SyncCall::None;
};
inline TaskSync tsync;

// Parse a pattern ("S0_14 W13": set mode 0 on flag 14, wait on flag 13) into ops; returns their count.
inline int parse(const char* pattern, FlagOp* out) {
    int m = 0;
    for (const char* p = pattern; *p && m < 4;) {
        if (*p == ' ') { ++p; continue; }
        if (*p == 'S') { out[m++] = FlagOp{true, p[1] - '0', 0, (p[3] - '0') * 10 + (p[4] - '0')}; p += 5; }
        else { out[m++] = FlagOp{false, 0, 0, (p[1] - '0') * 10 + (p[2] - '0')}; p += 3; }
    }
    return m;
}
// Do the first n ops equal the pattern's first n (prefix) or all of it (!prefix)?
inline bool fits(const FlagOp* ops, int n, const char* pattern, bool prefix) {
    FlagOp want[4];
    int m = parse(pattern, want);
    if (n > m || (!prefix && n != m)) return false;
    for (int i = 0; i < n; ++i) {
        if (ops[i].set != want[i].set || ops[i].flag != want[i].flag) return false;
        if (ops[i].set && ops[i].mode != want[i].mode) return false;
    }
    return true;
}
inline bool matches(const FlagOp* ops, int n, const char* pattern) { return fits(ops, n, pattern, false); }

inline void raw(const FlagOp& o) {
    if (o.set) ::ascgen::rt::cross_core_set_flag(o.mode, o.pipe, o.flag, o.loc);
    else ::ascgen::rt::cross_core_wait_flag(o.flag, o.loc);
}

inline void replay_raw() {
    TaskSync t = tsync;
    tsync.n = 0;
    tsync.call = SyncCall::None;
    for (int i = 0; i < t.n; ++i) raw(t.ops[i]);
}

// A library sequence cut short (another intrinsic, or the end of the kernel): its flags as they were.
inline void flush_sync() {
    if (tsync.n == 0 || unwinding()) return;
    replay_raw();
}

// Every other intrinsic calls this first: it ends a pending sequence and polls for cancellation.
inline void tick() {
    if (unwinding()) return;
    if (tsync.n) flush_sync();
    ::ascgen::rt::poll();
}

// The library sequences of one call kind for this core type (kind: 0 sync_all(aiv only), 1 sync_all(mixed),
// 2 wait_pre_task_end, 3 set_next_task_start).
struct Pattern { const char* ops; int kind; };
inline int patterns(SyncCall call, bool aic, const Pattern** out) {
    static const Pattern aiv_sync[] = {{"S0_14 W14", 0}, {"S2_12 W13", 1}};
    static const Pattern aic_sync[] = {{"W12 S0_11 W11 S2_13", 1}, {"S0_14 W14", 0}};
    static const Pattern aiv_wait[] = {{"W14 S2_12 W13", 2}};
    static const Pattern aic_wait[] = {{"W11 S2_13 W12", 2}};
    static const Pattern aiv_set[] = {{"S0_14", 3}};
    static const Pattern aic_set[] = {{"S0_11", 3}};
    switch (call) {
        case SyncCall::SyncAll: *out = aic ? aic_sync : aiv_sync; return 2;
        case SyncCall::WaitPreTaskEnd: *out = aic ? aic_wait : aiv_wait; return 1;
        case SyncCall::SetNextTaskStart: *out = aic ? aic_set : aiv_set; return 1;
        default: return 0;
    }
}

inline void issue(int kind, const FlagOp& first, bool aic) {
    namespace rt = ::ascgen::rt;
    if (kind == 3)
        rt::set_next_task_start(aic ? rt::pipe::MTE3 : first.pipe, aic ? first.pipe : rt::pipe::FIX, false,
                                at("SetNextTaskStart"));
    else if (kind == 2) rt::wait_pre_task_end(false, at("WaitPreTaskEnd"));
    else rt::sync_all(kind == 0, at("SyncAll"));
}

// One flag operation, from the function `caller` (ffts_cross_core_sync / wait_flag_dev, sync.h).
inline void flag_op(FlagOp op, const char* caller) {
    if (unwinding()) return;
    ::ascgen::rt::poll();
    op.loc = at(op.set ? "ffts_cross_core_sync" : "wait_flag_dev");   // a raw flag's, or a replayed one's
    const SyncCall call = sync_call_of(caller);
    if (tsync.n && (call != tsync.call || tsync.n == 4)) flush_sync();
    if (call == SyncCall::None) return raw(op);
    tsync.call = call;
    tsync.ops[tsync.n++] = op;
    const bool aic = ::ascgen::rt::core_type() == ::ascgen::rt::CoreType::AIC;
    const Pattern* ps = nullptr;
    const int np = patterns(call, aic, &ps);
    bool prefix = false;
    for (int i = 0; i < np; ++i) {
        if (matches(tsync.ops, tsync.n, ps[i].ops)) {
            const FlagOp first = tsync.ops[0];
            tsync.n = 0;
            tsync.call = SyncCall::None;
            return issue(ps[i].kind, first, aic);
        }
        prefix = prefix || fits(tsync.ops, tsync.n, ps[i].ops, true);
    }
    if (!prefix) replay_raw();
}

}  // namespace ascgen_devkit
