// The registry of GM allocations (launch arguments, aclrtMalloc, GmAlloc) and the GM hooks: bounds checks
// with the buffer's name, offset and size, then the access record for cross-task race detection.
#include <algorithm>
#include <shared_mutex>

#include <dlfcn.h>
#include <link.h>

#include "state.h"

namespace ascgen {
namespace core {

namespace {

struct Alloc {
    uint64_t base, size;
    std::string name, dtype;
    bool run_owned;
    uint64_t serial;      // registration order, to drop what a host session registered
};
uint64_t g_serial = 0;

std::shared_mutex g_mu;
std::vector<Alloc> g_allocs;   // few entries (the launch's arguments): a scan beats a tree here

int dtype_size(const std::string& d) {
    if (d == "float32" || d == "int32" || d == "uint32") return 4;
    if (d == "float16" || d == "bfloat16" || d == "int16" || d == "uint16") return 2;
    if (d == "int8" || d == "uint8" || d == "bool") return 1;
    if (d == "float64" || d == "int64" || d == "uint64") return 8;
    return 0;
}

// The smallest allocation holding [addr, addr+bytes), or else the one holding addr, or null.
const Alloc* find(uint64_t addr, uint64_t bytes, bool* whole) {
    const Alloc* best = nullptr;
    const Alloc* partial = nullptr;
    for (const Alloc& a : g_allocs) {
        if (addr < a.base || addr >= a.base + a.size) continue;
        if (addr + bytes <= a.base + a.size) {
            if (!best || a.size < best->size) best = &a;
        } else if (!partial || a.size > partial->size) {
            partial = &a;
        }
    }
    *whole = best != nullptr;
    return best ? best : partial;
}

std::string elements(const Alloc& a, uint64_t from, uint64_t to) {
    int es = dtype_size(a.dtype);
    if (!es) return "";
    return format(" = elements [%llu, %llu) of %s", (unsigned long long)(from / es), (unsigned long long)((to + es - 1) / es),
                  a.dtype.c_str());
}

std::string describe(const Alloc& a) {
    int es = dtype_size(a.dtype);
    std::string s = format("%s (%llu B", a.name.empty() ? "an unnamed buffer" : a.name.c_str(), (unsigned long long)a.size);
    if (es) s += format(", %llu x %s", (unsigned long long)(a.size / es), a.dtype.c_str());
    return s + ")";
}

[[noreturn]] void out_of_bounds(const char* what, uint64_t addr, uint64_t bytes, bool write, rt::Loc loc) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    bool whole = false;
    const Alloc* a = find(addr, bytes, &whole);
    std::string op = write ? "write" : "read";
    if (std::string(what) != "access") op = what;
    if (a) {
        uint64_t off = addr - a->base, end = off + bytes;
        std::string msg = format("GM %s of %llu B at %s+%llu overflows %s: bytes [%llu, %llu)%s are past its end",
                                 op.c_str(), (unsigned long long)bytes, a->name.c_str(), (unsigned long long)off,
                                 describe(*a).c_str(), (unsigned long long)a->size, (unsigned long long)end,
                                 elements(*a, a->size, end).c_str());
        lk.unlock();
        rt::fail(rt::Fault::Memory, loc, "%s\nHint: check the offset and length of the copy against the buffer size "
                 "(tail tiles need a shorter copy)", msg.c_str());
    }
    // Not inside any buffer: name the nearest one to help spot an off-by-a-tile offset (on the fault's first
    // line, which one-line reports such as `ascgen ut`'s reason keep).
    const Alloc* near = nullptr;
    uint64_t dist = UINT64_MAX;
    for (const Alloc& b : g_allocs) {
        uint64_t d = addr >= b.base + b.size ? addr - (b.base + b.size) : b.base - addr;
        if (d < dist) dist = d, near = &b;
    }
    std::string nearest;
    if (near)
        nearest = format("; the nearest buffer is %s at 0x%llx, %llu B %s it", describe(*near).c_str(),
                         (unsigned long long)near->base, (unsigned long long)dist,
                         addr >= near->base + near->size ? "past the end of" : "before");
    lk.unlock();
    rt::fail(rt::Fault::Memory, loc,
             "GM %s of %llu B at 0x%llx, which is in no buffer of this launch%s\nHint: every GM pointer must come from a "
             "launch argument (or aclrtMalloc / GmAlloc); check SetGlobalBuffer offsets",
             op.c_str(), (unsigned long long)bytes, (unsigned long long)addr, nearest.c_str());
}

bool inside(uint64_t addr, uint64_t bytes) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    bool whole = false;
    find(addr, bytes, &whole);
    return whole;
}

// A kernel's own `__gm__` variables (ops-math lin_space's `constexpr static __gm__ T assistGm[256]` table in a
// class) are part of the kernel binary, which the device loads into GM: a kernel reads them like any GM. Here
// they are in a data segment of the module (or of a core's copy of it). So an access in no buffer is accepted
// when it lies whole inside one non-executable loaded segment of an ascgen kernel module: an object exporting
// the crash-handler hook every module's wrapper defines (ascgen/runtime/build/wrapper.py). Code, the heap,
// the stack and every other library stay faults.
constexpr const char* kModuleMarker = "__ascgen_install_crash_handler";

struct SegmentQuery {
    uintptr_t object_base, addr, end;
    bool found;
};

int find_data_segment(struct dl_phdr_info* info, size_t, void* data) {
    auto* q = static_cast<SegmentQuery*>(data);
    if (info->dlpi_addr != q->object_base) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X)) continue;
        uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
        if (q->addr >= lo && q->end <= hi) q->found = true;
    }
    return 1;
}

bool in_kernel_image(uint64_t addr, uint64_t bytes) {
    Dl_info info;
    struct link_map* object = nullptr;
    if (!dladdr1(reinterpret_cast<void*>(addr), &info, reinterpret_cast<void**>(&object), RTLD_DL_LINKMAP) ||
        object == nullptr || info.dli_fname == nullptr)
        return false;
    void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) return false;
    bool module = dlsym(handle, kModuleMarker) != nullptr;
    dlclose(handle);
    if (!module) return false;
    SegmentQuery q{static_cast<uintptr_t>(object->l_addr), static_cast<uintptr_t>(addr),
                   static_cast<uintptr_t>(addr + bytes), false};
    dl_iterate_phdr(find_data_segment, &q);
    return q.found;
}

// In a buffer of the launch, or in the kernel image's own GM.
bool in_gm(uint64_t addr, uint64_t bytes) { return inside(addr, bytes) || in_kernel_image(addr, bytes); }

}  // namespace

void gm_add(uint64_t addr, uint64_t bytes, const std::string& name, const std::string& dtype, bool run_owned) {
    if (bytes == 0) return;
    std::unique_lock<std::shared_mutex> lk(g_mu);
    for (Alloc& a : g_allocs)   // the same array passed twice (in-place ops): one entry, both names
        if (a.base == addr && a.size == bytes) {
            if (!name.empty() && a.name.find(name) == std::string::npos) a.name += (a.name.empty() ? "" : "/") + name;
            return;
        }
    g_allocs.push_back(Alloc{addr, bytes, name, dtype, run_owned, ++g_serial});
}

void gm_remove_run_owned() {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    g_allocs.erase(std::remove_if(g_allocs.begin(), g_allocs.end(), [](const Alloc& a) { return a.run_owned; }),
                   g_allocs.end());
}

GmHit gm_lookup(uint64_t addr) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    bool whole = false;
    const Alloc* a = find(addr, 1, &whole);
    GmHit h;
    if (a) {
        h.found = true;
        h.name = a->name;
        h.dtype = a->dtype;
        h.offset = addr - a->base;
    }
    return h;
}

bool gm_contains(uint64_t addr, uint64_t bytes) { return inside(addr, bytes); }

uint64_t gm_mark() {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    return g_serial;
}

void gm_remove_host_since(uint64_t mark) {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    g_allocs.erase(std::remove_if(g_allocs.begin(), g_allocs.end(),
                                  [&](const Alloc& a) { return !a.run_owned && a.serial > mark; }),
                   g_allocs.end());
}

int gm_count() {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    return (int)g_allocs.size();
}

}  // namespace core

namespace rt {
using namespace core;

void gm_access(const void* addr, uint64_t bytes, bool write, Loc loc) {
    Run* run = tl_run;
    if (!run) return;   // host-side copies are not kernel accesses
    poll();
    note_loc(tl_core, loc);
    uint64_t a = reinterpret_cast<uint64_t>(addr);
    if (bytes == 0) return;
    if (!in_gm(a, bytes)) out_of_bounds("access", a, bytes, write, loc);
    perturb(*run, tl_core);
    if (tl_core && hb::enabled()) hb::access(tl_core->id, tl_core->task, a, bytes, write, loc, tl_core->window);
}

void gm_access_strided(const void* addr, uint64_t block_bytes, uint64_t blocks, uint64_t stride_bytes, bool write,
                       Loc loc) {
    Run* run = tl_run;
    if (!run || blocks == 0 || block_bytes == 0) return;
    poll();
    note_loc(tl_core, loc);
    uint64_t a = reinterpret_cast<uint64_t>(addr);
    uint64_t last = a + (blocks - 1) * stride_bytes;
    // Blocks go up monotonically: the first and last lying in one allocation covers the rest.
    if (!in_gm(a, block_bytes)) out_of_bounds("access", a, block_bytes, write, loc);
    uint64_t span = last + block_bytes - a;
    if (!in_gm(a, span)) {
        std::string what = format("%s (%llu blocks x %llu B, stride %llu B)", write ? "write" : "read",
                                  (unsigned long long)blocks, (unsigned long long)block_bytes,
                                  (unsigned long long)stride_bytes);
        out_of_bounds(what.c_str(), a, span, write, loc);
    }
    perturb(*run, tl_core);
    if (tl_core && hb::enabled())
        for (uint64_t b = 0; b < blocks; ++b)
            hb::access(tl_core->id, tl_core->task, a + b * stride_bytes, block_bytes, write, loc, tl_core->window);
}

void gm_view(const void* addr, uint64_t bytes, Loc loc) {
    if (!tl_run) return;
    note_loc(tl_core, loc);
    // A view without a size (or of zero elements, e.g. an empty array) names no bytes yet; the accesses
    // through it are checked one by one.
    if (bytes == 0) return;
    uint64_t a = reinterpret_cast<uint64_t>(addr);
    if (!in_gm(a, bytes)) out_of_bounds("SetGlobalBuffer view", a, bytes, false, loc);
}

void gm_register(const void* addr, uint64_t bytes, const char* name) {
    gm_add(reinterpret_cast<uint64_t>(addr), bytes, name ? name : "", "", false);
}

void gm_unregister(const void* addr) {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    uint64_t a = reinterpret_cast<uint64_t>(addr);
    g_allocs.erase(std::remove_if(g_allocs.begin(), g_allocs.end(),
                                  [&](const Alloc& x) { return x.base == a && !x.run_owned; }),
                   g_allocs.end());
}

}  // namespace rt
}  // namespace ascgen
