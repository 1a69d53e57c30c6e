// Happens-before tracking and cross-task race detection (see hb.h).
//
// Design, chosen so the cost during the run stays a few pointer compares per GM access:
//  * Each core owns its state (clock, segments, intervals) and is the only thread that touches it while
//    the run goes on: release/acquire/access/note_call are called on the core's own thread. finish()
//    runs after every core thread has stopped, so no locks are needed.
//  * A *segment* is a stretch of one core's program between two clock changes (a release or an
//    acquire). All accesses in one segment share one clock snapshot, taken lazily on the first access.
//  * Accesses are stored as byte intervals and coalesced: an access extends a recent interval with the
//    same (segment, task, read/write, window, source line) when it starts where that one ended, so a tile
//    loop walking a buffer becomes one interval per core and line.
//  * finish() sorts every interval by start address and sweeps; each overlapping pair from different
//    tasks and cores, with a write, and no happens-before order either way, is a race. Races with the
//    same (earlier line, later line, tasks, kinds, cores) whose byte ranges touch are merged into one
//    record, so a record is one core pair's contiguous racy range; report.py then groups the records of
//    one bug per buffer and shows one pair plus the hull.
#include "hb.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <tuple>

namespace ascgen {
namespace hb {
namespace {

struct Interval {
    uint64_t lo, hi;        // [lo, hi)
    int core, task;
    int seg;                // index into the owning core's segments
    bool write;
    int window;
    const char* file;
    int line;
};

// One core's state. Aligned so cores writing their own state do not share cache lines.
struct alignas(64) CoreState {
    std::vector<uint32_t> clock;         // current vector clock
    std::vector<Clock> segments;         // snapshots, one per segment that saw an access
    bool seg_open = false;               // the current segment already has a snapshot in `segments`
    std::vector<Interval> intervals;
    // Recently extended intervals (indices into `intervals`), checked before appending: a tile loop
    // interleaves a few lines (load x, load y, store z), each walking forward through its buffer.
    static constexpr int kRecent = 8;
    int recent[kRecent];
    int recent_next = 0;
    // Per task: where this core executed the task's own calls (for the fix hint).
    std::vector<std::pair<rt::Loc, rt::Loc>> calls;   // (set, wait); file == nullptr when not called
};

std::atomic<bool> g_enabled{false};
std::vector<CoreState> g_cores;

void new_segment(CoreState& cs) {
    cs.seg_open = false;
    for (int& r : cs.recent) r = -1;    // never coalesce across a clock change
}

Clock snapshot(const CoreState& cs) { return std::make_shared<const std::vector<uint32_t>>(cs.clock); }

bool same_site(const Interval& a, int task, bool write, int window, const rt::Loc& loc) {
    return a.task == task && a.write == write && a.window == window && a.line == loc.line &&
           (a.file == loc.file || (a.file && loc.file && std::strcmp(a.file, loc.file) == 0));
}

// a happens-before b: b's clock has seen a's core at or after a's own clock entry.
bool before(const Interval& a, const Interval& b) {
    const auto& ca = *g_cores[a.core].segments[a.seg];
    const auto& cb = *g_cores[b.core].segments[b.seg];
    return ca[a.core] <= cb[a.core];
}

// The misplaced call behind a race: the earlier task's set when its access sits in its tail, else the
// later task's wait when its access sits in its prologue.
rt::Loc culprit(const Interval& earlier, const Interval& later) {
    auto call_of = [](int core, int task, bool set) -> rt::Loc {
        const auto& calls = g_cores[core].calls;
        if (task < 0 || task >= static_cast<int>(calls.size())) return rt::Loc{nullptr, 0};
        return set ? calls[task].first : calls[task].second;
    };
    if (earlier.window == 2) return call_of(earlier.core, earlier.task, true);
    if (later.window == 1) return call_of(later.core, later.task, false);
    return rt::Loc{nullptr, 0};
}

Access to_access(const Interval& iv, uint64_t lo, uint64_t hi) {
    return Access{iv.core, iv.task, lo, hi - lo, iv.write, iv.file, iv.line, iv.window};
}

using Key = std::tuple<const char*, int, bool, int, int, const char*, int, bool, int, int>;

struct Found {
    Race race;
    uint64_t lo, hi;   // merged racy byte range
};

constexpr size_t kMaxRecords = 4096;   // a pathological kernel must not drown the report

}  // namespace

void begin_run(int cores, bool enabled) {
    g_enabled.store(false, std::memory_order_relaxed);
    g_cores.clear();
    if (!enabled || cores <= 0) return;
    g_cores.resize(cores);
    for (int c = 0; c < cores; ++c) {
        CoreState& cs = g_cores[c];
        cs.clock.assign(cores, 0);
        cs.clock[c] = 1;   // own entry starts at 1 so an empty acquired clock (0) never orders it
        new_segment(cs);
    }
    g_enabled.store(true, std::memory_order_release);
}

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }

Clock release(int core) {
    if (!enabled() || core < 0 || core >= static_cast<int>(g_cores.size())) return nullptr;
    CoreState& cs = g_cores[core];
    Clock out = snapshot(cs);
    ++cs.clock[core];
    new_segment(cs);
    return out;
}

Clock join(const Clock& a, const Clock& b) {
    if (!a) return b;
    if (!b) return a;
    auto out = std::make_shared<std::vector<uint32_t>>(*a);
    const size_t n = std::min(out->size(), b->size());
    for (size_t i = 0; i < n; ++i) (*out)[i] = std::max((*out)[i], (*b)[i]);
    return out;
}

void acquire(int core, const Clock& c) {
    if (!enabled() || !c || core < 0 || core >= static_cast<int>(g_cores.size())) return;
    CoreState& cs = g_cores[core];
    bool changed = false;
    const size_t n = std::min(cs.clock.size(), c->size());
    for (size_t i = 0; i < n; ++i) {
        if ((*c)[i] > cs.clock[i]) {
            cs.clock[i] = (*c)[i];
            changed = true;
        }
    }
    if (changed) new_segment(cs);
}

void access(int core, int task, uint64_t addr, uint64_t bytes, bool write, rt::Loc loc, int window) {
    if (!enabled() || bytes == 0 || core < 0 || core >= static_cast<int>(g_cores.size())) return;
    CoreState& cs = g_cores[core];
    if (!cs.seg_open) {
        cs.segments.push_back(snapshot(cs));
        cs.seg_open = true;
    }
    const int seg = static_cast<int>(cs.segments.size()) - 1;
    for (int r : cs.recent) {
        if (r < 0) continue;
        Interval& iv = cs.intervals[r];
        if (iv.seg == seg && same_site(iv, task, write, window, loc) && addr >= iv.lo && addr <= iv.hi) {
            iv.hi = std::max(iv.hi, addr + bytes);   // contiguous continuation or a repeat of the same bytes
            return;
        }
    }
    cs.intervals.push_back(Interval{addr, addr + bytes, core, task, seg, write, window, loc.file, loc.line});
    cs.recent[cs.recent_next] = static_cast<int>(cs.intervals.size()) - 1;
    cs.recent_next = (cs.recent_next + 1) % CoreState::kRecent;
}

void note_call(int core, int task, bool is_set, rt::Loc loc) {
    if (!enabled() || task < 0 || core < 0 || core >= static_cast<int>(g_cores.size())) return;
    auto& calls = g_cores[core].calls;
    if (static_cast<int>(calls.size()) <= task) calls.resize(task + 1, {rt::Loc{nullptr, 0}, rt::Loc{nullptr, 0}});
    (is_set ? calls[task].first : calls[task].second) = loc;
}

std::vector<Race> finish() {
    std::vector<Race> out;
    if (!enabled()) return out;
    g_enabled.store(false, std::memory_order_relaxed);

    std::vector<const Interval*> all;
    for (const CoreState& cs : g_cores)
        for (const Interval& iv : cs.intervals) all.push_back(&iv);
    std::sort(all.begin(), all.end(), [](const Interval* a, const Interval* b) {
        return std::tie(a->lo, a->core, a->seg, a->hi) < std::tie(b->lo, b->core, b->seg, b->hi);
    });

    std::map<Key, std::vector<Found>> found;
    size_t records = 0;
    std::vector<const Interval*> active;   // intervals that may still overlap later starts
    for (const Interval* x : all) {
        // Drop intervals that end before x starts; everything left overlaps x (sorted by start).
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [x](const Interval* y) { return y->hi <= x->lo; }),
                     active.end());
        for (const Interval* y : active) {
            if (x->task == y->task || x->core == y->core || !(x->write || y->write)) continue;
            if (before(*x, *y) || before(*y, *x)) continue;
            const Interval& e = x->task < y->task ? *x : *y;
            const Interval& l = x->task < y->task ? *y : *x;
            const uint64_t lo = std::max(x->lo, y->lo), hi = std::min(x->hi, y->hi);
            Key key{e.file, e.line, e.write, e.task, e.core, l.file, l.line, l.write, l.task, l.core};
            auto& list = found[key];
            bool merged = false;
            for (Found& f : list) {
                if (lo <= f.hi && hi >= f.lo) {   // touching or overlapping ranges: one record
                    f.lo = std::min(f.lo, lo);
                    f.hi = std::max(f.hi, hi);
                    merged = true;
                    break;
                }
            }
            if (!merged && records < kMaxRecords) {
                const rt::Loc call = culprit(e, l);
                list.push_back(Found{Race{to_access(e, lo, hi), to_access(l, lo, hi), call.file, call.line}, lo, hi});
                ++records;
            }
        }
        active.push_back(x);
    }

    for (auto& [key, list] : found) {
        for (Found& f : list) {
            f.race.earlier.addr = f.race.later.addr = f.lo;
            f.race.earlier.bytes = f.race.later.bytes = f.hi - f.lo;
            out.push_back(f.race);
        }
    }
    // Deterministic order, independent of thread timing and pointer values: by tasks, then address, lines.
    std::sort(out.begin(), out.end(), [](const Race& a, const Race& b) {
        return std::tie(a.earlier.task, a.later.task, a.earlier.addr, a.earlier.line, a.later.line,
                        a.earlier.core, a.later.core) <
               std::tie(b.earlier.task, b.later.task, b.earlier.addr, b.earlier.line, b.later.line,
                        b.earlier.core, b.later.core);
    });
    return out;
}

}  // namespace hb
}  // namespace ascgen
