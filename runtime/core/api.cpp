// The C API Python calls (core_api.h): start the core threads of a run, wait for them with the time
// limit, join them, run the end-of-run checks and hand out the results; host sessions for hand-written
// programs whose <<<>>> launches call rt::host_launch.
#include <algorithm>
#include <cstring>
#include <map>
#include <system_error>

#include "escape.h"
#include "host_guard.h"
#include "state.h"

namespace ascgen {
namespace core {

namespace {

constexpr int kMaxCores = 4096;          // threads per run; far above any chip, low enough to stay sane
constexpr double kCancelGrace = 3.0;     // default seconds a cancelled core gets to reach an API call

std::mutex g_api_mu;                     // one run at a time
bool g_active = false;
Results* g_view = nullptr;               // what ascgen_result_* read

struct KernelReg {
    int type;
    bool uses_wait, uses_set;
};
std::map<std::string, KernelReg> g_kernels;
int g_next_kernel_type = -1;   // rt::next_launch_kernel_type: the next host launch's type, once
bool g_next_type_unless_registered = false;   // ...only if the launched kernel is not registered

struct Session {
    bool open = false;
    ascgen_config cfg{};
    std::string product;
    Results res;
    int launches = 0;
    uint64_t gm_mark = 0;
};
Session g_session;

void run_core(Run& run, CoreState& me) {
    try {
        core_body(run, me);
    } catch (rt::Cancelled&) {
    } catch (std::exception& e) {
        record_fault(run, rt::Fault::Assert, format("kernel code threw a C++ exception: %s", e.what()), &me,
                     rt::Loc{nullptr, 0});
    } catch (...) {
        record_fault(run, rt::Fault::Assert, "kernel code threw a C++ exception that is not a std::exception", &me,
                     rt::Loc{nullptr, 0});
    }
}

void core_main(std::shared_ptr<Run> keep, int id) {
    Run& run = *keep;
    CoreState& me = run.core(id);
    tl_run = &run;
    tl_core = &me;
    std::jmp_buf cancelled_in_a_destructor;     // escape.h: resumed here instead of std::terminate
    if (setjmp(cancelled_in_a_destructor) == 0) {
        arm_escape(&cancelled_in_a_destructor);
        run_core(run, me);
    } else {
        finish_escape();
    }
    disarm_escape();
    if (!me.line_buf.empty()) rt::print("\n");
    {
        std::lock_guard<std::mutex> lk(run.mu);
        me.status = Status::Done;
        run.done++;
        check_deadlock_locked(run);
        run.done_cv.notify_all();
    }
    tl_run = nullptr;
    tl_core = nullptr;
}

void needs(const ascgen_config& cfg, TaskInfo& t) {
    int b = t.block_dim;
    if (!cfg.separated) {   // coupled: every kernel type runs on B cores of the one type
        t.aic_need = 0;
        t.aiv_need = b;
        t.kind = T_AIV;
        return;
    }
    switch (t.kernel_type) {
        case K_AIC: t.aic_need = b, t.aiv_need = 0, t.kind = T_AIC; break;
        case K_MIX11: t.aic_need = b, t.aiv_need = b, t.kind = T_MIX; break;
        case K_MIX12: t.aic_need = b, t.aiv_need = 2 * b, t.kind = T_MIX; break;
        default: t.aic_need = 0, t.aiv_need = b, t.kind = T_AIV; break;
    }
}

// Why a run cannot start ("" when it can); fills each task's core needs.
std::string check_request(const ascgen_config& cfg, std::vector<TaskInfo>& tasks) {
    if (g_active) return "another run is still active in this process (runs are one at a time)";
    if (tasks.empty()) return "a run needs at least one task";
    int cores = cfg.aic_count + cfg.aiv_count;
    if (cfg.aic_count < 0 || cfg.aiv_count < 0 || cores < 1 || cores > kMaxCores)
        return format("bad geometry: %d AIC + %d AIV cores (1..%d in total)", cfg.aic_count, cfg.aiv_count, kMaxCores);
    if (cfg.separated && cfg.aic_count > 0 && cfg.aiv_count > 0 && cfg.aiv_count != cfg.aic_count * cfg.ratio)
        return format("bad geometry: %d AIV cores for %d AIC with ratio %d", cfg.aiv_count, cfg.aic_count, cfg.ratio);
    for (size_t k = 0; k < tasks.size(); ++k) {
        TaskInfo& t = tasks[k];
        if (!t.entry && !t.thunk) return format("task %zu \"%s\" has no entry function", k, t.name.c_str());
        if (t.block_dim < 1) return format("task %zu \"%s\": block_dim %d must be >= 1", k, t.name.c_str(), t.block_dim);
        if (t.kernel_type < 0 || t.kernel_type > 3) return format("task %zu: bad kernel type %d", k, t.kernel_type);
        needs(cfg, t);
        if (t.aic_need > cfg.aic_count || t.aiv_need > cfg.aiv_count)
            return format("task %zu \"%s\" needs %d AIC + %d AIV cores but the launch has %d + %d", k, t.name.c_str(),
                          t.aic_need, t.aiv_need, cfg.aic_count, cfg.aiv_count);
    }
    return "";
}

std::shared_ptr<Run> make_run(const ascgen_config& cfg, const char* product, std::vector<TaskInfo> tasks) {
    auto run = std::make_shared<Run>();
    run->cfg = cfg;
    run->product = product ? product : "?";
    run->cfg.product = nullptr;
    if (run->cfg.time_limit_s <= 0) run->cfg.time_limit_s = 60;
    if (run->cfg.cancel_grace_s <= 0) run->cfg.cancel_grace_s = kCancelGrace;
    run->tasks = std::move(tasks);
    run->aic = cfg.aic_count;
    run->aiv = cfg.aiv_count;
    size_t nt = run->tasks.size();
    run->syncall_in_task.assign(nt, 0);
    run->feed_pub.assign(nt, 0);
    run->feed_end.assign(nt, 0);
    run->task_finished.assign(nt, 0);
    run->feed_aiv_only.assign(nt, {});
    run->task_set_loc.assign(nt, rt::Loc{nullptr, 0});
    run->task_wait_loc.assign(nt, rt::Loc{nullptr, 0});
    int ratio = std::max(1, cfg.ratio);
    for (int id = 0; id < cfg.aic_count + cfg.aiv_count; ++id) {
        auto c = std::make_unique<CoreState>();
        c->id = id;
        bool aic = id < cfg.aic_count;
        c->type = aic ? rt::CoreType::AIC : rt::CoreType::AIV;
        c->index = aic ? id : id - cfg.aic_count;
        c->group = aic ? c->index : c->index / ratio;
        c->sub = aic ? 0 : c->index % ratio;
        c->label = format("%s%d", aic ? "AIC" : "AIV", c->index);
        c->missed.assign(nt, "");
        c->rng.seed((uint64_t)(cfg.schedule_seed < 0 ? 0 : cfg.schedule_seed) * 0x9E3779B97F4A7C15ull + id * 7919 + 1);
        run->cores.push_back(std::move(c));
    }
    return run;
}

// The detectors start fresh for every run; the timeline's parameters are the config's, defaults where 0.
void begin_detectors(Run& run) {
    const ascgen_config& cfg = run.cfg;
    int cores = (int)run.cores.size();
    hb::begin_run(cores, cfg.detect_races != 0);
    timeline::Params p;
    if (cfg.flag_round_cycles > 0) p.flag_round_cycles = cfg.flag_round_cycles;
    if (cfg.task_launch_cycles > 0) p.task_launch_cycles = cfg.task_launch_cycles;
    if (cfg.mte_bytes_per_cycle > 0) p.mte_bytes_per_cycle = cfg.mte_bytes_per_cycle;
    if (cfg.vec_elems_per_cycle > 0) p.vec_elems_per_cycle = cfg.vec_elems_per_cycle;
    if (cfg.cube_elems_per_cycle > 0) p.cube_elems_per_cycle = cfg.cube_elems_per_cycle;
    if (cfg.scalar_cycles > 0) p.scalar_cycles = cfg.scalar_cycles;
    run.cfg.flag_round_cycles = p.flag_round_cycles;
    timeline::begin_run(cores, cfg.timeline != 0, p);
}

void start_threads(const std::shared_ptr<Run>& run) {
    int cores = (int)run->cores.size();
    for (int id = 0; id < cores; ++id) {
        try {
            run->core(id).thread = std::thread(core_main, run, id);
        } catch (const std::system_error& e) {
            // Threads already started see the cancel; the rest count as done so finish() can join.
            std::lock_guard<std::mutex> lk(run->mu);
            for (int j = id; j < cores; ++j) {
                run->core(j).status = Status::Done;
                run->done++;
            }
            record_fault(*run, rt::Fault::Assert,
                         format("could not start thread %d of %d: %s\nHint: lower block_dim or the SK core counts",
                                id, cores, e.what()),
                         nullptr, rt::Loc{nullptr, 0}, true);
            return;
        }
    }
}

// Start a run; "" on success, else why not (nothing started).
std::string start_run(const ascgen_config& cfg, const char* product, std::vector<TaskInfo> tasks,
                      const ascgen_buffer* buffers, int nbuffers) {
    std::string why = check_request(cfg, tasks);
    if (!why.empty()) return why;
    auto run = make_run(cfg, product, std::move(tasks));
    for (int i = 0; i < nbuffers; ++i)
        gm_add(buffers[i].address, buffers[i].nbytes, buffers[i].name ? buffers[i].name : "",
               buffers[i].dtype ? buffers[i].dtype : "", true);
    begin_detectors(*run);
    set_current_run(run);
    g_active = true;
    g_view = &run->res;
    run->started = monotonic();
    start_threads(run);
    return "";
}

bool wait_run(Run& run, double seconds) {
    std::unique_lock<std::mutex> lk(run.mu);
    int cores = (int)run.cores.size();
    double until = monotonic() + std::max(0.0, seconds);
    for (;;) {
        if (run.done >= cores) return true;
        double now = monotonic();
        if (run.cancelled.load() && now >= run.cancel_time + run.cfg.cancel_grace_s) return true;   // some never stop
        double deadline = run.started + run.cfg.time_limit_s;
        if (!run.cancelled.load() && now >= deadline) {
            CoreState* busy = nullptr;
            for (auto& c : run.cores)
                if (c->status != Status::Done) {
                    busy = c.get();
                    break;
                }
            run.timed_out = true;
            record_fault(run, rt::Fault::Timeout, timeout_report(run, {}), busy, rt::Loc{nullptr, 0}, true);
            continue;
        }
        if (now >= until) return false;
        double next = std::min(until, run.cancelled.load() ? run.cancel_time + run.cfg.cancel_grace_s : deadline);
        run.done_cv.wait_for(lk, std::chrono::duration<double>(std::max(0.0, next - now) + 1e-4));
    }
}

void fill_access(ascgen_access& out, std::string (&strs)[4], const hb::Access& a, Run& run) {
    out.core = a.core;
    strs[0] = a.core >= 0 && a.core < (int)run.cores.size() ? run.core(a.core).label : "?";
    out.task = a.task;
    strs[1] = a.task >= 0 && a.task < run.task_count() ? run.tasks[a.task].name : "?";
    out.addr = a.addr;
    out.bytes = a.bytes;
    out.write = a.write;
    const rt::Loc at = resolved(rt::Loc{a.file, a.line});
    out.file = at.file;
    out.line = at.line;
    out.window = a.window;
    GmHit h = gm_lookup(a.addr);
    strs[2] = h.name;
    strs[3] = h.dtype;
    out.offset = h.offset;
}

int finish_run(Run& run) {
    std::vector<int> stuck;
    for (auto& c : run.cores) {
        bool done;
        {
            std::lock_guard<std::mutex> lk(run.mu);
            done = c->status == Status::Done;
        }
        if (!c->thread.joinable()) continue;
        if (done) c->thread.join();
        else {
            stuck.push_back(c->id);
            c->thread.detach();   // it holds a reference to the run, which stays alive with it
        }
    }
    run.res.threads_left = (int)stuck.size();
    if (!stuck.empty()) {
        std::lock_guard<std::mutex> lk(run.mu);
        if (run.res.fault.kind == rt::Fault::Timeout) {
            run.res.fault.message = timeout_report(run, stuck);
        } else {
            std::string& m = run.res.fault.message;
            std::string note = "  Note: " + range_label(stuck, run) +
                               format(" did not stop within %.3g s of the cancel (no ascgen API call since); they keep "
                                      "running in the background. Use isolated mode for such kernels.\n",
                                      run.cfg.cancel_grace_s);
            size_t at = m.rfind("SUMMARY:");
            m.insert(at == std::string::npos ? m.size() : at, note);
        }
    }
    end_of_run_checks(run);
    if (hb::enabled() && stuck.empty() && run.res.fault.kind == rt::Fault::None) {
        for (const hb::Race& r : hb::finish()) {
            RaceOut o{};
            fill_access(o.a[0], o.strs[0], r.earlier, run);
            fill_access(o.a[1], o.strs[1], r.later, run);
            const rt::Loc call = resolved(rt::Loc{r.call_file, r.call_line});
            o.call_file = call.file ? call.file : "";
            o.call_line = call.line;
            run.res.races.push_back(std::move(o));
        }
    }
    if (timeline::enabled() && stuck.empty())
        for (timeline::Event e : timeline::finish()) {
            const rt::Loc at = resolved(rt::Loc{e.file, e.line});
            e.file = at.file, e.line = at.line;
            run.res.events.push_back(EventOut{e, e.core >= 0 && e.core < (int)run.cores.size() ? run.core(e.core).label : "?"});
        }
    gm_remove_run_owned();
    run.finished = true;
    g_active = false;
    return (int)run.res.fault.kind;
}

void merge_into_session(Results& from) {
    Results& to = g_session.res;
    to.output += from.output;
    for (auto& l : from.lints) {
        auto key = std::make_tuple(l.rule, l.file, l.line);
        if (!to.lint_seen.count(key)) {
            to.lint_seen[key] = true;
            to.lints.push_back(l);
        }
    }
    if (to.fault.kind == rt::Fault::None) to.fault = from.fault;
    to.threads_left += from.threads_left;
}

}  // namespace
}  // namespace core
}  // namespace ascgen

using namespace ascgen;
using namespace ascgen::core;

extern "C" {

int ascgen_run_start(const ascgen_config* cfg, const ascgen_task* tasks, int ntasks, const ascgen_buffer* buffers,
                     int nbuffers, char* err, int errlen) {
    std::lock_guard<std::mutex> lk(g_api_mu);
    std::vector<TaskInfo> ts;
    for (int i = 0; i < ntasks; ++i) {
        TaskInfo t;
        t.name = tasks[i].name ? tasks[i].name : "kernel";
        t.source = tasks[i].source ? tasks[i].source : "";
        t.entry = tasks[i].entry;
        t.args = tasks[i].args;
        t.block_dim = tasks[i].block_dim;
        t.kernel_type = tasks[i].kernel_type;
        t.uses_wait = tasks[i].uses_wait != 0;
        t.uses_set = tasks[i].uses_set != 0;
        t.uses_sync_all = tasks[i].uses_sync_all != 0;
        ts.push_back(std::move(t));
    }
    std::string why = start_run(*cfg, cfg->product, std::move(ts), buffers, nbuffers);
    if (why.empty()) return 0;
    if (err && errlen > 0) {
        strncpy(err, why.c_str(), errlen - 1);
        err[errlen - 1] = '\0';
    }
    return -1;
}

int ascgen_run_wait(double seconds) {
    auto run = current_run();
    if (!run || run->finished) return 1;
    return wait_run(*run, seconds) ? 1 : 0;
}

void ascgen_run_interrupt(void) {
    auto run = current_run();
    if (!run || run->finished) return;
    std::lock_guard<std::mutex> lk(run->mu);
    if (run->res.fault.kind == rt::Fault::None) {
        run->res.fault.kind = rt::Fault::Assert;
        run->res.fault.message = fault_report("interrupted: the run was stopped from outside (KeyboardInterrupt)", {},
                                              "", "interrupted");
    }
    cancel_locked(*run);
}

int ascgen_run_finish(void) {
    std::lock_guard<std::mutex> lk(g_api_mu);
    auto run = current_run();
    if (!run) return 0;
    if (run->finished) return (int)run->res.fault.kind;
    wait_run(*run, 1e9);
    return finish_run(*run);
}

int ascgen_result_fault(ascgen_fault* out) {
    static const char* empty = "";
    if (!g_view) {
        std::memset(out, 0, sizeof *out);
        out->message = out->core = out->kernel = out->file = empty;
        out->task = -1;
        return 0;
    }
    Fault& f = g_view->fault;
    out->kind = (int)f.kind;
    out->message = f.message.c_str();
    out->core = f.core.c_str();
    out->task = f.task;
    out->kernel = f.kernel.c_str();
    out->file = f.file.c_str();
    out->line = f.line;
    return (int)f.kind;
}

const char* ascgen_result_output(void) { return g_view ? g_view->output.c_str() : ""; }
int ascgen_result_lint_count(void) { return g_view ? (int)g_view->lints.size() : 0; }
void ascgen_result_lint(int i, ascgen_lint* out) {
    Lint& l = g_view->lints.at(i);
    out->file = l.file.c_str();
    out->line = l.line;
    out->severity = l.severity.c_str();
    out->rule = l.rule.c_str();
    out->message = l.message.c_str();
}
int ascgen_result_race_count(void) { return g_view ? (int)g_view->races.size() : 0; }
void ascgen_result_race(int i, ascgen_race* out) {
    RaceOut& r = g_view->races.at(i);
    for (int k = 0; k < 2; ++k) {
        r.a[k].core_label = r.strs[k][0].c_str();
        r.a[k].kernel = r.strs[k][1].c_str();
        r.a[k].buffer = r.strs[k][2].c_str();
        r.a[k].dtype = r.strs[k][3].c_str();
    }
    out->earlier = r.a[0];
    out->later = r.a[1];
    out->call_file = r.call_file.c_str();
    out->call_line = r.call_line;
}
int ascgen_result_event_count(void) { return g_view ? (int)g_view->events.size() : 0; }
void ascgen_result_event(int i, ascgen_event* out) {
    EventOut& e = g_view->events.at(i);
    out->core = e.e.core;
    out->core_label = e.label.c_str();
    out->task = e.e.task;
    out->kind = (int)e.e.kind;
    out->t = e.e.t;
    out->file = e.e.file ? e.e.file : "";
    out->line = e.e.line;
}
int ascgen_threads_left(void) { return g_view ? g_view->threads_left : 0; }

void ascgen_register_kernel(const char* name, int kernel_type, int uses_wait, int uses_set) {
    std::lock_guard<std::mutex> lk(g_api_mu);
    g_kernels[name ? name : ""] = KernelReg{kernel_type, uses_wait != 0, uses_set != 0};
}

void ascgen_host_session_begin(const ascgen_config* cfg) {
    std::lock_guard<std::mutex> lk(g_api_mu);
    g_session = Session{};
    g_session.open = true;
    g_session.cfg = *cfg;
    g_session.product = cfg->product ? cfg->product : "?";
    g_session.cfg.product = nullptr;
    g_session.gm_mark = gm_mark();
    g_view = &g_session.res;
}

int ascgen_host_session_end(void) {
    std::lock_guard<std::mutex> lk(g_api_mu);
    g_session.open = false;
    gm_remove_host_since(g_session.gm_mark);   // the program's aclrtMalloc/GmAlloc memory is gone with it
    g_view = &g_session.res;
    return (int)g_session.res.fault.kind;
}

int ascgen_host_launch_count(void) { return g_session.launches; }

int ascgen_gm_allocation_count(void) { return gm_count(); }

static int call_main_caught(int (*main_fn)(int, char**), int argc, char** argv, int* stopped, std::string& why) {
    try {
        return main_fn(argc, argv);
    } catch (rt::Cancelled&) {
        *stopped = 1;
    } catch (std::exception& e) {
        why = format("the host program threw a C++ exception: %s", e.what());
    } catch (...) {
        why = "the host program threw a C++ exception that is not a std::exception";
    }
    return -1;
}

int ascgen_call_main(int (*main_fn)(int, char**), int argc, char** argv, int* stopped) {
    *stopped = 0;
    volatile int code = -1;
    std::string why;
    ascgen::core::host_guard_begin(argc > 0 ? argv[0] : nullptr);
    // A launch that fails throws Cancelled through the program; from a destructor of the program's (an RAII
    // stream freeing its memory after a failed launch) that is std::terminate of Python itself (escape.h).
    std::jmp_buf cancelled_in_a_destructor;
    if (setjmp(cancelled_in_a_destructor) == 0) {
        ascgen::core::arm_escape(&cancelled_in_a_destructor);
        code = call_main_caught(main_fn, argc, argv, stopped, why);
    } else {
        ascgen::core::finish_escape();
        *stopped = 1;
    }
    ascgen::core::disarm_escape();
    ascgen::core::host_guard_end();
    fflush(stdout);
    if (!why.empty()) {
        *stopped = 1;
        std::lock_guard<std::mutex> lk(g_api_mu);
        if (g_session.res.fault.kind == rt::Fault::None) {
            g_session.res.fault.kind = rt::Fault::Assert;
            g_session.res.fault.message = fault_report(why.c_str(), {}, "", "assert host program");
        }
    }
    return code;
}

void ascgen_timeline_defaults(ascgen_config* cfg) {
    timeline::Params p;
    cfg->flag_round_cycles = p.flag_round_cycles;
    cfg->task_launch_cycles = p.task_launch_cycles;
    cfg->mte_bytes_per_cycle = p.mte_bytes_per_cycle;
    cfg->vec_elems_per_cycle = p.vec_elems_per_cycle;
    cfg->cube_elems_per_cycle = p.cube_elems_per_cycle;
    cfg->scalar_cycles = p.scalar_cycles;
}

}  // extern "C"

namespace ascgen {
namespace rt {

void next_launch_kernel_type(int kernel_type, bool unless_registered) {
    std::lock_guard<std::mutex> lk(core::g_api_mu);
    core::g_next_kernel_type = kernel_type;
    core::g_next_type_unless_registered = unless_registered;
}

void host_launch(const char* kernel_name, KernelThunk thunk, void* ctx, uint32_t block_dim, Loc loc) {
    using namespace core;
    if (tl_run) fail(Fault::Assert, loc, "a kernel launch (<<<>>>) from inside a kernel is not supported");
    std::string name = kernel_name ? kernel_name : "kernel";
    int status;
    {
        std::lock_guard<std::mutex> lk(g_api_mu);
        if (!g_session.open) {
            fprintf(stderr, "ascgen: %s:%d: launch of \"%s\" outside a host session; run the program through "
                    "`ascgen run` or ascgen.runtime (the core needs the product to emulate)\n",
                    loc.file ? loc.file : "?", loc.line, name.c_str());
            throw Cancelled{};
        }
        if (g_session.res.fault.kind != Fault::None) throw Cancelled{};   // an earlier launch failed
        KernelReg reg{K_AIV, false, false};
        auto it = g_kernels.find(name);
        bool registered = it != g_kernels.end();
        if (registered) reg = it->second;
        if (g_next_kernel_type >= K_AIV && g_next_kernel_type <= K_MIX12 && !(registered && g_next_type_unless_registered))
            reg.type = g_next_kernel_type;
        g_next_kernel_type = -1;
        g_next_type_unless_registered = false;
        ascgen_config cfg = g_session.cfg;
        int b = (int)block_dim;
        cfg.superkernel = 0;
        cfg.aic_count = cfg.aiv_count = 0;
        cfg.ratio = 0;
        if (!cfg.separated) cfg.aiv_count = b;
        else if (reg.type == K_AIC) cfg.aic_count = b;
        else if (reg.type == K_MIX11) cfg.aic_count = cfg.aiv_count = b, cfg.ratio = 1;
        else if (reg.type == K_MIX12) cfg.aic_count = b, cfg.aiv_count = 2 * b, cfg.ratio = 2;
        else cfg.aiv_count = b;
        TaskInfo t;
        t.name = name;
        t.source = loc.file ? loc.file : "";
        t.thunk = thunk;
        t.ctx = ctx;
        t.block_dim = b;
        t.kernel_type = reg.type;
        t.uses_wait = reg.uses_wait;
        t.uses_set = reg.uses_set;
        std::string why = start_run(cfg, g_session.product.c_str(), {t}, nullptr, 0);
        g_session.launches++;
        if (!why.empty()) {
            g_session.res.fault.kind = Fault::Assert;
            g_session.res.fault.message = fault_report(("cannot launch \"" + name + "\": " + why).c_str(), {},
                                                       "check the block count of the <<<>>> launch",
                                                       "assert launch " + loc_str(loc));
            g_session.res.fault.file = loc.file ? loc.file : "";
            g_session.res.fault.line = loc.line;
            throw Cancelled{};
        }
    }
    auto run = current_run();
    while (!wait_run(*run, 0.05)) {
    }
    {
        std::lock_guard<std::mutex> lk(g_api_mu);
        status = finish_run(*run);
        merge_into_session(run->res);
        g_view = &g_session.res;
    }
    if (status != (int)Fault::None) throw Cancelled{};
}

}  // namespace rt
}  // namespace ascgen
