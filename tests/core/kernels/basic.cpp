// Kernels for the core runtime tests: they call the rt.h hooks directly, as the emulated library does.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <chrono>

#include "ascgen/rt.h"

using namespace ascgen::rt;

template <typename T>
static T arg(void** args, int i) {
    uint64_t v = *static_cast<uint64_t*>(args[i]);
    return (T)(uintptr_t)v;
}

// out: int64[2][64][6]: per core type and block index: seen, block_num, sub_block, ratio, arch, coupled
extern "C" void k_geometry(void** args) {
    int64_t* out = arg<int64_t*>(args, 0);
    int64_t* row = out + ((core_type() == CoreType::AIC ? 0 : 1) * 64 + block_idx()) * 6;
    gm_access(row, 6 * sizeof(int64_t), true, ASCGEN_HERE);
    row[0] += 1;
    row[1] = block_num();
    row[2] = sub_block_idx();
    row[3] = task_ratio();
    row[4] = npu_arch();
    row[5] = is_coupled();
}

// Mode 0 on every core of the caller's type: data[i] = i+1, set, wait, then sum everything.
// data: int64[n], sums: int64[n], flag, mode
extern "C" void k_mode0(void** args) {
    int64_t* data = arg<int64_t*>(args, 0);
    int64_t* sums = arg<int64_t*>(args, 1);
    int flag = arg<int>(args, 2);
    int64_t n = block_num(), i = block_idx();
    gm_access(data + i, 8, true, ASCGEN_HERE);
    data[i] = i + 1;
    cross_core_set_flag(0, pipe::MTE3, flag, ASCGEN_HERE);
    cross_core_wait_flag(flag, ASCGEN_HERE);
    int64_t s = 0;
    for (int64_t j = 0; j < n; ++j) s += __atomic_load_n(&data[j], __ATOMIC_RELAXED);
    sums[i] = s;
}

// Mode 1 (MIX): each AIV writes, both AIVs of a group sync, then each reads its partner's value.
extern "C" void k_mode1(void** args) {
    int64_t* data = arg<int64_t*>(args, 0);
    int64_t* seen = arg<int64_t*>(args, 1);
    if (core_type() == CoreType::AIC) return;
    int64_t i = block_idx();
    __atomic_store_n(&data[i], 100 + i, __ATOMIC_RELAXED);
    cross_core_set_flag(1, pipe::MTE3, 5, ASCGEN_HERE);
    cross_core_wait_flag(5, ASCGEN_HERE);
    seen[i] = __atomic_load_n(&data[i ^ 1], __ATOMIC_RELAXED);
}

// Mode 2 (MIX 1:2): AIC g writes data[g] then releases its two AIVs; each AIV copies data[g]; both AIVs
// then release the AIC, which records it saw them (count[g] = 2).
extern "C" void k_mode2(void** args) {
    int64_t* data = arg<int64_t*>(args, 0);
    int64_t* seen = arg<int64_t*>(args, 1);
    int64_t* back = arg<int64_t*>(args, 2);
    if (core_type() == CoreType::AIC) {
        int64_t g = block_idx();
        __atomic_store_n(&data[g], 1000 + g, __ATOMIC_RELAXED);
        cross_core_set_flag(2, pipe::FIX, 7, ASCGEN_HERE);
        cross_core_wait_flag(8, ASCGEN_HERE);
        back[g] = __atomic_load_n(&seen[2 * g], __ATOMIC_RELAXED) + __atomic_load_n(&seen[2 * g + 1], __ATOMIC_RELAXED);
    } else {
        int64_t v = block_idx();
        cross_core_wait_flag(7, ASCGEN_HERE);
        __atomic_store_n(&seen[v], __atomic_load_n(&data[v / 2], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
        cross_core_set_flag(2, pipe::MTE3, 8, ASCGEN_HERE);
    }
}

// Sets flag 2 (mode 0) `times` times and never waits: the counter overflows at 16.
extern "C" void k_overflow(void** args) {
    int times = arg<int>(args, 0);
    for (int i = 0; i < times; ++i) cross_core_set_flag(0, pipe::MTE3, 2, ASCGEN_HERE);
    for (int i = 0; i < times; ++i) cross_core_wait_flag(2, ASCGEN_HERE);
}

// SyncAll: write, sync, sum (aiv_only when arg 2 != 0). Cores with index >= arg 3 return first.
// Slots: AIV i -> i, AIC i -> 128 + i; sums[slot] = number of writes seen after the barrier.
extern "C" void k_syncall(void** args) {
    int64_t* data = arg<int64_t*>(args, 0);
    int64_t* sums = arg<int64_t*>(args, 1);
    bool aiv_only = arg<int>(args, 2) != 0;
    int64_t live = arg<int64_t>(args, 3);
    int64_t slot = (core_type() == CoreType::AIC ? 128 : 0) + block_idx();
    if (block_idx() >= live) return;
    __atomic_store_n(&data[slot], 1, __ATOMIC_RELAXED);
    sync_all(aiv_only, ASCGEN_HERE);
    int64_t s = 0;
    for (int64_t j = 0; j < 256; ++j) s += __atomic_load_n(&data[j], __ATOMIC_RELAXED);
    sums[slot] = s;
}

// Core 0 waits on a flag nobody sets; the others finish.
extern "C" void k_wait_never_set(void** args) {
    (void)args;
    if (block_idx() == 0) {
        cross_core_wait_flag(4, ASCGEN_HERE);   // line checked by the test: WAIT_NEVER_SET
    }
}

// One core writes past the end of its buffer; the others poll forever (the fault must stop them).
extern "C" void k_fault_one_core(void** args) {
    int64_t* buf = arg<int64_t*>(args, 0);
    int64_t n = arg<int64_t>(args, 1);
    if (block_idx() == 3) {
        gm_access(buf + n - 2, 32, true, ASCGEN_HERE);   // OOB_LINE
    }
    for (;;) {
        poll();
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

// Access to an address in no buffer.
extern "C" void k_wild(void** args) {
    (void)args;
    static int64_t not_registered[4];
    gm_access(not_registered, 8, false, ASCGEN_HERE);
}

// Runs forever, calling the API (the time limit stops it).
extern "C" void k_forever(void** args) {
    int64_t* buf = arg<int64_t*>(args, 0);
    for (;;) gm_access(buf, 8, false, ASCGEN_HERE);   // FOREVER_LINE
}

// Spins `ms` milliseconds without calling any API (cannot be stopped in-process).
extern "C" void k_spin_no_api(void** args) {
    int ms = arg<int>(args, 0);
    if (block_idx() != 0) return;
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    volatile uint64_t x = 0;
    while (std::chrono::steady_clock::now() < end) x = x + 1;
}

extern "C" void k_throw(void** args) {
    (void)args;
    if (block_idx() == 1) throw std::runtime_error("boom from core 1");
}

extern "C" void k_printf(void** args) {
    (void)args;
    char line[64];
    snprintf(line, sizeof line, "hello from block %lld\n", (long long)block_idx());
    print("part ");
    print(line);
}

extern "C" void k_fail_assert(void** args) {
    (void)args;
    if (block_idx() == 2) fail(Fault::Assert, ASCGEN_HERE, "ascendc_assert failed: %s", "x > 0");
    poll();
}

// Does nothing: for launch overhead and thread-count checks.
extern "C" void k_empty(void** args) { (void)args; }

// SetGlobalBuffer views and strided copies: arg1 selects the case.
extern "C" void k_views(void** args) {
    int64_t* buf = arg<int64_t*>(args, 0);
    int which = arg<int>(args, 1);
    if (which == 0) gm_view(buf, 0, ASCGEN_HERE);                                  // no size: fine
    if (which == 1) gm_view(buf + 8, 8 * sizeof(int64_t), ASCGEN_HERE);             // the last 8 of 16: fine
    if (which == 2) gm_view(buf + 8, 9 * sizeof(int64_t), ASCGEN_HERE);             // VIEW_OOB
    if (which == 3) gm_access_strided(buf, 16, 4, 32, false, ASCGEN_HERE);          // 4 blocks inside
    if (which == 4) gm_access_strided(buf, 16, 5, 32, true, ASCGEN_HERE);           // STRIDED_OOB: 5th block
}

// Flags left unbalanced at the end: arg0 = 0: every core sets flag 3 and nobody waits;
// 1: only block 0 sets it (a round that never completes, nobody waiting for it).
extern "C" void k_unbalanced(void** args) {
    int which = arg<int>(args, 0);
    if (which == 2) allow_unconsumed_flags(ASCGEN_HERE);   // a protocol that leaves counts by design
    if (which != 1 || block_idx() == 0) cross_core_set_flag(0, pipe::MTE3, 3, ASCGEN_HERE);  // UNBALANCED_SET
}

// Mode 4 (Ascend 950): AIC -> one AIV and back. seen[v] = what AIV v got; back[g] = what AIC g got.
extern "C" void k_mode4(void** args) {
    int64_t* data = arg<int64_t*>(args, 0);
    int64_t* seen = arg<int64_t*>(args, 1);
    int64_t* back = arg<int64_t*>(args, 2);
    if (core_type() == CoreType::AIC) {
        int64_t g = block_idx();
        __atomic_store_n(&data[g], 500 + g, __ATOMIC_RELAXED);
        cross_core_set_flag(4, pipe::FIX, 3, ASCGEN_HERE);        // to AIV0 of this AI Core, its flag 3
        cross_core_set_flag(4, pipe::FIX, 16 + 3, ASCGEN_HERE);   // to AIV1, its flag 3
        cross_core_wait_flag(5, ASCGEN_HERE);                     // from AIV0 (flag 5)
        cross_core_wait_flag(16 + 5, ASCGEN_HERE);                // from AIV1 (flag 5 -> 21)
        back[g] = __atomic_load_n(&seen[2 * g], __ATOMIC_RELAXED) + __atomic_load_n(&seen[2 * g + 1], __ATOMIC_RELAXED);
    } else {
        int64_t v = block_idx();
        cross_core_wait_flag(3, ASCGEN_HERE);
        __atomic_store_n(&seen[v], __atomic_load_n(&data[v / 2], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
        cross_core_set_flag(4, pipe::MTE3, 5, ASCGEN_HERE);
    }
}

// SetNextTaskStart with a pipe the API does not allow (PIPE_ALL on the vector side).
extern "C" void k_bad_pipe(void** args) {
    (void)args;
    set_next_task_start(pipe::ALL, pipe::FIX, false, ASCGEN_HERE);  // BAD_PIPE
}
