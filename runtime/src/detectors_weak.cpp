// Weak no-op defaults of the detectors (hb.h, timeline.h) and of rt::cost, so the core links and runs
// whether or not hb.cpp / timeline.cpp (written by the SuperKernel part) are present. When they are, their
// strong definitions replace these at link time. Nothing here detects anything: races and timelines come
// only from the real implementations.
#include "hb.h"
#include "timeline.h"

#define ASCGEN_WEAK __attribute__((weak))

namespace ascgen {
namespace hb {
ASCGEN_WEAK void begin_run(int, bool) {}
ASCGEN_WEAK bool enabled() { return false; }
ASCGEN_WEAK Clock release(int) { return Clock(); }
ASCGEN_WEAK Clock join(const Clock& a, const Clock&) { return a; }
ASCGEN_WEAK void acquire(int, const Clock&) {}
ASCGEN_WEAK void access(int, int, uint64_t, uint64_t, bool, rt::Loc, int) {}
ASCGEN_WEAK void note_call(int, int, bool, rt::Loc) {}
ASCGEN_WEAK std::vector<Race> finish() { return {}; }
}  // namespace hb

namespace timeline {
ASCGEN_WEAK void begin_run(int, bool, const Params&) {}
ASCGEN_WEAK bool enabled() { return false; }
ASCGEN_WEAK double now(int) { return 0; }
ASCGEN_WEAK double fire_time(int, int) { return 0; }
ASCGEN_WEAK void advance_to(int, double) {}
ASCGEN_WEAK void mark(int, int, Mark, rt::Loc) {}
ASCGEN_WEAK void mark_at(int, int, Mark, double, rt::Loc) {}
ASCGEN_WEAK std::vector<Event> finish() { return {}; }
}  // namespace timeline

namespace rt {
ASCGEN_WEAK void cost(int, uint64_t) {}
}  // namespace rt
}  // namespace ascgen
