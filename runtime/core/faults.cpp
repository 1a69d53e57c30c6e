// Faults: the first error of a run wins, every core is cancelled, reports use one fixed layout
// (==== block, ERROR line, details, Hint, SUMMARY line) so people and tools can read them.
#include <cstdarg>
#include <cstdio>
#include <exception>

#include "state.h"

namespace ascgen {
namespace core {

// While a Cancelled (or the kernel's own exception) unwinds a core's stack, the destructors it runs (the
// library's TPipe / TQue teardown: PipeBarrier, WaitFlag) reach the same hooks; throwing again there would
// std::terminate the whole process, Python included. So then the hook returns and the core finishes
// unwinding; its callers return without acting. rt::fail (a new fault found during unwinding) still throws.
void throw_cancelled() {
    if (std::uncaught_exceptions() == 0) throw rt::Cancelled{};
}

void note_loc(CoreState* c, rt::Loc loc) {
    if (c && loc.file) {
        c->last_file.store(loc.file, std::memory_order_relaxed);
        c->last_line.store(loc.line, std::memory_order_relaxed);
    }
}

std::string fault_report(const char* title, const std::vector<std::string>& details, const std::string& hint,
                         const std::string& summary) {
    std::string s = "==================\nERROR: ascgen: ";
    s += title;
    s += "\n";
    for (const auto& d : details) s += "  " + d + "\n";
    if (!hint.empty()) s += "  Hint: " + hint + "\n";
    s += "SUMMARY: ascgen: " + summary + "\n==================";
    return s;
}

void cancel_locked(Run& run) {
    if (run.cancelled.exchange(true)) return;
    run.cancel_time = monotonic();
    for (auto& c : run.cores) c->cv.notify_all();
    run.done_cv.notify_all();
}

static const char* kind_title(rt::Fault k) {
    switch (k) {
        case rt::Fault::Memory: return "memory error";
        case rt::Fault::Hang: return "hang";
        case rt::Fault::SyncCount: return "task-sync count mismatch";
        case rt::Fault::Timeout: return "time limit exceeded";
        case rt::Fault::Assert: return "kernel error";
        default: return "error";
    }
}

static const char* kind_tag(rt::Fault k) {
    switch (k) {
        case rt::Fault::Memory: return "memory";
        case rt::Fault::Hang: return "hang";
        case rt::Fault::SyncCount: return "sync-count";
        case rt::Fault::Timeout: return "timeout";
        default: return "assert";
    }
}

// `message` is either a full report (starts with "====") or one line to wrap in the standard layout.
void record_fault(Run& run, rt::Fault kind, const std::string& message, CoreState* core, rt::Loc loc, bool locked) {
    std::unique_lock<std::mutex> lk(run.mu, std::defer_lock);
    if (!locked) lk.lock();
    if (run.res.fault.kind != rt::Fault::None) return;
    Fault& f = run.res.fault;
    f.kind = kind;
    if (core) {
        f.core = core->label;
        f.task = core->task;
        if (core->task >= 0 && core->task < run.task_count()) f.kernel = run.tasks[core->task].name;
        if (!loc.file) {
            loc.file = core->last_file.load();
            loc.line = core->last_line.load();
        }
    }
    if (f.kernel.empty() && run.task_count() == 1) f.kernel = run.tasks[0].name;
    const rt::Loc at = resolved(loc);
    f.file = at.file ? at.file : "";
    f.line = at.file ? at.line : 0;
    if (message.rfind("====", 0) == 0) {
        f.message = message;
    } else {
        std::string where;
        if (!f.kernel.empty())
            where += run.sk() ? format("task %d \"%s\"", f.task, f.kernel.c_str()) : "kernel \"" + f.kernel + "\"";
        if (!f.core.empty()) where += " on " + f.core;
        if (at.file) where += format(" at %s:%d%s", at.file, at.line, site_detail(loc).c_str());
        std::string title = std::string(kind_title(kind)) + ": " + message.substr(0, message.find('\n'));
        std::vector<std::string> details;
        if (!where.empty()) details.push_back("in " + where);
        size_t nl = message.find('\n');
        std::string hint;
        while (nl != std::string::npos) {   // extra lines of the message: details, "Hint: ..." last
            size_t next = message.find('\n', nl + 1);
            std::string line = message.substr(nl + 1, next == std::string::npos ? std::string::npos : next - nl - 1);
            if (line.rfind("Hint: ", 0) == 0) hint = line.substr(6);
            else if (!line.empty()) details.push_back(line);
            nl = next;
        }
        std::string summary = std::string(kind_tag(kind)) + " " + (loc.file ? loc_str(loc) : std::string("?"));
        if (!f.kernel.empty()) summary += " in \"" + f.kernel + "\"";
        if (!f.core.empty()) summary += " on " + f.core;
        f.message = fault_report(title.c_str(), details, hint, summary);
    }
    cancel_locked(run);
}

void add_lint(Run& run, rt::Loc loc, const char* severity, const char* rule, const std::string& message) {
    loc = resolved(loc);
    std::lock_guard<std::mutex> lk(run.mu);
    std::string file = loc.file ? loc.file : "";
    auto key = std::make_tuple(std::string(rule), file, loc.line);
    if (run.res.lint_seen.count(key)) return;
    run.res.lint_seen[key] = true;
    run.res.lints.push_back(Lint{file, loc.line, severity, rule, message});
}

std::string timeout_report(Run& run, const std::vector<int>& stuck) {
    std::vector<std::string> details;
    for (auto& c : run.cores) {
        const char* file = c->last_file.load();
        std::string where = file ? "last seen at " + loc_str(rt::Loc{file, c->last_line.load()})
                                 : std::string("never reached an ascgen API call with a source line");
        std::string state = c->status == Status::Done ? "finished" : c->status == Status::Blocked ? "waiting" : "running";
        std::string task;
        if (c->task >= 0 && c->task < run.task_count())
            task = run.sk() ? format(" in task %d \"%s\"", c->task, run.tasks[c->task].name.c_str())
                            : format(" in kernel \"%s\"", run.tasks[c->task].name.c_str());
        if (c->status != Status::Done) details.push_back(c->label + ": " + state + task + ", " + where);
    }
    if (details.size() > 16) {
        size_t more = details.size() - 12;
        details.resize(12);
        details.push_back(format("... and %zu more cores", more));
    }
    std::string hint = "look for a loop whose exit condition never becomes true on the cores listed";
    if (!stuck.empty()) {
        std::vector<int> ids = stuck;
        details.push_back(range_label(ids, run) +
                          format(" called no ascgen API within %.3g s of the limit, so they cannot be stopped "
                                 "in-process; they keep running in the background", run.cfg.cancel_grace_s));
        hint = "run kernels that may loop without calling any API in isolated mode (a subprocess), "
               "e.g. Module.launch(..., isolated=True) or `ascgen run --isolated`";
    }
    std::string title = format("time limit exceeded: the run did not finish within %.3g s", run.cfg.time_limit_s);
    std::string kernel = run.task_count() ? run.tasks[0].name : std::string("?");
    return fault_report(title.c_str(), details, hint,
                        format("timeout %.3g s in \"%s\"", run.cfg.time_limit_s, kernel.c_str()));
}

}  // namespace core

namespace rt {
void fail(Fault kind, Loc loc, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    core::Run* run = core::tl_run;
    if (run) {
        core::note_loc(core::tl_core, loc);
        core::record_fault(*run, kind, buf, core::tl_core, loc);
    } else {
        loc = core::resolved(loc);
        fprintf(stderr, "ascgen: error outside a kernel launch at %s:%d: %s\n", loc.file ? loc.file : "?", loc.line, buf);
    }
    throw Cancelled{};          // never returns: the caller must not go on with the access it found invalid
}
}  // namespace rt
}  // namespace ascgen
