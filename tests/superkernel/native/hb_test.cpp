// Unit driver for runtime/core/hb.cpp: happens-before and cross-task race detection, without threads
// (hb's verdicts depend on clocks only, so calling the hooks in any order must give the same answer).
// Built and run by tests/superkernel/test_native.py; prints "ok <name>" per check, exits 1 on the first failure.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hb.h"

using namespace ascgen;

static int g_failures = 0;
#define CHECK(cond, name)                                                        \
    do {                                                                         \
        if (cond) std::printf("ok %s\n", name);                                  \
        else { std::printf("FAIL %s (line %d)\n", name, __LINE__); ++g_failures; } \
    } while (0)

static rt::Loc L(int line) { return rt::Loc{"k.cpp", line}; }

// A two-core boundary as the core drives it: every participant releases into the round, the round
// joins, every waiter acquires the joined clock.
static void boundary(int cores) {
    hb::Clock round;
    for (int c = 0; c < cores; ++c) round = hb::join(round, hb::release(c));
    for (int c = 0; c < cores; ++c) hb::acquire(c, round);
}

static void test_ordered_boundary_is_clean() {
    hb::begin_run(2, true);
    hb::access(0, 0, 0x1000, 256, true, L(10), 0);      // task 0 writes on core 0
    boundary(2);
    hb::access(1, 1, 0x1000, 256, false, L(20), 0);     // task 1 reads on core 1 after the wait
    CHECK(hb::finish().empty(), "ordered_boundary_is_clean");
}

static void test_tail_write_races() {
    hb::begin_run(2, true);
    hb::note_call(0, 0, true, L(9));
    hb::Clock c0 = hb::release(0);                      // core 0 sets ...
    hb::access(0, 0, 0x1000, 256, true, L(10), 2);      // ... then writes (tail)
    hb::Clock c1 = hb::release(1);
    hb::Clock round = hb::join(c0, c1);
    hb::acquire(1, round);
    hb::access(1, 1, 0x1080, 256, false, L(20), 0);
    auto races = hb::finish();
    CHECK(races.size() == 1, "tail_write_races.count");
    if (races.size() == 1) {
        const auto& r = races[0];
        CHECK(r.earlier.task == 0 && r.later.task == 1 && r.earlier.write && !r.later.write, "tail_write_races.kinds");
        CHECK(r.earlier.addr == 0x1080 && r.earlier.bytes == 128, "tail_write_races.overlap_range");
        CHECK(r.earlier.line == 10 && r.later.line == 20 && r.earlier.window == 2, "tail_write_races.lines");
        CHECK(r.call_line == 9 && std::string(r.call_file) == "k.cpp", "tail_write_races.culprit_is_set");
    }
}

static void test_prologue_read_races() {
    hb::begin_run(2, true);
    hb::access(0, 0, 0x2000, 64, true, L(11), 0);
    hb::Clock round = hb::join(hb::release(0), hb::release(1));
    hb::access(1, 1, 0x2000, 64, false, L(21), 1);      // read before acquiring: prologue
    hb::note_call(1, 1, false, L(22));
    hb::acquire(1, round);
    auto races = hb::finish();
    CHECK(races.size() == 1 && races[0].later.window == 1 && races[0].call_line == 22, "prologue_read_races");
}

static void test_read_read_and_same_task_are_clean() {
    hb::begin_run(3, true);
    hb::access(0, 0, 0x3000, 64, false, L(1), 2);
    hb::access(1, 1, 0x3000, 64, false, L(2), 1);       // read/read: no race
    hb::access(2, 0, 0x3000, 64, true, L(3), 0);        // same task as core 0's read: not cross-task
    hb::access(2, 1, 0x4000, 64, true, L(4), 0);        // disjoint from everything
    auto races = hb::finish();
    // Only core 2's task-0 write vs core 1's task-1 read conflict (unordered: no boundary at all).
    CHECK(races.size() == 1 && races[0].earlier.core == 2 && races[0].later.core == 1, "read_read_and_same_task");
}

static void test_same_core_is_program_order() {
    hb::begin_run(2, true);
    hb::access(0, 0, 0x5000, 64, true, L(1), 2);
    hb::access(0, 1, 0x5000, 64, false, L(2), 1);
    CHECK(hb::finish().empty(), "same_core_is_program_order");
}

static void test_coalescing_merges_tiles() {
    hb::begin_run(2, true);
    hb::release(0);
    for (int t = 0; t < 1000; ++t) hb::access(0, 0, 0x10000 + t * 64, 64, true, L(30), 2);   // a tile loop
    hb::release(1);
    for (int t = 0; t < 1000; ++t) hb::access(1, 1, 0x10000 + t * 64, 64, false, L(40), 1);
    auto races = hb::finish();
    CHECK(races.size() == 1 && races[0].earlier.bytes == 64000, "coalescing_merges_tiles");
}

static void test_disjoint_ranges_are_separate_records() {
    hb::begin_run(2, true);
    hb::access(0, 0, 0x1000, 64, true, L(1), 0);
    hb::access(0, 0, 0x9000, 64, true, L(1), 0);
    hb::access(1, 1, 0x1000, 64, true, L(2), 0);
    hb::access(1, 1, 0x9000, 64, true, L(2), 0);
    auto races = hb::finish();
    CHECK(races.size() == 2 && races[0].earlier.addr == 0x1000 && races[1].earlier.addr == 0x9000 &&
              races[0].earlier.write && races[0].later.write, "disjoint_ranges_separate_waw");
}

static void test_transitive_order_through_relay() {
    // core 0 (task 0) -> round A -> core 1 -> relay round B -> core 2 (task 1): ordered transitively.
    hb::begin_run(3, true);
    hb::access(0, 0, 0x1000, 64, true, L(1), 0);
    hb::Clock a = hb::release(0);
    hb::acquire(1, a);
    hb::Clock b = hb::release(1);
    hb::acquire(2, b);
    hb::access(2, 1, 0x1000, 64, false, L(2), 0);
    CHECK(hb::finish().empty(), "transitive_order_through_relay");
}

static void test_disabled_is_noop() {
    hb::begin_run(2, false);
    CHECK(!hb::enabled(), "disabled.flag");
    hb::access(0, 0, 0x1000, 64, true, L(1), 0);
    hb::access(1, 1, 0x1000, 64, true, L(2), 0);
    CHECK(hb::release(0) == nullptr && hb::finish().empty(), "disabled_is_noop");
}

int main() {
    test_ordered_boundary_is_clean();
    test_tail_write_races();
    test_prologue_read_races();
    test_read_read_and_same_task_are_clean();
    test_same_core_is_program_order();
    test_coalescing_merges_tiles();
    test_disjoint_ranges_are_separate_records();
    test_transitive_order_through_relay();
    test_disabled_is_noop();
    return g_failures ? 1 : 0;
}
