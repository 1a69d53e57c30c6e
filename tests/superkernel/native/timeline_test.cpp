// Unit driver for runtime/core/timeline.cpp: the per-pipe cost model and event marks.
// Built and run by tests/superkernel/test_native.py; prints "ok <name>" per check, exits 1 on a failure.
#include <cmath>
#include <cstdio>

#include "core_state.h"
#include "timeline.h"

using namespace ascgen;

// The core library owns the core identity; this driver plays one core thread at a time.
static int g_core = 0;
namespace ascgen { namespace core {
int current_core() { return g_core; }
int current_task() { return 0; }
int core_count() { return 2; }
const char* core_label(int) { return "AIV0"; }
const char* task_name(int) { return "t"; }
int task_count() { return 1; }
}}  // namespace ascgen::core

static int g_failures = 0;
#define CHECK(cond, name)                                                              \
    do {                                                                               \
        if (cond) std::printf("ok %s\n", name);                                        \
        else { std::printf("FAIL %s (line %d)\n", name, __LINE__); ++g_failures; }     \
    } while (0)
static bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }

static timeline::Params params() {
    timeline::Params p;
    p.mte_bytes_per_cycle = 64;
    p.vec_elems_per_cycle = 64;
    p.scalar_cycles = 1;
    return p;
}

static void test_chain_is_sequential() {
    timeline::begin_run(1, true, params());
    g_core = 0;
    rt::cost(rt::pipe::MTE2, 6400);   // 100 cycles
    rt::cost(rt::pipe::V, 3200);      // 50, after the load
    rt::cost(rt::pipe::MTE3, 6400);   // 100, after the compute
    CHECK(near(timeline::now(0), 250), "chain_is_sequential");
    CHECK(near(timeline::fire_time(0, rt::pipe::MTE3), 250), "set_fires_when_mte3_drained");
    CHECK(near(timeline::fire_time(0, rt::pipe::S), 0), "scalar_pipe_fires_at_issue");
    timeline::finish();
}

static void test_tile_loop_overlaps() {
    // 4 tiles of load 100 / compute 50 / store 100: loads back to back, stores trail by one stage.
    timeline::begin_run(1, true, params());
    for (int t = 0; t < 4; ++t) {
        rt::cost(rt::pipe::MTE2, 6400);
        rt::cost(rt::pipe::V, 3200);
        rt::cost(rt::pipe::MTE3, 6400);
    }
    // MTE2 ends at 100,200,300,400; V at 150,250,350,450; MTE3 at 250,350,450,550.
    CHECK(near(timeline::now(0), 550), "tile_loop_overlaps");
    timeline::finish();
}

static void test_barrier_and_advance() {
    timeline::begin_run(2, true, params());
    g_core = 0;
    rt::cost(rt::pipe::MTE2, 6400);
    rt::cost(rt::pipe::ALL, 0);                  // PipeBarrier<PIPE_ALL>
    rt::cost(rt::pipe::V, 64);                   // starts after 100, not 0
    CHECK(near(timeline::now(0), 101), "pipe_barrier_stalls_issue");
    g_core = 1;
    rt::cost(rt::pipe::MTE2, 6400);              // a prefetch: 100 cycles on MTE2, issue stays at 0
    timeline::mark(1, 0, timeline::Mark::WaitBegin, rt::Loc{"k.cpp", 7});   // at 100: the prefetch drained
    timeline::advance_to(1, 500);                // the wait returned at 500
    timeline::mark(1, 0, timeline::Mark::WaitEnd, rt::Loc{"k.cpp", 7});
    rt::cost(rt::pipe::MTE2, 640);
    CHECK(near(timeline::now(1), 510), "advance_to_delays_later_work");   // MTE2 free at 100, starts at 500
    timeline::mark_at(1, 0, timeline::Mark::Set, 505, rt::Loc{"k.cpp", 9});
    auto ev = timeline::finish();
    CHECK(ev.size() == 3 && ev[0].kind == timeline::Mark::WaitBegin && near(ev[0].t, 100) &&
              near(ev[1].t, 500) && ev[2].kind == timeline::Mark::Set && near(ev[2].t, 505) && ev[2].line == 9,
          "events_sorted_with_times");
}

static void test_task_begin_waits_for_the_previous_task_to_drain() {
    timeline::begin_run(1, true, params());
    g_core = 0;
    timeline::mark(0, 0, timeline::Mark::TaskBegin, rt::Loc{"a.cpp", 0});
    rt::cost(rt::pipe::MTE3, 6400);              // task 0 ends with a store draining at 100
    timeline::mark(0, 0, timeline::Mark::TaskEnd, rt::Loc{"a.cpp", 0});
    timeline::mark(0, 1, timeline::Mark::TaskBegin, rt::Loc{"b.cpp", 0});
    rt::cost(rt::pipe::MTE2, 6400);              // task 1's first load: starts at 100, not 0
    auto ev = timeline::finish();
    CHECK(ev.size() == 3 && near(ev[1].t, 100) && near(ev[2].t, 100) && ev[2].kind == timeline::Mark::TaskBegin,
          "task_begin_at_previous_drain");
    timeline::begin_run(1, true, params());
    timeline::mark(0, 1, timeline::Mark::TaskBegin, rt::Loc{"b.cpp", 0});
    rt::cost(rt::pipe::MTE2, 6400);
    CHECK(near(timeline::now(0), 100), "task_begin_then_work");
    timeline::finish();
}

static void test_disabled_and_host_thread() {
    timeline::begin_run(1, false, params());
    rt::cost(rt::pipe::MTE2, 6400);
    CHECK(!timeline::enabled() && timeline::now(0) == 0 && timeline::finish().empty(), "disabled_is_noop");
    timeline::begin_run(1, true, params());
    g_core = -1;                                  // a host thread: ignored
    rt::cost(rt::pipe::MTE2, 6400);
    g_core = 0;
    CHECK(near(timeline::now(0), 0), "host_thread_ignored");
    timeline::finish();
}

int main() {
    test_chain_is_sequential();
    test_tile_loop_overlaps();
    test_barrier_and_advance();
    test_task_begin_waits_for_the_previous_task_to_drain();
    test_disabled_and_host_thread();
    return g_failures ? 1 : 0;
}
