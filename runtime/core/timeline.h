// Modeled timeline (tasksync-semantics.md section 5): per-core, per-pipe modeled cycles, task spans,
// set/wait markers. The latencies are parameters with documented defaults (docs/timeline.md), not
// published numbers. rt::cost() (the library's hook) is implemented in timeline.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "ascgen/rt.h"

namespace ascgen {
namespace timeline {

struct Params {
    double mte_bytes_per_cycle = 64;     // MTE2 / MTE3 / MTE1 / FIX
    double vec_elems_per_cycle = 64;     // V
    double cube_elems_per_cycle = 4096;  // M
    double scalar_cycles = 1;            // S, per unit
    double flag_round_cycles = 400;      // a cross-core flag round, set to observable by waiters
    double task_launch_cycles = 1000;    // a plain barrier between tasks when early start is off
};

enum class Mark : int { TaskBegin = 0, TaskEnd = 1, Set = 2, WaitBegin = 3, WaitEnd = 4, Barrier = 5 };

struct Event {
    int core, task;
    Mark kind;
    double t;            // modeled cycles
    const char* file;
    int line;
};

void begin_run(int cores, bool enabled, const Params& p);
bool enabled();
double now(int core);                          // the core's modeled time (max over its pipes for sync)
double fire_time(int core, int pipe);          // when a set issued on `pipe` fires (the pipe drained)
void advance_to(int core, double t);           // a wait returned at t (round completion + latency)
void mark(int core, int task, Mark kind, rt::Loc loc);     // at now(core) (drained); WaitEnd at issue time; TaskBegin first moves issue to now(core)
void mark_at(int core, int task, Mark kind, double t, rt::Loc loc);   // at an explicit time (e.g. a set's fire_time)
std::vector<Event> finish();

}  // namespace timeline
}  // namespace ascgen
