// Happens-before tracking and cross-task data-race detection (vector clocks).
//
// The core calls these at the points that order cores: program order is implicit (each core's own
// accesses), a flag *set* releases the setter's clock into the flag round, the round completing joins
// every participant's released clock, a *wait* that consumes a round acquires that joined clock.
// Races are found between accesses of different tasks not ordered by happens-before, whatever the
// actual thread interleaving, because the decision uses clocks, not timing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ascgen/rt.h"

namespace ascgen {
namespace hb {

// An immutable vector-clock snapshot (one entry per core of the launch).
using Clock = std::shared_ptr<const std::vector<uint32_t>>;

void begin_run(int cores, bool enabled);            // reset; disabled runs make every call a cheap no-op
bool enabled();

Clock release(int core);                            // snapshot the core's clock, then tick it
Clock join(const Clock& a, const Clock& b);         // entry-wise max (null counts as all zeros)
void acquire(int core, const Clock& c);             // core's clock = max(core's clock, c)

// A GM access by `core` while executing `task`. `window` tells where it sits relative to the task's own
// calls: 0 between WaitPreTaskEnd and SetNextTaskStart (or no calls), 1 before the wait (prologue),
// 2 after the set (tail). Contiguous ranges; strided copies are reported block by block by the core.
void access(int core, int task, uint64_t addr, uint64_t bytes, bool write, rt::Loc loc, int window);

// Where each task's own calls were, per core (for the fix hint in reports).
void note_call(int core, int task, bool is_set, rt::Loc loc);

struct Access {
    int core, task;
    uint64_t addr, bytes;
    bool write;
    const char* file;
    int line;
    int window;
};
struct Race {
    Access earlier;   // the access of the earlier task
    Access later;     // the access of the later task
    const char* call_file;   // the misplaced SetNextTaskStart (earlier tail) or WaitPreTaskEnd (later prologue)
    int call_line;
};

// After every core has finished: pair overlapping accesses of different tasks with at least one write
// and no happens-before order; one record per (earlier line, later line, buffer range) pair.
std::vector<Race> finish();

}  // namespace hb
}  // namespace ascgen
