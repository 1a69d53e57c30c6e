// Core identity (thread-local), the read-only view for the detectors (core_state.h), printf, poll, and
// small formatting helpers shared by the core's files.
#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <thread>

#include "core_state.h"
#include "ascgen/code_site.h"
#include "state.h"

namespace ascgen {
namespace core {

thread_local Run* tl_run = nullptr;
thread_local CoreState* tl_core = nullptr;

namespace {
std::mutex g_run_mu;
std::shared_ptr<Run> g_run;
ascgen_config g_host_cfg{};   // product facts for hooks called outside a core thread
}  // namespace

std::shared_ptr<Run> current_run() {
    std::lock_guard<std::mutex> lk(g_run_mu);
    return g_run;
}

void set_current_run(std::shared_ptr<Run> run) {
    std::lock_guard<std::mutex> lk(g_run_mu);
    if (run) g_host_cfg = run->cfg;
    g_run = std::move(run);
}

double monotonic() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string format(const char* fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(nullptr, 0, fmt, ap);
    va_end(ap);
    std::string s(n > 0 ? n : 0, '\0');
    if (n > 0) vsnprintf(&s[0], n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

std::string base_name(const char* path) {
    if (!path) return "?";
    const char* slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

std::string loc_str(rt::Loc loc) {
    if (!loc.file) return "(inserted by the SuperKernel)";
    const rt::Loc at = resolved(loc);
    if (at.line == 0 && rt::is_code_site(loc)) return at.file;   // no user frame: the intrinsic's name
    return base_name(at.file) + ":" + std::to_string(at.line) + site_detail(loc);
}

const char* kind_word(TaskKind k) {
    return k == T_AIC ? "AIC" : k == T_AIV ? "AIV" : "MIX";
}

// Cores of one type with consecutive indexes collapse into "AIV0..AIV5".
std::string range_label(const std::vector<int>& ids_in, Run& run) {
    std::vector<int> ids = ids_in;
    std::sort(ids.begin(), ids.end());
    std::string out;
    size_t i = 0;
    while (i < ids.size()) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1 &&
               run.core(ids[j + 1]).type == run.core(ids[i]).type)
            ++j;
        if (!out.empty()) out += ", ";
        out += run.core(ids[i]).label;
        if (j == i + 1) out += ", " + run.core(ids[j]).label;
        else if (j > i + 1) out += ".." + run.core(ids[j]).label;
        i = j + 1;
    }
    return out;
}

// ---- core_state.h: the detectors' view ----
int current_core() { return tl_core ? tl_core->id : -1; }
int current_task() { return tl_core ? tl_core->task : -1; }
int core_count() {
    auto run = current_run();
    return run ? (int)run->cores.size() : 0;
}
const char* core_label(int core) {
    auto run = current_run();
    if (!run || core < 0 || core >= (int)run->cores.size()) return "?";
    return run->core(core).label.c_str();
}
const char* task_name(int task) {
    auto run = current_run();
    if (!run || task < 0 || task >= run->task_count()) return "?";
    return run->tasks[task].name.c_str();
}
int task_count() {
    auto run = current_run();
    return run ? run->task_count() : 0;
}

}  // namespace core

// ---- rt.h: identity, poll, print ----
namespace rt {
using core::tl_core;
using core::tl_run;

CoreType core_type() { return tl_core ? tl_core->type : CoreType::AIV; }
bool is_coupled() {
    if (tl_run) return tl_run->cfg.separated == 0;
    return core::current_run() ? core::current_run()->cfg.separated == 0 : false;
}
int64_t block_idx() { return tl_core ? tl_core->block_idx : 0; }
int64_t block_num() { return tl_core ? tl_core->block_num : 1; }
int64_t sub_block_idx() { return tl_core ? tl_core->sub_block : 0; }
int64_t task_ratio() { return tl_core ? tl_core->ratio : 1; }
uint64_t ub_capacity() {
    if (tl_run) return tl_run->cfg.ub_capacity;
    return core::g_host_cfg.ub_capacity;
}
int npu_arch() {
    if (tl_run) return tl_run->cfg.npu_arch;
    return core::g_host_cfg.npu_arch;
}
const char* core_name() { return tl_core ? tl_core->label.c_str() : "host"; }

void local_publish(int hw, uint64_t base, uint64_t bytes, void* inbox) {
    if (!tl_core || hw < 0 || hw >= core::CoreState::kLocals) return;
    tl_core->pub_base[hw].store(base, std::memory_order_relaxed);
    tl_core->pub_len[hw].store(bytes, std::memory_order_relaxed);
    tl_core->pub_inbox[hw].store(inbox, std::memory_order_relaxed);
    tl_core->pub_task[hw].store(tl_core->task, std::memory_order_release);
}

bool local_of_peer(int sub, int hw, uint64_t* base, uint64_t* bytes, Loc loc, void** inbox) {
    core::Run* run = tl_run;
    if (!run || !tl_core || tl_core->task < 0 || hw < 0 || hw >= core::CoreState::kLocals) return false;
    const int ratio = std::max(1, run->cfg.ratio);
    const int id = sub < 0 ? tl_core->group : run->aic + tl_core->group * ratio + sub;
    const bool exists = sub < 0 ? tl_core->group < run->aic : (sub < ratio && tl_core->group * ratio + sub < run->aiv);
    const core::TaskInfo& t = run->tasks[tl_core->task];
    if (!exists || (sub < 0 ? t.aic_need : t.aiv_need) == 0) return false;
    core::CoreState& peer = run->core(id);
    while (peer.pub_task[hw].load(std::memory_order_acquire) != tl_core->task) {   // it enters the task shortly
        poll(loc);
        std::this_thread::yield();
    }
    *base = peer.pub_base[hw].load(std::memory_order_relaxed);
    *bytes = peer.pub_len[hw].load(std::memory_order_relaxed);
    if (inbox) *inbox = peer.pub_inbox[hw].load(std::memory_order_relaxed);
    return true;
}

void poll() {
    if (tl_run && tl_run->cancelled.load(std::memory_order_relaxed)) core::throw_cancelled();
}

void poll(Loc loc) {
    core::note_loc(tl_core, loc);
    poll();
}

// Lines are prefixed "[AIV3] " and appended whole, so lines of different cores never interleave.
void print(const char* text) {
    if (!text) return;
    core::Run* run = tl_run;
    if (!run || !tl_core) {   // host code: no prefix, straight to the session output
        fputs(text, stdout);
        fflush(stdout);
        return;
    }
    std::string& buf = tl_core->line_buf;
    buf += text;
    size_t start = 0, nl;
    std::string lines;
    while ((nl = buf.find('\n', start)) != std::string::npos) {
        lines += "[" + tl_core->label + "] " + buf.substr(start, nl - start + 1);
        start = nl + 1;
    }
    buf.erase(0, start);
    if (lines.empty()) return;
    std::lock_guard<std::mutex> lk(run->out_mu);
    run->res.output += lines;
    if (run->cfg.echo_output) {
        fputs(lines.c_str(), stdout);
        fflush(stdout);
    }
}

}  // namespace rt
}  // namespace ascgen
