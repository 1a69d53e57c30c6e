// Cross-core flags (tasksync-semantics.md 3.1): 16 counters per core, rounds that pair sets by number,
// waits that block while the counter is 0, and exact deadlock detection: when the last live core blocks
// and no blocked core's wait can be satisfied, the run stops with a Hang fault.
#include <algorithm>
#include <thread>

#include "state.h"

namespace ascgen {
namespace core {

static int aic_id(Run&, int c) { return c; }   // AIC cores come first
static int aiv_id(Run& run, int v) { return run.aic + v; }

static std::vector<int> group_aivs(Run& run, int group) {
    std::vector<int> out;
    int ratio = std::max(1, run.cfg.ratio);
    for (int v = group * ratio; v < (group + 1) * ratio && v < run.aiv; ++v) out.push_back(aiv_id(run, v));
    return out;
}

Rounds& rounds_for(Run& run, int src, int scope, int flag) {
    auto key = std::make_tuple(src, scope, flag);
    auto it = run.rounds.find(key);
    if (it != run.rounds.end()) return it->second;
    Rounds r;
    r.src = src;
    r.scope = scope;
    r.flag_in = r.flag_out = flag;
    switch (src) {
        case SRC_MODE0:
            for (auto& c : run.cores)
                if ((int)c->type == scope) r.participants.push_back(c->id);
            r.deliver = r.participants;
            break;
        case SRC_MODE1:
            r.participants = r.deliver = group_aivs(run, scope);
            break;
        case SRC_V2C:
            r.participants = group_aivs(run, scope);
            r.deliver = {aic_id(run, scope)};
            break;
        case SRC_C2V:
            r.participants = {aic_id(run, scope)};
            r.deliver = group_aivs(run, scope);
            break;
        case SRC_M4_V2C: {   // scope = group*2 + sub; AIV1's flags land on AIC flags 16..26
            auto aivs = group_aivs(run, scope / 2);
            if (scope % 2 < (int)aivs.size()) r.participants = {aivs[scope % 2]};
            r.deliver = {aic_id(run, scope / 2)};
            r.flag_out = flag + 16 * (scope % 2);
            break;
        }
        case SRC_M4_C2V: {
            auto aivs = group_aivs(run, scope / 2);
            r.participants = {aic_id(run, scope / 2)};
            if (scope % 2 < (int)aivs.size()) r.deliver = {aivs[scope % 2]};
            r.flag_out = flag - 16 * (scope % 2);
            break;
        }
    }
    r.counts.assign(r.participants.size(), 0);
    r.last_loc.assign(r.participants.size(), rt::Loc{nullptr, 0});
    return run.rounds.emplace(key, std::move(r)).first->second;
}

void perturb(Run& run, CoreState* me) {
    if (run.cfg.schedule_seed < 0 || !me) return;
    uint64_t r = me->rng();
    if ((r & 7) < 3) std::this_thread::yield();
    else if ((r & 7) == 3) std::this_thread::sleep_for(std::chrono::microseconds((r >> 8) % 200));
}

// A mode that does not exist for this launch is an Assert fault (checked before taking Run::mu).
static void validate_mode(Run& run, CoreState& me, int mode, rt::Loc loc) {
    if (mode != 0 && mode != 1 && mode != 2 && mode != 4)
        rt::fail(rt::Fault::Assert, loc, "CrossCoreSetFlag mode %d does not exist\nHint: modes are 0 (all cores of a "
                 "type), 1 (AIVs of one AI Core), 2 (AIC <-> its AIVs)%s", mode,
                 run.cfg.npu_arch == 3510 ? ", 4 (AIC <-> one AIV)" : "");
    bool mixed = run.cfg.separated && run.aic > 0 && run.aiv > 0;
    if (mode != 0 && !mixed)
        rt::fail(rt::Fault::Assert, loc,
                 "CrossCoreSetFlag mode %d needs a MIX kernel (AIC and AIV cores in one launch); this launch has "
                 "%d AIC and %d AIV cores\nHint: use mode 0 to synchronise cores of one type, or declare the kernel "
                 "KERNEL_TYPE_MIX_AIC_1_1 / 1_2", mode, run.aic, run.aiv);
    if (mode == 1 && me.type == rt::CoreType::AIC)
        rt::fail(rt::Fault::Assert, loc, "CrossCoreSetFlag mode 1 synchronises the AIVs of one AI Core; it was called "
                 "on %s (an AIC)", me.label.c_str());
}

// Which rounds a set feeds (modes already validated).
static Rounds& source_of_set(Run& run, CoreState& me, int mode, int flag) {
    bool aic = me.type == rt::CoreType::AIC;
    switch (mode) {
        case 1: return rounds_for(run, SRC_MODE1, me.group, flag);
        case 2: return aic ? rounds_for(run, SRC_C2V, me.index, flag) : rounds_for(run, SRC_V2C, me.group, flag);
        case 4:
            if (aic) return rounds_for(run, SRC_M4_C2V, me.index * 2 + (flag >= 16 ? 1 : 0), flag);
            return rounds_for(run, SRC_M4_V2C, me.group * 2 + me.sub, flag);
        default: return rounds_for(run, SRC_MODE0, (int)me.type, flag);
    }
}

static void validate_flag(Run& run, CoreState& me, int mode, int flag, rt::Loc loc) {
    int hi = 15;
    if (mode == 4) {
        if (run.cfg.npu_arch != 3510)
            rt::fail(rt::Fault::Assert, loc, "CrossCoreSetFlag mode 4 exists only on Ascend 950 (arch 3510), not on "
                     "%s (arch %d)", run.product.c_str(), run.cfg.npu_arch);
        hi = me.type == rt::CoreType::AIC ? 26 : 10;
        if (me.type == rt::CoreType::AIC && flag > 10 && flag < 16)
            rt::fail(rt::Fault::Assert, loc, "CrossCoreSetFlag mode 4 flag %d on an AIC: use 0..10 (to AIV0) or 16..26 "
                     "(to AIV1)", flag);
    }
    if (flag < 0 || flag > hi)
        rt::fail(rt::Fault::Assert, loc, "cross-core flag id %d is out of range 0..%d (mode %d)\nHint: the hardware "
                 "keeps only the low 4 bits, which silently aliases another flag", flag, hi, mode);
}

void flag_set(Run& run, CoreState& me, int mode, int pipe, int flag, rt::Loc loc) {
    validate_mode(run, me, mode, loc);
    validate_flag(run, me, mode, flag, loc);
    perturb(run, &me);
    hb::Clock clock = hb::enabled() ? hb::release(me.id) : hb::Clock();
    double fire = timeline::enabled() ? timeline::fire_time(me.id, pipe) : 0.0;
    std::unique_lock<std::mutex> lk(run.mu);
    if (run.cancelled.load()) {
        lk.unlock();
        throw_cancelled();
        return;
    }
    Rounds& r = source_of_set(run, me, mode, flag);
    auto pos = std::find(r.participants.begin(), r.participants.end(), me.id) - r.participants.begin();
    if (pos >= (long)r.participants.size()) {   // cannot happen: the source was chosen from me
        lk.unlock();
        rt::fail(rt::Fault::Assert, loc, "internal: %s is not a participant of flag %d mode %d", me.label.c_str(), flag, mode);
    }
    int count = ++r.counts[pos];
    r.last_loc[pos] = loc;
    size_t idx = count - 1 - r.completed;
    while (r.pending.size() <= idx) r.pending.push_back(Round{});
    Round& rd = r.pending[idx];
    rd.clock = hb::enabled() ? hb::join(rd.clock, clock) : rd.clock;
    rd.t = std::max(rd.t, fire);
    // A round completes once every participant has set at least `completed + 1` times.
    while (!r.pending.empty() && std::all_of(r.counts.begin(), r.counts.end(), [&](int n) { return n > r.completed; })) {
        Round done = r.pending.front();
        r.pending.pop_front();
        r.completed++;
        for (int d : r.deliver) {
            CoreState& dst = run.core(d);
            dst.flags[r.flag_out].push_back(Incr{done.clock, done.t + run.cfg.flag_round_cycles});
            if ((int)dst.flags[r.flag_out].size() > kFlagMax) {
                std::string msg = format(
                    "cross-core flag %d counter of %s overflowed (%zu increments not consumed; a counter holds 0..15)\n"
                    "set by %s at %s (mode %d), round %d\n"
                    "Hint: every CrossCoreSetFlag / SetNextTaskStart round needs a matching wait before 16 accumulate; "
                    "look for a set called in a loop", r.flag_out, dst.label.c_str(), dst.flags[r.flag_out].size(),
                    me.label.c_str(), loc_str(loc).c_str(), mode, r.completed);
                record_fault(run, rt::Fault::SyncCount, msg, &me, loc, true);
                lk.unlock();
                throw_cancelled();
                return;
            }
            dst.cv.notify_all();
        }
    }
}

void flag_wait(Run& run, CoreState& me, int flag, const WaitDesc& desc) {
    perturb(run, &me);
    std::unique_lock<std::mutex> lk(run.mu);
    if (me.flags[flag].empty()) {
        WaitDesc d = desc;
        d.flag = flag;
        block_until_locked(run, me, lk, d);
    }
    if (run.cancelled.load()) {
        lk.unlock();
        throw_cancelled();
        return;
    }
    Incr in = me.flags[flag].front();
    me.flags[flag].pop_front();
    lk.unlock();
    if (hb::enabled()) hb::acquire(me.id, in.clock);
    if (timeline::enabled()) timeline::advance_to(me.id, std::max(timeline::now(me.id), in.t));
}

bool wait_satisfiable_locked(Run& run, CoreState& c) {
    if (c.wait.kind == WaitKind::Feed) {
        int k = c.wait.task;
        return run.feed_pub[k] > c.feed_seen || run.feed_end[k];
    }
    return c.wait.flag >= 0 && !c.flags[c.wait.flag].empty();
}

void block_until_locked(Run& run, CoreState& me, std::unique_lock<std::mutex>& lk, const WaitDesc& desc) {
    me.status = Status::Blocked;
    me.wait = desc;
    check_deadlock_locked(run);
    while (!run.cancelled.load() && !wait_satisfiable_locked(run, me)) me.cv.wait(lk);
    me.status = Status::Running;
    if (run.cancelled.load()) {
        lk.unlock();
        throw_cancelled();
    }
}

// Exact: called whenever a core blocks or finishes, with Run::mu held, so no set can slip in between.
void check_deadlock_locked(Run& run) {
    if (run.cancelled.load()) return;
    CoreState* first = nullptr;
    for (auto& c : run.cores) {
        if (c->status == Status::Running) return;
        if (c->status == Status::Blocked) {
            if (wait_satisfiable_locked(run, *c)) return;
            if (!first) first = c.get();
        }
    }
    if (!first) return;   // every core finished
    std::string report = hang_report(run);
    record_fault(run, rt::Fault::Hang, report, first, first->wait.loc, true);
}

static constexpr size_t kCounterMax = 15;   // a flag counter's 4 bits

void end_of_run_checks(Run& run) {
    std::lock_guard<std::mutex> lk(run.mu);
    if (run.res.fault.kind != rt::Fault::None) return;
    std::vector<std::string> details;
    std::string summary, hint;
    rt::Loc where{nullptr, 0};
    for (auto& [key, r] : run.rounds) {
        if (r.pending.empty()) continue;
        std::vector<int> have, miss;
        for (size_t i = 0; i < r.participants.size(); ++i)
            (r.counts[i] > r.completed ? have : miss).push_back(r.participants[i]);
        int mode = r.src == SRC_MODE0 ? 0 : r.src == SRC_MODE1 ? 1 : (r.src <= SRC_C2V ? 2 : 4);
        rt::Loc at{nullptr, 0};
        for (size_t i = 0; i < r.participants.size(); ++i)
            if (r.counts[i] > r.completed && r.last_loc[i].file) at = r.last_loc[i];
        details.push_back(format("flag %d, mode %d: round %d was set by %s but never by %s (set at %s)", r.flag_in, mode,
                                 r.completed + 1, range_label(have, run).c_str(), range_label(miss, run).c_str(),
                                 loc_str(at).c_str()));
        if (summary.empty()) {
            summary = format("sync-count flag %d unequal sets (%s)", r.flag_in, loc_str(at).c_str());
            where = at;
        }
    }
    for (auto& c : run.cores)
        for (int f = 0; f < kFlags; ++f)
            if (!c->flags[f].empty() && !(c->unconsumed_ok && c->flags[f].size() <= kCounterMax)) {
                details.push_back(format("flag %d counter of %s is %zu at the end of the run (a completed round was "
                                         "never consumed by CrossCoreWaitFlag)", f, c->label.c_str(), c->flags[f].size()));
                if (summary.empty()) summary = format("sync-count flag %d left at %zu on %s", f, c->flags[f].size(),
                                                      c->label.c_str());
            }
    if (details.empty()) return;
    if (details.size() > 12) {
        size_t more = details.size() - 10;
        details.resize(10);
        details.push_back(format("... and %zu more", more));
    }
    hint = "pair every CrossCoreSetFlag with a CrossCoreWaitFlag on the receiving cores, the same number of times "
           "on every core (flags 11-14 are also used by SyncAll and the SuperKernel boundaries)";
    std::string report = fault_report("unbalanced cross-core flags at the end of the run", details, hint, summary);
    run.res.fault.kind = rt::Fault::SyncCount;
    run.res.fault.message = report;
    where = resolved(where);
    run.res.fault.file = where.file ? where.file : "";
    run.res.fault.line = where.line;
    if (run.task_count() == 1) run.res.fault.kernel = run.tasks[0].name;
}

}  // namespace core
}  // namespace ascgen
