// What one core thread does: the tasks in order, the SuperKernel boundaries between them (the wait
// table of tasksync-semantics.md 3.1 and the SK generator's complement logic), the task-sync calls, SyncAll
// and the feed-sync-all complement. A plain launch is a one-task run without boundaries.
#include <cstring>
#include <algorithm>

#include "state.h"

namespace ascgen {
namespace core {

namespace {

constexpr int F_AIC_ALL = 11, F_AIV_TO_AIC = 12, F_AIC_TO_AIV = 13, F_AIV_ALL = 14;

struct Op {
    bool set;
    int flag;
};

bool uses_type(TaskKind k, rt::CoreType t) {
    return k == T_MIX || (k == T_AIC) == (t == rt::CoreType::AIC);
}

// The wait half of the boundary prev -> cur on one core (the table in 3.1). Sets here are mode-2 relays.
std::vector<Op> wait_half(TaskKind prev, TaskKind cur, rt::CoreType t) {
    static const std::vector<Op> table[2][9] = {
        // AIC core, index prev*3 + cur
        {{{false, F_AIC_ALL}},                                          // AIC -> AIC
         {{false, F_AIC_ALL}, {true, F_AIC_TO_AIV}},                    // AIC -> AIV
         {{false, F_AIC_ALL}, {true, F_AIC_TO_AIV}},                    // AIC -> MIX
         {{false, F_AIV_TO_AIC}},                                       // AIV -> AIC
         {},                                                            // AIV -> AIV
         {{false, F_AIV_TO_AIC}},                                       // AIV -> MIX
         {{false, F_AIC_ALL}, {false, F_AIV_TO_AIC}},                   // MIX -> AIC
         {{false, F_AIC_ALL}, {true, F_AIC_TO_AIV}},                    // MIX -> AIV
         {{false, F_AIC_ALL}, {true, F_AIC_TO_AIV}, {false, F_AIV_TO_AIC}}},   // MIX -> MIX
        // AIV core
        {{},
         {{false, F_AIC_TO_AIV}},
         {{false, F_AIC_TO_AIV}},
         {{false, F_AIV_ALL}, {true, F_AIV_TO_AIC}},
         {{false, F_AIV_ALL}},
         {{false, F_AIV_ALL}, {true, F_AIV_TO_AIC}},
         {{false, F_AIV_ALL}, {true, F_AIV_TO_AIC}},
         {{false, F_AIV_ALL}, {false, F_AIC_TO_AIV}},
         {{false, F_AIV_ALL}, {true, F_AIV_TO_AIC}, {false, F_AIC_TO_AIV}}},
    };
    return table[t == rt::CoreType::AIC ? 0 : 1][prev * 3 + cur];
}

// The source a wait on `flag` consumes, for the hang report.
WaitDesc desc_for(CoreState& me, WaitKind kind, int flag, rt::Loc loc, int task) {
    WaitDesc d;
    d.kind = kind;
    d.flag = flag;
    d.loc = loc;
    d.task = task;
    switch (flag) {
        case F_AIC_ALL: d.src_kind = SRC_MODE0; d.src_scope = (int)rt::CoreType::AIC; break;
        case F_AIV_ALL: d.src_kind = SRC_MODE0; d.src_scope = (int)me.type; break;
        case F_AIV_TO_AIC: d.src_kind = SRC_V2C; d.src_scope = me.group; break;
        case F_AIC_TO_AIV: d.src_kind = SRC_C2V; d.src_scope = me.group; break;
    }
    return d;
}

void run_ops(Run& run, CoreState& me, const std::vector<Op>& ops, WaitKind kind, rt::Loc loc, int task) {
    for (const Op& op : ops) {
        if (op.set) flag_set(run, me, 2, rt::pipe::MTE3, op.flag, loc);
        else flag_wait(run, me, op.flag, desc_for(me, kind, op.flag, loc, task));
    }
}

bool effective_early_start(Run& run) { return run.sk() && run.cfg.effective && run.cfg.early_start == 1; }
bool split_barrier(Run& run) { return run.sk() && run.cfg.effective && run.cfg.early_start != 0; }

bool active_in(Run& run, CoreState& me, int k) {
    const TaskInfo& t = run.tasks[k];
    return me.index < (me.type == rt::CoreType::AIC ? t.aic_need : t.aiv_need);
}

void set_half(Run& run, CoreState& me, int k, int aiv_pipe, int aic_pipe, rt::Loc loc) {
    if (!uses_type(run.tasks[k].kind, me.type)) return;
    bool aic = me.type == rt::CoreType::AIC;
    int pipe = aic ? aic_pipe : aiv_pipe;
    if (timeline::enabled()) timeline::mark_at(me.id, k, timeline::Mark::Set, timeline::fire_time(me.id, pipe), loc);
    flag_set(run, me, 0, pipe, aic ? F_AIC_ALL : F_AIV_ALL, loc);
}

void do_wait_half(Run& run, CoreState& me, int k, rt::Loc loc) {
    if (timeline::enabled()) timeline::mark(me.id, k, timeline::Mark::WaitBegin, loc);
    run_ops(run, me, wait_half(run.tasks[k - 1].kind, run.tasks[k].kind, me.type), WaitKind::Boundary, loc, k);
    if (timeline::enabled()) timeline::mark(me.id, k, timeline::Mark::WaitEnd, loc);
}

void barrier(Run& run, CoreState& me, int after_task) {
    if (timeline::enabled()) timeline::mark(me.id, after_task, timeline::Mark::Barrier, rt::Loc{nullptr, 0});
    full_sync(run, me, false, WaitKind::Barrier, rt::Loc{nullptr, 0}, after_task);
}

void boundary_wait(Run& run, CoreState& me, int k) {
    if (!split_barrier(run)) {
        barrier(run, me, k - 1);
        return;
    }
    bool own = effective_early_start(run) && active_in(run, me, k) && run.tasks[k].uses_wait;
    if (!own) do_wait_half(run, me, k, rt::Loc{nullptr, 0});
}

void boundary_set(Run& run, CoreState& me, int k) {
    if (!split_barrier(run)) return;   // the full barrier before the next task does it all
    bool own = effective_early_start(run) && active_in(run, me, k) && run.tasks[k].uses_set;
    if (!own) set_half(run, me, k, run.cfg.aiv_pipe_default, run.cfg.aic_pipe_default, rt::Loc{nullptr, 0});
}

void enter_task(Run& run, CoreState& me, int k) {
    const TaskInfo& t = run.tasks[k];
    me.task = k;
    me.active = active_in(run, me, k);
    bool mix12_aiv = t.kernel_type == K_MIX12 && me.type == rt::CoreType::AIV && run.cfg.separated;
    me.block_idx = me.index;
    me.block_num = t.block_dim;
    me.sub_block = mix12_aiv ? me.index % 2 : 0;
    me.ratio = mix12_aiv ? 2 : 1;
    me.sets = me.waits = 0;
    me.feed_seen = 0;
    me.set_loc = me.wait_loc = rt::Loc{nullptr, 0};
    me.window = effective_early_start(run) && k > 0 && t.uses_wait ? 1 : 0;
}

void call_task(Run& run, CoreState& me, int k) {
    const TaskInfo& t = run.tasks[k];
    if (timeline::enabled()) timeline::mark(me.id, k, timeline::Mark::TaskBegin, rt::Loc{t.source.c_str(), 0});
    perturb(run, &me);
    if (t.thunk) t.thunk(t.ctx);
    else t.entry(t.args);
    if (timeline::enabled()) timeline::mark(me.id, k, timeline::Mark::TaskEnd, rt::Loc{t.source.c_str(), 0});
    if (!effective_early_start(run)) return;
    if (k > 0 && t.uses_wait && me.waits == 0) {
        rt::Loc other{nullptr, 0};
        {
            std::lock_guard<std::mutex> lk(run.mu);
            other = run.task_wait_loc[k];
        }
        std::string msg = format(
            "task %d \"%s\" finished on %s without calling WaitPreTaskEnd\n"
            "The task uses WaitPreTaskEnd (%s), so the SuperKernel does not wait for the previous "
            "task on this core: its round stays unconsumed and the core may read data the previous task is still "
            "writing\nHint: call WaitPreTaskEnd exactly once on every core, before the first GM access, outside "
            "loops and branches", k, t.name.c_str(), me.label.c_str(),
            other.file ? ("other cores call it at " + loc_str(other)).c_str()
                       : "registered with Task.uses_wait; no core has called it yet");
        record_fault(run, rt::Fault::SyncCount, msg, &me, other);
        throw_cancelled();
    }
    if (k + 1 < run.task_count() && t.uses_set && me.sets == 0) {
        std::lock_guard<std::mutex> lk(run.mu);
        me.missed[k] = format("finished task %d \"%s\" without SetNextTaskStart", k, t.name.c_str());
    }
}

void task_done(Run& run, int k) {
    std::lock_guard<std::mutex> lk(run.mu);
    const TaskInfo& t = run.tasks[k];
    int active = std::min(t.aic_need, run.aic) + std::min(t.aiv_need, run.aiv);
    if (++run.task_finished[k] >= active && !run.feed_end[k]) {
        run.feed_end[k] = 1;
        for (auto& c : run.cores) c->cv.notify_all();
    }
}

// feed-sync-all=1: an idle core repeats every SyncAll the task's active cores publish, until they finish.
void feed_complement(Run& run, CoreState& me, int k) {
    me.feed_seen = 0;
    for (;;) {
        std::unique_lock<std::mutex> lk(run.mu);
        if (!(run.feed_pub[k] > me.feed_seen || run.feed_end[k])) {
            WaitDesc d;
            d.kind = WaitKind::Feed;
            d.task = k;
            block_until_locked(run, me, lk, d);
        }
        if (run.feed_pub[k] <= me.feed_seen) return;   // the task ended
        bool aiv_only = run.feed_aiv_only[k][me.feed_seen++] != 0;
        lk.unlock();
        if (!aiv_only || me.type == rt::CoreType::AIV) full_sync(run, me, aiv_only, WaitKind::SyncAll, rt::Loc{nullptr, 0}, k);
    }
}

bool valid_aiv_pipe(int p) { return p == rt::pipe::MTE2 || p == rt::pipe::MTE3 || p == rt::pipe::S || p == rt::pipe::V; }
bool valid_aic_pipe(int p) {
    return p == rt::pipe::MTE1 || p == rt::pipe::MTE2 || p == rt::pipe::MTE3 || p == rt::pipe::FIX || p == rt::pipe::M;
}

// Whether an own task-sync call does anything here; otherwise it is compiled out (with a lint saying why).
bool call_effective(Run& run, CoreState& me, bool is_set, rt::Loc loc) {
    const char* call = is_set ? "SetNextTaskStart" : "WaitPreTaskEnd";
    int k = me.task;
    if (!run.cfg.effective) {
        add_lint(run, loc, "note", "tasksync-compile-only",
                 format("%s has no effect on %s: task sync is compile-only on this product", call, run.product.c_str()));
        return false;
    }
    if (run.cfg.early_start == 0) {
        add_lint(run, loc, "note", "sk-early-start-off",
                 format("%s is compiled out: early start is off (early-start=0 or stream-fusion=1), tasks are separated "
                        "by a full barrier", call));
        return false;
    }
    if (run.cfg.early_start == 2) {
        add_lint(run, loc, "note", "sk-early-start-2",
                 format("%s is compiled out: early-start=2 inserts the boundary calls at task entry and exit", call));
        return false;
    }
    if (!is_set && k == 0) {
        add_lint(run, loc, "note", "sk-first-task-wait",
                 format("WaitPreTaskEnd in the first task \"%s\" is compiled out (no barrier before the first task)",
                        run.tasks[k].name.c_str()));
        return false;
    }
    if (is_set && k == run.task_count() - 1) {
        add_lint(run, loc, "note", "sk-last-task-set",
                 format("SetNextTaskStart in the last task \"%s\" is compiled out (no barrier after the last task)",
                        run.tasks[k].name.c_str()));
        return false;
    }
    return true;
}

bool loc_before(rt::Loc a, rt::Loc b) {
    int order = std::strcmp(a.file ? a.file : "", b.file ? b.file : "");
    return order < 0 || (order == 0 && a.line < b.line);
}

void count_call(Run& run, CoreState& me, bool is_set, rt::Loc loc) {
    const char* call = is_set ? "SetNextTaskStart" : "WaitPreTaskEnd";
    const TaskInfo& t = run.tasks[me.task];
    if (!(is_set ? t.uses_set : t.uses_wait))
        rt::fail(rt::Fault::SyncCount, loc,
                 "%s called in task %d \"%s\", which was registered as not using it\nThe SuperKernel then also inserts "
                 "its own %s for this task, so the round would be released twice\nHint: let ascgen detect the calls "
                 "from the source (Task.uses_%s) or write the call literally as `AscendC::%s<...>();`",
                 call, me.task, t.name.c_str(), call, is_set ? "set" : "wait", call);
    int& n = is_set ? me.sets : me.waits;
    rt::Loc& first = is_set ? me.set_loc : me.wait_loc;
    if (n >= 1)
        rt::fail(rt::Fault::SyncCount, loc,
                 "%s called twice in task %d \"%s\" on %s (first at %s, again at %s)\nEach call releases one round: an "
                 "extra round lets the next boundary release early (a silent race) or starves a later wait\nHint: call "
                 "%s exactly once on every core, outside loops and branches",
                 call, me.task, t.name.c_str(), me.label.c_str(), loc_str(first).c_str(), loc_str(loc).c_str(), call);
    n++;
    first = loc;
    std::lock_guard<std::mutex> lk(run.mu);
    rt::Loc& task_loc = is_set ? run.task_set_loc[me.task] : run.task_wait_loc[me.task];
    // The smallest location, not the first caller's: reports that quote it must not depend on which core
    // the scheduler ran first (calls on different lines, e.g. in both arms of a branch).
    if (!task_loc.file || loc_before(loc, task_loc)) task_loc = loc;
}

}  // namespace

// SyncAll (and the SK's full barrier) as the library builds it on flags 11-14. Sets use PIPE_ALL for the
// timeline: the hardware SyncAll starts with PipeBarrier<PIPE_ALL>.
void full_sync(Run& run, CoreState& me, bool aiv_only, WaitKind kind, rt::Loc loc, int task) {
    bool mixed = run.cfg.separated && run.aic > 0 && run.aiv > 0;
    const int all = rt::pipe::ALL;
    if (aiv_only || !mixed) {   // one core type: a mode-0 round of the caller's type
        int flag = me.type == rt::CoreType::AIC ? F_AIC_ALL : F_AIV_ALL;
        flag_set(run, me, 0, all, flag, loc);
        flag_wait(run, me, flag, desc_for(me, kind, flag, loc, task));
        return;
    }
    if (me.type == rt::CoreType::AIV) {   // the hardware SyncAll of a MIX launch
        flag_set(run, me, 2, all, F_AIV_TO_AIC, loc);
        flag_wait(run, me, F_AIC_TO_AIV, desc_for(me, kind, F_AIC_TO_AIV, loc, task));
    } else {
        flag_wait(run, me, F_AIV_TO_AIC, desc_for(me, kind, F_AIV_TO_AIC, loc, task));
        flag_set(run, me, 0, all, F_AIC_ALL, loc);
        flag_wait(run, me, F_AIC_ALL, desc_for(me, kind, F_AIC_ALL, loc, task));
        flag_set(run, me, 2, all, F_AIC_TO_AIV, loc);
    }
}

void core_body(Run& run, CoreState& me) {
    int tasks = run.task_count();
    for (int k = 0; k < tasks; ++k) {
        if (run.sk() && k > 0) {
            me.task = k;
            boundary_wait(run, me, k);
        }
        enter_task(run, me, k);
        if (me.active) {
            call_task(run, me, k);
            task_done(run, k);
        } else if (run.sk() && run.cfg.feed_sync_all && run.tasks[k].uses_sync_all) {
            feed_complement(run, me, k);
        }
        me.window = 0;
        if (run.sk() && k + 1 < tasks) {
            boundary_set(run, me, k);
            if (run.cfg.debug_sync_all) barrier(run, me, k);
        }
    }
}

}  // namespace core

// ---- rt.h: synchronisation hooks ----
namespace rt {
using namespace core;

void cross_core_set_flag(int mode, int pipe, int flag_id, Loc loc) {
    poll();
    Run* run = tl_run;
    if (!run || !tl_core) fail(Fault::Assert, loc, "CrossCoreSetFlag called outside a kernel launch");
    note_loc(tl_core, loc);
    if (!run->cfg.separated)
        fail(Fault::Assert, loc, "CrossCoreSetFlag is not available on %s: its AI Cores are coupled (no separate AIC/AIV)"
             "\nHint: use SyncAll to synchronise all cores", run->product.c_str());
    if (pipe == pipe::ALL || (pipe == pipe::S && mode != 4))
        fail(Fault::Assert, loc, "CrossCoreSetFlag<%d, %s>: PIPE_ALL%s cannot carry a cross-core set\nHint: use the pipe "
             "of the last instruction the other cores must see (PIPE_MTE3 for UB->GM, PIPE_FIX for L0C->GM)", mode,
             pipe == pipe::ALL ? "PIPE_ALL" : "PIPE_S", mode == 4 ? "" : " and PIPE_S");
    flag_set(*run, *tl_core, mode, pipe, flag_id, loc);
}

void allow_unconsumed_flags(Loc loc) {
    if (!tl_run || !tl_core) fail(Fault::Assert, loc, "allow_unconsumed_flags called outside a kernel launch");
    tl_core->unconsumed_ok = true;
}

void cross_core_wait_flag(int flag_id, Loc loc) {
    poll();
    Run* run = tl_run;
    if (!run || !tl_core) fail(Fault::Assert, loc, "CrossCoreWaitFlag called outside a kernel launch");
    note_loc(tl_core, loc);
    if (!run->cfg.separated)
        fail(Fault::Assert, loc, "CrossCoreWaitFlag is not available on %s: its AI Cores are coupled",
             run->product.c_str());
    int hi = run->cfg.npu_arch == 3510 && tl_core->type == CoreType::AIC ? 26 : 15;
    if (flag_id < 0 || flag_id > hi)
        fail(Fault::Assert, loc, "CrossCoreWaitFlag flag id %d is out of range 0..%d", flag_id, hi);
    WaitDesc d;
    d.kind = WaitKind::User;
    d.loc = loc;
    d.task = tl_core->task;
    flag_wait(*run, *tl_core, flag_id, d);
}

void sync_all(bool aiv_only, Loc loc) {
    poll();
    Run* run = tl_run;
    if (!run || !tl_core) fail(Fault::Assert, loc, "SyncAll called outside a kernel launch");
    CoreState& me = *tl_core;
    note_loc(&me, loc);
    if (run->sk() && me.task >= 0) {
        std::lock_guard<std::mutex> lk(run->mu);
        int k = me.task;
        run->syncall_in_task[k]++;
        if (run->cfg.feed_sync_all && run->tasks[k].uses_sync_all) {
            // The n-th SyncAll of the task is published once, by the first active core to reach it.
            int n = me.feed_seen++;   // active cores count their own SyncAll calls here
            if (run->feed_pub[k] <= n) {
                run->feed_aiv_only[k].push_back(aiv_only ? 1 : 0);
                run->feed_pub[k] = n + 1;
                for (auto& c : run->cores) c->cv.notify_all();
            }
        }
    }
    if (timeline::enabled()) timeline::mark(me.id, me.task, timeline::Mark::Barrier, loc);
    full_sync(*run, me, aiv_only || !run->cfg.separated, WaitKind::SyncAll, loc, me.task);
}

void set_next_task_start(int aiv_pipe, int aic_pipe, bool force, Loc loc) {
    (void)force;   // FORCE enables offline SK builds; the emulator's SuperKernel is always enabled
    poll();
    Run* run = tl_run;
    CoreState* me = tl_core;
    if (!run || !me) return;
    note_loc(me, loc);
    if (!valid_aiv_pipe(aiv_pipe))
        fail(Fault::Assert, loc, "SetNextTaskStart: AIV_PIPE %d is not allowed\nHint: use PIPE_MTE3 (after UB->GM "
             "copies), PIPE_MTE2, PIPE_S or PIPE_V", aiv_pipe);
    if (!valid_aic_pipe(aic_pipe))
        fail(Fault::Assert, loc, "SetNextTaskStart: AIC_PIPE %d is not allowed\nHint: use PIPE_FIX (after Fixpipe), "
             "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_M", aic_pipe);
    if (!run->sk() || !call_effective(*run, *me, true, loc)) return;
    count_call(*run, *me, true, loc);
    if (hb::enabled()) hb::note_call(me->id, me->task, true, loc);
    set_half(*run, *me, me->task, aiv_pipe, aic_pipe, loc);
    me->window = 2;
}

void wait_pre_task_end(bool force, Loc loc) {
    (void)force;
    poll();
    Run* run = tl_run;
    CoreState* me = tl_core;
    if (!run || !me) return;
    note_loc(me, loc);
    if (!run->sk() || !call_effective(*run, *me, false, loc)) return;
    count_call(*run, *me, false, loc);
    if (hb::enabled()) hb::note_call(me->id, me->task, false, loc);
    do_wait_half(*run, *me, me->task, loc);
    me->window = 0;
}

}  // namespace rt
}  // namespace ascgen
