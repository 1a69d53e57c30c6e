// Modeled timeline (see timeline.h and docs/timeline.md).
//
// The model, per core: instructions are *issued* in program order by the scalar unit and *executed* on
// their pipe. Each pipe runs one instruction at a time. An instruction starts when (a) it has been
// issued, (b) its pipe is free, and (c) the work it consumes is done: the upstream pipes of the
// standard Ascend C data flow (MTE2 -> V -> MTE3 on vector cores, MTE2 -> MTE1 -> M -> FIX on cube
// cores) must have finished what was issued before it. That makes a double-buffered tile loop overlap
// its loads, compute and stores the way the hardware does, while a single chain stays sequential.
// Scalar work (S) advances the issue point itself. A PipeBarrier<PIPE_ALL> (cost(pipe::ALL, n)) stalls
// the issue point until every pipe drained.
//
// Each core's state is touched only by its own thread during the run; finish() runs after all stopped.
#include "timeline.h"

#include <algorithm>
#include <atomic>

#include "core_state.h"

namespace ascgen {
namespace timeline {
namespace {

constexpr int kPipes = 11;   // rt::pipe::S .. rt::pipe::FIX

struct alignas(64) CoreClock {
    double issue = 0;                // where program order has reached
    double free[kPipes] = {};        // when each pipe finishes its last instruction
    std::vector<Event> events;
};

std::atomic<bool> g_enabled{false};
Params g_params;
std::vector<CoreClock> g_cores;

// The pipes whose earlier work an instruction on `pipe` consumes (the data flow of a tile).
double upstream_done(const CoreClock& c, int pipe) {
    using namespace rt::pipe;
    switch (pipe) {
        case V: case V2: return std::max(c.free[MTE2], c.free[MTE1]);
        case MTE3: return std::max({c.free[V], c.free[V2], c.free[MTE2], c.free[FIX]});
        case MTE1: return c.free[MTE2];
        case M: return std::max(c.free[MTE1], c.free[MTE2]);
        case FIX: return c.free[M];
        default: return 0;
    }
}

double duration(int pipe, uint64_t units) {
    using namespace rt::pipe;
    const double u = static_cast<double>(units);
    switch (pipe) {
        case MTE1: case MTE2: case MTE3: case MTE4: case MTE5: case FIX:
            return u / g_params.mte_bytes_per_cycle;
        case V: case V2: return u / g_params.vec_elems_per_cycle;
        case M: return u / g_params.cube_elems_per_cycle;
        default: return u * g_params.scalar_cycles;
    }
}

CoreClock* clock_of(int core) {
    if (!enabled() || core < 0 || core >= static_cast<int>(g_cores.size())) return nullptr;
    return &g_cores[core];
}

double drained(const CoreClock& c) {
    double t = c.issue;
    for (double f : c.free) t = std::max(t, f);
    return t;
}

}  // namespace

void begin_run(int cores, bool enabled, const Params& p) {
    g_enabled.store(false, std::memory_order_relaxed);
    g_cores.clear();
    g_params = p;
    if (!enabled || cores <= 0) return;
    g_cores.resize(cores);
    g_enabled.store(true, std::memory_order_release);
}

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }

double now(int core) {
    const CoreClock* c = clock_of(core);
    return c ? drained(*c) : 0.0;
}

double fire_time(int core, int pipe) {
    const CoreClock* c = clock_of(core);
    if (!c) return 0.0;
    if (pipe < 0 || pipe >= kPipes || pipe == rt::pipe::ALL) return drained(*c);
    return std::max(c->issue, c->free[pipe]);
}

void advance_to(int core, double t) {
    CoreClock* c = clock_of(core);
    if (c) c->issue = std::max(c->issue, t);
}

void mark_at(int core, int task, Mark kind, double t, rt::Loc loc) {
    CoreClock* c = clock_of(core);
    if (c) c->events.push_back(Event{core, task, kind, t, loc.file, loc.line});
}

void mark(int core, int task, Mark kind, rt::Loc loc) {
    CoreClock* c = clock_of(core);
    if (!c) return;
    // A task starts on a core once the previous task's work there drained (the SK calls sub-kernels one
    // after the other; the model does not overlap two tasks on one core), so issue moves up to it.
    // A wait begins once the core's earlier work (its prologue, e.g. a prefetch still on MTE2) drained, so
    // "span minus waits" counts that work as busy; it ends where issue resumes.
    if (kind == Mark::TaskBegin) c->issue = drained(*c);
    const bool at_issue = kind == Mark::TaskBegin || kind == Mark::WaitEnd;
    mark_at(core, task, kind, at_issue ? c->issue : drained(*c), loc);
}

std::vector<Event> finish() {
    std::vector<Event> out;
    if (!enabled()) return out;
    g_enabled.store(false, std::memory_order_relaxed);
    for (const CoreClock& c : g_cores) out.insert(out.end(), c.events.begin(), c.events.end());
    std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
        return a.t < b.t || (a.t == b.t && a.core < b.core);
    });
    return out;
}

}  // namespace timeline

namespace rt {

void cost(int pipe, uint64_t units) {
    timeline::CoreClock* c = nullptr;
    if (!timeline::enabled()) return;
    const int core = core::current_core();
    if (core < 0 || core >= static_cast<int>(timeline::g_cores.size())) return;
    c = &timeline::g_cores[core];
    if (pipe == pipe::ALL) {                      // PipeBarrier<PIPE_ALL>: wait for every pipe
        c->issue = timeline::drained(*c) + timeline::duration(pipe::S, units);
        return;
    }
    if (pipe == pipe::S || pipe < 0 || pipe >= timeline::kPipes) {
        c->issue += timeline::duration(pipe::S, units);
        return;
    }
    const double start = std::max({c->issue, c->free[pipe], timeline::upstream_done(*c, pipe)});
    c->free[pipe] = start + timeline::duration(pipe, units);
}

}  // namespace rt
}  // namespace ascgen
