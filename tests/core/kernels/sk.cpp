// One configurable task kernel for the SuperKernel tests. Each active core writes buf[k][slot] = 1 and,
// after its WaitPreTaskEnd (own or the SK's), sums buf[k-1][*] into obs[k][slot]: with correct boundaries
// every core of task k sees every write of task k-1. Slots: AIC i -> i, AIV i -> 64 + i.
#include <cstdint>

#include "ascgen/rt.h"

using namespace ascgen::rt;

enum {
    CALL_WAIT = 1,        // the task calls WaitPreTaskEnd first
    CALL_SET = 2,         // ... and SetNextTaskStart last
    SKIP_SET_HIGH = 4,    // cores with block index >= `bad` skip the set (a branch)
    SET_TWICE = 8,        // the set is called twice
    SKIP_WAIT_BAD = 16,   // core `bad` skips the wait
    SYNC_ALL = 32,        // SyncAll (AIV only) in the middle
    SET_EARLY = 128,
    SYNC_ALL_FULL = 256,  // SyncAll<false> (AIC and AIV) in the middle      // the set comes before the task's GM write (a producer-tail race)
    OVERLAP = 64,         // task 0's AIV tail waits for flag 2, which task 1's AICs set (mode 2) in their prologue
};

template <typename T>
static T arg(void** args, int i) {
    return (T)(uintptr_t)*static_cast<uint64_t*>(args[i]);
}

extern "C" void k_task(void** args) {
    int64_t* buf = arg<int64_t*>(args, 0);
    int64_t* obs = arg<int64_t*>(args, 1);
    int k = arg<int>(args, 2);
    int mode = arg<int>(args, 3);
    int64_t bad = arg<int64_t>(args, 4);
    int64_t idx = block_idx();
    int slot = (core_type() == CoreType::AIC ? 0 : 64) + (int)idx;
    if ((mode & OVERLAP) && k == 1 && core_type() == CoreType::AIC) cross_core_set_flag(2, pipe::FIX, 2, ASCGEN_HERE);
    if ((mode & CALL_WAIT) && !((mode & SKIP_WAIT_BAD) && idx == bad)) wait_pre_task_end(false, ASCGEN_HERE);  // WAIT_LINE
    if (k > 0) {
        int64_t s = 0;
        for (int j = 0; j < 128; ++j) {
            gm_access(&buf[(k - 1) * 128 + j], 8, false, ASCGEN_HERE);
            s += __atomic_load_n(&buf[(k - 1) * 128 + j], __ATOMIC_RELAXED);
        }
        gm_access(&obs[k * 128 + slot], 8, true, ASCGEN_HERE);
        obs[k * 128 + slot] = s;
    }
    if (mode & SYNC_ALL) sync_all(true, ASCGEN_HERE);  // SYNCALL_LINE
    if (mode & SYNC_ALL_FULL) sync_all(false, ASCGEN_HERE);
    if (mode & SET_EARLY) set_next_task_start(pipe::MTE3, pipe::FIX, false, ASCGEN_HERE);  // SET_BEFORE_WRITE
    gm_access(&buf[k * 128 + slot], 8, true, ASCGEN_HERE);  // WRITE_LINE
    __atomic_store_n(&buf[k * 128 + slot], 1, __ATOMIC_RELAXED);
    if ((mode & CALL_SET) && !(mode & SET_EARLY) && !((mode & SKIP_SET_HIGH) && idx >= bad)) {
        set_next_task_start(pipe::MTE3, pipe::FIX, false, ASCGEN_HERE);  // SET_LINE
        if (mode & SET_TWICE) set_next_task_start(pipe::MTE3, pipe::FIX, false, ASCGEN_HERE);
    }
    if ((mode & OVERLAP) && k == 0 && core_type() == CoreType::AIV) cross_core_wait_flag(2, ASCGEN_HERE);  // TAIL_LINE
}
