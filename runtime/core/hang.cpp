// The hang report: which call every blocked core waits in, which round of which flag it needs, which
// cores never arrived and what each of them did instead. Written with Run::mu held, when every live core
// is blocked and no wait can be satisfied (flags.cpp decides that).
#include <algorithm>
#include <map>

#include "state.h"

namespace ascgen {
namespace core {

namespace {

int mode_of(int src) { return src == SRC_MODE0 ? 0 : src == SRC_MODE1 ? 1 : src <= SRC_C2V ? 2 : 4; }

const char* call_name(const WaitDesc& w) {
    switch (w.kind) {
        case WaitKind::Boundary: return "WaitPreTaskEnd";
        case WaitKind::SyncAll: return "SyncAll";
        case WaitKind::Barrier: return "the SuperKernel's full barrier";
        case WaitKind::Feed: return "the feed-sync-all complement (idle core)";
        default: return "CrossCoreWaitFlag";
    }
}

std::string task_ref(Run& run, int k) {
    if (k < 0 || k >= run.task_count()) return "the kernel";
    if (!run.sk()) return "kernel \"" + run.tasks[k].name + "\"";
    return format("task %d \"%s\"", k, run.tasks[k].name.c_str());
}

// The rounds a blocked core's wait is fed by: the expected source when the call knows it (boundaries,
// SyncAll), else the one with a round under way, else any source delivering to it.
Rounds* source_for(Run& run, CoreState& c) {
    const WaitDesc& w = c.wait;
    if (w.src_kind >= 0) return &rounds_for(run, w.src_kind, w.src_scope, w.flag);
    Rounds* any = nullptr;
    for (auto& [key, r] : run.rounds) {
        if (r.flag_out != w.flag || std::find(r.deliver.begin(), r.deliver.end(), c.id) == r.deliver.end()) continue;
        if (!r.pending.empty()) return &r;
        if (!any) any = &r;
    }
    return any;
}

// What a core that never arrived did instead.
std::string absent_reason(Run& run, CoreState& c, Rounds* r, size_t pos) {
    for (size_t k = 0; k < c.missed.size(); ++k)
        if (!c.missed[k].empty()) {
            std::string s = c.missed[k];
            if (k < run.task_set_loc.size() && run.task_set_loc[k].file)
                s += " (the call is at " + loc_str(run.task_set_loc[k]) + ", not reached on these cores)";
            return s;
        }
    if (c.status == Status::Blocked) {
        std::string s = format("waits in %s", call_name(c.wait));
        if (c.wait.loc.file) s += " (" + loc_str(c.wait.loc) + ")";
        s += format(": flag %d", c.wait.flag);
        if (c.wait.task >= 0) s += ", " + task_ref(run, c.wait.task);
        return s;
    }
    std::string s = run.sk() ? "finished all tasks" : "returned from " + task_ref(run, 0);
    if (r) s += format(" after %d set%s of flag %d", r->counts[pos], r->counts[pos] == 1 ? "" : "s", r->flag_in);
    if (const char* f = c.last_file.load()) s += " (last seen at " + loc_str(rt::Loc{f, c.last_line.load()}) + ")";
    return s;
}

std::string headline(Run& run, CoreState& c) {
    const WaitDesc& w = c.wait;
    std::string at = w.loc.file ? " (" + loc_str(w.loc) + ")" : "";
    switch (w.kind) {
        case WaitKind::Boundary:
            if (w.task > 0)
                return format("hang at the boundary task %d \"%s\" -> task %d \"%s\" (all live cores blocked)", w.task - 1,
                              run.tasks[w.task - 1].name.c_str(), w.task, run.tasks[w.task].name.c_str());
            break;
        case WaitKind::Barrier:
            return format("hang at the full barrier after %s (all live cores blocked)", task_ref(run, w.task).c_str());
        case WaitKind::Feed:
            return format("hang while idle cores feed SyncAll of %s (all live cores blocked)", task_ref(run, w.task).c_str());
        default: break;
    }
    return format("hang in %s%s in %s (all live cores blocked)", call_name(w), at.c_str(), task_ref(run, w.task).c_str());
}

using Stories = std::vector<std::pair<std::string, std::vector<int>>>;

// Cores with the same story share a line.
void add_story(Stories& stories, const std::string& why, int id) {
    auto it = std::find_if(stories.begin(), stories.end(), [&](auto& s) { return s.first == why; });
    if (it == stories.end()) stories.push_back({why, {id}});
    else it->second.push_back(id);
}

struct Blocked {
    std::vector<std::vector<int>> groups;   // blocked cores grouped by the call they wait in, in core order
    CoreState* primary = nullptr;           // the first group whose round is under way, else the first
};

Blocked blocked_groups(Run& run) {
    Blocked b;
    std::map<std::tuple<int, int, int, std::string, int>, size_t> index;
    for (auto& c : run.cores) {
        if (c->status != Status::Blocked) continue;
        auto key = std::make_tuple(c->wait.task, (int)c->wait.kind, c->wait.flag, loc_str(c->wait.loc), c->wait.loc.line);
        if (!index.count(key)) {
            index[key] = b.groups.size();
            b.groups.emplace_back();
        }
        b.groups[index[key]].push_back(c->id);
    }
    b.primary = &run.core(b.groups[0][0]);
    for (auto& g : b.groups) {
        Rounds* r = source_for(run, run.core(g[0]));
        if (r && !r->pending.empty()) {
            b.primary = &run.core(g[0]);
            break;
        }
    }
    return b;
}

// "AIV0..AIV5 wait in WaitPreTaskEnd (consume.cpp:19): flag 14, mode 0, round 1", skipping cores the
// Missing list explains.
void wait_lines(Run& run, const Blocked& b, const std::vector<int>& missing, std::vector<std::string>& out) {
    for (auto& group : b.groups) {
        std::vector<int> ids;
        for (int id : group)
            if (std::find(missing.begin(), missing.end(), id) == missing.end()) ids.push_back(id);
        if (ids.empty()) continue;
        CoreState& c = run.core(ids[0]);
        Rounds* r = source_for(run, c);
        std::string line = range_label(ids, run) + " wait in " + call_name(c.wait);
        if (c.wait.loc.file) line += " (" + loc_str(c.wait.loc) + ")";
        else if (c.wait.kind == WaitKind::Boundary) line += " " + loc_str(c.wait.loc);
        line += format(": flag %d", c.wait.flag);
        if (r) line += format(", mode %d, round %d", mode_of(r->src), r->completed + 1);
        if (c.wait.kind != WaitKind::Boundary && c.wait.task >= 0 && run.sk()) line += ", " + task_ref(run, c.wait.task);
        out.push_back(line);
    }
}

// The round the primary wait needs: who arrived, who did not and what each missing core did instead.
// Returns where the arrived cores made their set (for the summary), and sets missed_set.
rt::Loc round_lines(Run& run, Rounds& r, const std::vector<int>& missing, std::vector<std::string>& out,
                    bool& missed_set) {
    rt::Loc set_site{nullptr, 0};
    size_t arrived = 0;
    for (size_t i = 0; i < r.participants.size(); ++i)
        if (r.counts[i] > r.completed) {
            arrived++;
            if (r.last_loc[i].file) set_site = r.last_loc[i];
        }
    size_t n = r.participants.size();
    const char* type = n && run.core(r.participants[0]).type == rt::CoreType::AIC ? "AIC" : "AIV";
    std::string who = r.src == SRC_MODE0 ? format("all %zu %s cores", n, type)
                      : n == 1          ? run.core(r.participants[0]).label
                                        : format("both AIVs of its AI Core (%s)", range_label(r.participants, run).c_str());
    out.push_back(format("Round %d needs an arrival from %s; %zu arrived. Missing:", r.completed + 1, who.c_str(), arrived));
    Stories stories;
    for (int id : missing) {
        size_t pos = std::find(r.participants.begin(), r.participants.end(), id) - r.participants.begin();
        std::string why = absent_reason(run, run.core(id), &r, pos);
        if (why.find("without SetNextTaskStart") != std::string::npos) missed_set = true;
        add_story(stories, why, id);
    }
    for (auto& [why, ids] : stories) out.push_back("  " + range_label(ids, run) + ": " + why);
    return set_site;
}

// A wait nobody ever set toward: say so and what the finished cores did.
void no_source_lines(Run& run, CoreState& primary, std::vector<std::string>& out) {
    out.push_back(format("No core has ever set flag %d toward %s.", primary.wait.flag, primary.label.c_str()));
    Stories stories;
    for (auto& c : run.cores)
        if (c->status == Status::Done) add_story(stories, absent_reason(run, *c, nullptr, 0), c->id);
    if (!stories.empty()) out.push_back("The other cores:");
    for (auto& [why, ids] : stories) out.push_back("  " + range_label(ids, run) + ": " + why);
}

// One hint for the most likely cause.
std::string choose_hint(Run& run, CoreState& primary, bool has_round, bool missed_set, rt::Loc set_site) {
    if (missed_set) return "call SetNextTaskStart exactly once on every core, outside loops and branches.";
    for (int t = 0; t < run.task_count(); ++t)
        if (run.sk() && run.syncall_in_task[t] && !run.cfg.feed_sync_all &&
            (run.tasks[t].aiv_need < run.aiv || run.tasks[t].aic_need < run.aic))
            return format("SyncAll in task %d \"%s\" waits for every core of the SuperKernel (%d AIC + %d AIV), but the "
                          "task runs on fewer and idle cores do not call it; set the SK option feed-sync-all=1 or launch "
                          "the task on all cores", t, run.tasks[t].name.c_str(), run.aic, run.aiv);
    int flag = primary.wait.flag;
    switch (primary.wait.kind) {
        case WaitKind::SyncAll:
            return "every core of the launch must call SyncAll the same number of times; a core that returns early "
                   "never arrives.";
        case WaitKind::User:
            if (!has_round)
                return format("add the CrossCoreSetFlag(%d) this wait pairs with (mode 0: every core of the type sets; "
                              "mode 2: the AIC or both AIVs of this AI Core), or remove the wait", flag);
            return format("every CrossCoreWaitFlag(%d) needs a matching CrossCoreSetFlag(%d) from the missing cores; "
                          "check the branches and early returns around the set%s", flag, flag,
                          set_site.file ? (" at " + loc_str(set_site)).c_str() : "");
        case WaitKind::Barrier:
            return "early start is off here, so a full barrier separates the tasks: no core may wait inside a task for "
                   "work of the next task (run with early-start=1, or remove that dependency).";
        case WaitKind::Boundary:
            return "every core must reach the task boundary: check for cores that block inside a task or skip a call.";
        default: return "";
    }
}

std::string summary_line(Run& run, CoreState& primary, Rounds* r, const std::vector<int>& missing, rt::Loc site) {
    std::string names;
    for (int id : missing) names += (names.empty() ? "" : ",") + run.core(id).label;
    if (names.size() > 60) names = range_label(missing, run);
    std::string s = format("hang flag %d round %d", primary.wait.flag, r ? r->completed + 1 : 1);
    if (!names.empty()) s += " missing " + names;
    if (site.file) s += " (" + loc_str(site) + ")";
    return s;
}

}  // namespace

std::string hang_report(Run& run) {
    Blocked b = blocked_groups(run);
    CoreState& primary = *b.primary;
    Rounds* r = source_for(run, primary);
    std::vector<int> missing;
    if (r)
        for (size_t i = 0; i < r->participants.size(); ++i)
            if (r->counts[i] <= r->completed) missing.push_back(r->participants[i]);
    std::vector<std::string> details;
    wait_lines(run, b, missing, details);
    bool missed_set = false;
    rt::Loc set_site{nullptr, 0};
    if (r) set_site = round_lines(run, *r, missing, details, missed_set);
    else no_source_lines(run, primary, details);
    std::string hint = choose_hint(run, primary, r != nullptr, missed_set, set_site);
    rt::Loc site = set_site.file ? set_site : primary.wait.loc;
    int k = primary.wait.task;
    if (missed_set && k >= 1 && run.task_set_loc[k - 1].file) site = run.task_set_loc[k - 1];
    return fault_report(headline(run, primary).c_str(), details, hint, summary_line(run, primary, r, missing, site));
}

}  // namespace core
}  // namespace ascgen
