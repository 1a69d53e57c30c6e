// The state of one run (a plain launch or a SuperKernel): its configuration, tasks, cores, the cross-core
// flag rounds and the results. One run at a time per process; everything that changes while cores run is
// guarded by Run::mu, except what a core touches only on its own thread.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ascgen/rt.h"
extern "C" {
#include "core_api.h"
}
#include "hb.h"
#include "timeline.h"

namespace ascgen {
namespace core {

enum KernelType { K_AIV = 0, K_AIC = 1, K_MIX11 = 2, K_MIX12 = 3 };
enum TaskKind { T_AIC = 0, T_AIV = 1, T_MIX = 2 };   // the transition table's types (cfg = prev*4 + cur)
constexpr int kFlags = 32;                              // 16 per core; mode 4 on arch 3510 adds AIC 16..26
constexpr int kFlagMax = 15;                            // a counter holds 0..15

struct TaskInfo {
    std::string name, source;
    void (*entry)(void**) = nullptr;
    void** args = nullptr;
    rt::KernelThunk thunk = nullptr;    // host launches call thunk(ctx) instead of entry(args)
    void* ctx = nullptr;
    int block_dim = 0, kernel_type = K_AIV;
    bool uses_wait = false, uses_set = false, uses_sync_all = true;
    int aic_need = 0, aiv_need = 0;     // cores of each type the task runs on
    TaskKind kind = T_AIV;
};

// One increment of a core's flag counter: the joined clock and modeled time of the round that made it.
struct Incr {
    hb::Clock clock;
    double t = 0;
};

// Which call a blocked core is in (for the hang report).
enum class WaitKind { User, Boundary, SyncAll, Barrier, Feed };

struct WaitDesc {
    WaitKind kind = WaitKind::User;
    int flag = -1;
    int src_kind = -1;          // the expected source of the increment (Src), -1 unknown
    int src_scope = 0;          // its scope (core type for mode 0, AI Core group otherwise)
    rt::Loc loc{nullptr, 0};    // user call site, or null when the SuperKernel inserted the wait
    int task = -1;              // task the call belongs to (boundary: the task being entered)
};

enum class Status { Running, Blocked, Done };

struct CoreState {
    int id = 0;                 // AIC cores first, then AIV cores
    rt::CoreType type = rt::CoreType::AIV;
    int index = 0;              // index among the cores of its type
    int group = 0;              // AI Core group (AIC c with AIVs c*ratio ...)
    int sub = 0;                // position of an AIV in its group
    std::string label;
    std::thread thread;
    std::condition_variable cv;
    std::deque<Incr> flags[kFlags];
    // Completed rounds may stay unconsumed at the end of the run (a protocol that notifies more cores than
    // wait, as the Matmul API's server does; rt::allow_unconsumed_flags): only a counter past the
    // hardware's 4 bits is then reported.
    bool unconsumed_ok = false;

    // Guarded by Run::mu.
    Status status = Status::Running;
    WaitDesc wait;
    int feed_seen = 0;
    std::vector<std::string> missed;      // per task: what this core skipped ("" when nothing)

    // Written by the core's own thread; read by others only after it stopped or under Run::mu.
    int task = -1;
    bool active = false;
    int64_t block_idx = 0, block_num = 0, sub_block = 0, ratio = 1;
    int sets = 0, waits = 0;              // own task-sync calls in the current task
    rt::Loc set_loc{nullptr, 0}, wait_loc{nullptr, 0};
    int window = 0;                       // hb window: 0 ordered, 1 prologue, 2 tail
    std::atomic<const char*> last_file{nullptr};
    std::atomic<int> last_line{0};
    std::mt19937_64 rng;
    std::string line_buf;                 // printf text not yet ended by '\n'
    // rt::local_publish: this core's local buffer `hw` in the task `pub_task[hw]` (set by its own thread,
    // read by its group's cores once pub_task[hw] says the current task). One stamp per buffer: a core
    // publishes its buffers one after another, and a single stamp set by the first let a peer read the
    // second's base before it was stored (a null base, a segfault in the peer's copy).
    static constexpr int kLocals = 8;
    std::atomic<uint64_t> pub_base[kLocals] = {}, pub_len[kLocals] = {};
    std::atomic<void*> pub_inbox[kLocals] = {};
    std::atomic<int> pub_task[kLocals] = {-1, -1, -1, -1, -1, -1, -1, -1};
};

// Rounds of one flag source: the cores whose sets form a round, the cores a completed round increments.
enum Src { SRC_MODE0 = 0, SRC_MODE1 = 1, SRC_V2C = 2, SRC_C2V = 3, SRC_M4_V2C = 4, SRC_M4_C2V = 5 };

struct Round {
    hb::Clock clock;
    double t = 0;
};

struct Rounds {
    int src = 0, flag_in = 0, flag_out = 0, scope = 0;   // scope: core type (mode 0) or group
    std::vector<int> participants, deliver;
    std::vector<int> counts;              // sets per participant
    std::vector<rt::Loc> last_loc;        // last set site per participant
    int completed = 0;
    std::deque<Round> pending;            // rounds started but not complete
};

struct Lint {
    std::string file;
    int line;
    std::string severity, rule, message;
};

struct Fault {
    rt::Fault kind = rt::Fault::None;
    std::string message, core, kernel, file;
    int task = -1, line = 0;
};

struct RaceOut {
    ascgen_access a[2];
    std::string strs[2][4];               // label, kernel, buffer, dtype (keep the char* alive)
    std::string call_file;
    int call_line = 0;
};

struct EventOut {
    timeline::Event e;
    std::string label;
};

struct Results {
    Fault fault;
    std::string output;
    std::vector<Lint> lints;
    std::map<std::tuple<std::string, std::string, int>, bool> lint_seen;
    std::vector<RaceOut> races;
    std::vector<EventOut> events;
    int threads_left = 0;
};

struct Run {
    ascgen_config cfg{};
    std::string product;
    std::vector<TaskInfo> tasks;
    std::vector<std::unique_ptr<CoreState>> cores;
    int aic = 0, aiv = 0;

    std::mutex mu;                        // flags, statuses, rounds, results
    std::atomic<bool> cancelled{false};
    std::condition_variable done_cv;
    int done = 0;
    std::map<std::tuple<int, int, int>, Rounds> rounds;   // (src, scope, flag_in)
    std::vector<int> syncall_in_task;     // per task: SyncAll calls seen (for hang hints)
    std::vector<int> feed_pub, feed_end, task_finished;
    std::vector<std::vector<int>> feed_aiv_only;
    std::vector<rt::Loc> task_set_loc, task_wait_loc;   // first own call seen per task (for reports)

    std::mutex out_mu;                    // printf lines
    Results res;
    double started = 0;                   // monotonic seconds
    bool timed_out = false;
    double cancel_time = 0;
    bool finished = false;
    std::vector<std::string> gm_names;     // buffers registered for this run (unregistered at finish)
    std::vector<uint64_t> gm_addrs;

    CoreState& core(int id) { return *cores[id]; }
    int task_count() const { return (int)tasks.size(); }
    bool sk() const { return cfg.superkernel != 0; }
};

// ---- thread-local identity ----
extern thread_local Run* tl_run;
extern thread_local CoreState* tl_core;
std::shared_ptr<Run> current_run();       // the last started run (results are read from it)

double monotonic();
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string loc_str(rt::Loc loc);         // "file:line" or "(inserted by the SuperKernel)"
// Code-address locations (ascgen/code_site.h, code_site.cpp): the user's file and line, symbolised on first use
// (other locations are returned as they are), and what was called there (" (AscendC::DataCopy) -> copy_gm_to_ubuf").
rt::Loc resolved(rt::Loc loc);
std::string site_detail(rt::Loc loc);
std::string base_name(const char* path);
std::string range_label(const std::vector<int>& core_ids, Run& run);   // "AIV0..AIV5, AIV7"
const char* kind_word(TaskKind k);

// ---- faults (faults.cpp) ----
// Record the first fault of the run (later ones are ignored), cancel every core. Takes Run::mu itself
// unless `locked`.
void record_fault(Run& run, rt::Fault kind, const std::string& message, CoreState* core, rt::Loc loc,
                  bool locked = false);
std::string fault_report(const char* title, const std::vector<std::string>& details, const std::string& hint,
                         const std::string& summary);
void cancel_locked(Run& run);
void throw_cancelled();     // returns only while the core is already unwinding (faults.cpp)
void note_loc(CoreState* c, rt::Loc loc);
void add_lint(Run& run, rt::Loc loc, const char* severity, const char* rule, const std::string& message);
std::string timeout_report(Run& run, const std::vector<int>& stuck);

// ---- flags (flags.cpp) ----
void flag_set(Run& run, CoreState& me, int mode, int pipe, int flag, rt::Loc loc);
void flag_wait(Run& run, CoreState& me, int flag, const WaitDesc& desc);
Rounds& rounds_for(Run& run, int src, int scope, int flag);   // call with Run::mu held
void check_deadlock_locked(Run& run);
void block_until_locked(Run& run, CoreState& me, std::unique_lock<std::mutex>& lk, const WaitDesc& desc);
bool wait_satisfiable_locked(Run& run, CoreState& c);
void end_of_run_checks(Run& run);
void perturb(Run& run, CoreState* me);

// ---- hang report (hang.cpp) ----
std::string hang_report(Run& run);        // call with Run::mu held, every live core blocked

// ---- SuperKernel execution (sk.cpp) ----
void core_body(Run& run, CoreState& me);  // everything one core thread does
void full_sync(Run& run, CoreState& me, bool aiv_only, WaitKind kind, rt::Loc loc, int task);

// ---- GM registry (gm.cpp) ----
void gm_add(uint64_t addr, uint64_t bytes, const std::string& name, const std::string& dtype, bool run_owned);
void gm_remove_run_owned();
struct GmHit {
    bool found = false;
    std::string name, dtype;
    uint64_t offset = 0;
};
GmHit gm_lookup(uint64_t addr);
bool gm_contains(uint64_t addr, uint64_t bytes);   // [addr, addr+bytes) inside one registered buffer
int gm_count();
uint64_t gm_mark();                       // registrations so far
void gm_remove_host_since(uint64_t mark);  // a host program ended: forget what it registered

// ---- hooks into the detectors for one run ----
void set_current_run(std::shared_ptr<Run> run);

}  // namespace core
}  // namespace ascgen
