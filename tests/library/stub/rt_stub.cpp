// A single-threaded stand-in for the core runtime (runtime/core), implementing ascgen/rt.h just enough
// to unit-test the emulated library: one core whose identity comes from the environment, a GM registry
// with bounds checks, counters of hook calls, and faults printed as one line then thrown as Cancelled.
//
// Environment: ASCGEN_STUB_UB (usable UB bytes, default 188160 = 192 KB - 8 KB - 256 B),
// ASCGEN_STUB_BLOCK_IDX / _BLOCK_NUM / _CORE ("AIV" | "AIC") / _COUPLED ("1"). host_launch runs the
// blocks of a launch one after another on the calling thread, so only kernels without cross-core waits
// make sense here.
// Faults print one line "FAULT kind=K at file:line: message" on stderr, then throw Cancelled; test
// programs call ascgen_stub_report() to print the hook counters on stderr.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "ascgen/rt.h"

namespace {

long env_long(const char* name, long dflt) {
    const char* v = std::getenv(name);
    return v ? std::strtol(v, nullptr, 0) : dflt;
}

struct Range {
    uint64_t bytes;
    std::string name;
};
std::map<uintptr_t, Range>& registry() {
    static std::map<uintptr_t, Range> r;
    return r;
}

struct Counters {
    unsigned long gm_access = 0, gm_strided = 0, gm_view = 0, poll = 0, sync_all = 0, set_flag = 0, wait_flag = 0,
                  set_next = 0, wait_pre = 0;
    unsigned long long cost[11] = {};
} counters;

// The current block; host_launch runs the blocks one after another on this thread (no cross-core waits).
int64_t g_block_idx = env_long("ASCGEN_STUB_BLOCK_IDX", 0);
int64_t g_block_num = env_long("ASCGEN_STUB_BLOCK_NUM", 1);

// The registered allocation holding [p, p+bytes), or null.
const Range* find(uintptr_t p, uint64_t bytes, uintptr_t* base) {
    auto& r = registry();
    auto it = r.upper_bound(p);
    if (it == r.begin()) return nullptr;
    --it;
    if (p + bytes > it->first + it->second.bytes) return nullptr;
    *base = it->first;
    return &it->second;
}

}  // namespace

extern "C" void ascgen_stub_report() {
    std::fprintf(stderr, "STUB gm_access=%lu gm_strided=%lu gm_view=%lu sync_all=%lu set_flag=%lu wait_flag=%lu "
                "set_next=%lu wait_pre=%lu poll_nonzero=%d cost_S=%llu cost_V=%llu cost_MTE2=%llu cost_MTE3=%llu\n",
                counters.gm_access, counters.gm_strided, counters.gm_view, counters.sync_all, counters.set_flag,
                counters.wait_flag, counters.set_next, counters.wait_pre, counters.poll > 0 ? 1 : 0,
                counters.cost[ascgen::rt::pipe::S], counters.cost[ascgen::rt::pipe::V],
                counters.cost[ascgen::rt::pipe::MTE2], counters.cost[ascgen::rt::pipe::MTE3]);
}

namespace ascgen {
namespace rt {

CoreType core_type() {
    const char* c = std::getenv("ASCGEN_STUB_CORE");
    return c && std::strcmp(c, "AIC") == 0 ? CoreType::AIC : CoreType::AIV;
}
bool is_coupled() { return env_long("ASCGEN_STUB_COUPLED", 0) != 0; }
int64_t block_idx() { return g_block_idx; }
int64_t block_num() { return g_block_num; }
int64_t sub_block_idx() { return 0; }
int64_t task_ratio() { return 1; }
uint64_t ub_capacity() { return uint64_t(env_long("ASCGEN_STUB_UB", 192 * 1024 - 8 * 1024 - 256)); }
int npu_arch() { return 2201; }
const char* core_name() { return core_type() == CoreType::AIC ? "AIC0" : "AIV0"; }

void fail(Fault kind, Loc loc, const char* fmt, ...) {
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char* base = std::strrchr(loc.file ? loc.file : "?", '/');
    std::fprintf(stderr, "FAULT kind=%d at %s:%d: %s\n", int(kind), base ? base + 1 : loc.file, loc.line, msg);
    throw Cancelled{};
}
void poll() { ++counters.poll; }
void poll(Loc) { ++counters.poll; }

void gm_access(const void* addr, uint64_t bytes, bool write, Loc loc) {
    ++counters.gm_access;
    uintptr_t base;
    if (!find(reinterpret_cast<uintptr_t>(addr), bytes, &base))
        fail(Fault::Memory, loc, "GM %s of %llu bytes at %p is outside every allocation", write ? "write" : "read",
             (unsigned long long)bytes, addr);
}
void gm_access_strided(const void* addr, uint64_t block_bytes, uint64_t blocks, uint64_t stride_bytes, bool write,
                       Loc loc) {
    ++counters.gm_strided;
    uintptr_t base;
    uint64_t span = blocks ? (blocks - 1) * stride_bytes + block_bytes : 0;
    if (!find(reinterpret_cast<uintptr_t>(addr), span, &base))
        fail(Fault::Memory, loc, "strided GM %s (%llu x %llu bytes, pitch %llu) at %p is outside every allocation",
             write ? "write" : "read", (unsigned long long)blocks, (unsigned long long)block_bytes,
             (unsigned long long)stride_bytes, addr);
}
void gm_view(const void* addr, uint64_t bytes, Loc loc) {
    ++counters.gm_view;
    uintptr_t base;
    if (!find(reinterpret_cast<uintptr_t>(addr), bytes ? bytes : 1, &base))
        fail(Fault::Memory, loc, "SetGlobalBuffer view of %llu bytes at %p is outside every allocation",
             (unsigned long long)bytes, addr);
}
void gm_register(const void* addr, uint64_t bytes, const char* name) {
    registry()[reinterpret_cast<uintptr_t>(addr)] = Range{bytes, name ? name : ""};
}
void gm_unregister(const void* addr) { registry().erase(reinterpret_cast<uintptr_t>(addr)); }

// One core: cross-core sync has nobody to wait for; count the calls.
void cross_core_set_flag(int, int, int flag_id, Loc loc) {
    if (flag_id < 0 || flag_id > 15) fail(Fault::Assert, loc, "flag id %d out of range 0..15", flag_id);
    ++counters.set_flag;
}
void cross_core_wait_flag(int flag_id, Loc loc) {
    if (flag_id < 0 || flag_id > 15) fail(Fault::Assert, loc, "flag id %d out of range 0..15", flag_id);
    ++counters.wait_flag;
}
void sync_all(bool, Loc) { ++counters.sync_all; }
void set_next_task_start(int, int, bool, Loc) { ++counters.set_next; }
void wait_pre_task_end(bool, Loc) { ++counters.wait_pre; }

void cost(int pipe, uint64_t units) {
    if (pipe >= 0 && pipe < 11) counters.cost[pipe] += units;
}
void print(const char* text) {
    std::printf("[%s] %s", core_name(), text);
    size_t n = std::strlen(text);
    if (n == 0 || text[n - 1] != '\n') std::printf("\n");
}
void host_launch(const char*, KernelThunk thunk, void* ctx, uint32_t block_dim, Loc) {
    g_block_num = block_dim;
    for (uint32_t b = 0; b < block_dim; ++b) {
        g_block_idx = b;
        thunk(ctx);
    }
}

}  // namespace rt
}  // namespace ascgen
