// Where an intrinsic was called from: the user's line, found by code address (docs/devkit.md, "Reports").
//
// The library's inline code sits between the user's call and the intrinsic, so `Loc` cannot come from a
// default __builtin_FILE argument. `at(intrinsic)` instead walks the frame-pointer chain (modules are built
// with -fno-omit-frame-pointer and line tables, devkit.MODEL_FLAGS) and keeps the return addresses in a
// CodeSite of this module copy; the core turns a site into "add.cpp:42 (AscendC::DataCopy) -> copy_gm_to_ubuf"
// only when a report needs it (runtime/core/code_site.cpp). Per call: a short walk, a hash, one table probe.
#pragma once
#include <dlfcn.h>
#include <link.h>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include "ascgen/code_site.h"

// Path prefixes that are not the user's source ('\n'-separated): the library tree, ascgen's runtime, the
// system headers and the module wrapper. Defined by the module wrapper (ascgen/runtime/backends/devkit/module.py).
extern "C" const char __ascgen_devkit_not_user[];

namespace ascgen_devkit {

// This module copy's code, to stop the walk where the chain leaves the module (the core's thread loop).
struct CodeRange { uintptr_t lo = 0, hi = 0; };
inline int find_code_range(dl_phdr_info* info, size_t, void* data) {
    auto* r = static_cast<CodeRange*>(data);
    const uintptr_t self = reinterpret_cast<uintptr_t>(&find_code_range);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
        const uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
        if (self >= lo && self < hi) { r->lo = lo; r->hi = hi; return 1; }
    }
    return 0;
}
inline const CodeRange& code_range() {
    static const CodeRange r = [] { CodeRange c; dl_iterate_phdr(&find_code_range, &c); return c; }();
    return r;
}

// The sites of this module copy (one per core: no other thread adds to them, but the table is locked anyway
// so that ASCGEN_DEVKIT_ONE_COPY stays safe). Sites are never removed: the core keeps pointers to them.
constexpr int SITE_SLOTS = 1024;
struct SiteTable {
    std::mutex mu;
    ::ascgen::rt::CodeSite* slot[SITE_SLOTS] = {};
    int count = 0;
};
inline SiteTable sites;

inline bool same_frames(const ::ascgen::rt::CodeSite& s, const char* intrinsic, const void* const* f, int n) {
    if (s.n != n || s.intrinsic != intrinsic) return false;
    for (int i = 0; i < n; ++i)
        if (s.frames[i] != f[i]) return false;
    return true;
}

inline ::ascgen::rt::CodeSite* intern(const char* intrinsic, const void* const* f, int n) {
    uint64_t h = reinterpret_cast<uintptr_t>(intrinsic) * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < n; ++i) h = (h ^ reinterpret_cast<uintptr_t>(f[i])) * 0x100000001b3ull;
    std::lock_guard<std::mutex> lock(sites.mu);
    for (int probe = 0; probe < SITE_SLOTS; ++probe) {
        auto*& s = sites.slot[(h + probe) % SITE_SLOTS];
        if (s && same_frames(*s, intrinsic, f, n)) return s;
        if (s) continue;
        s = new ::ascgen::rt::CodeSite{};    // per call site, for the life of the module
        std::snprintf(s->key, sizeof s->key, "%s#%d", intrinsic, ++sites.count);
        s->intrinsic = intrinsic;
        s->not_user = __ascgen_devkit_not_user;
        s->n = n;
        for (int i = 0; i < n; ++i) s->frames[i] = f[i];
        return s;
    }
    return nullptr;   // a full table: report the intrinsic alone
}

// The location of the intrinsic being executed: its call chain's return addresses, innermost first.
// noinline: frame 0 is then the return address into the intrinsic's own (physical) function.
__attribute__((noinline)) inline ::ascgen::rt::Loc at(const char* intrinsic) {
    const void* f[::ascgen::rt::CODE_SITE_FRAMES];
    int n = 0;
    const CodeRange& code = code_range();
    auto* fp = static_cast<void* const*>(__builtin_frame_address(0));
    while (n < ::ascgen::rt::CODE_SITE_FRAMES && fp) {
        const void* ret = fp[1];
        const uintptr_t r = reinterpret_cast<uintptr_t>(ret);
        if (r < code.lo || r >= code.hi) break;          // left the module: its caller keeps no frame pointer
        f[n++] = ret;
        auto* next = static_cast<void* const*>(fp[0]);
        // frames grow upwards on the stack; anything else is not a frame-pointer chain
        if (next <= fp || reinterpret_cast<uintptr_t>(next) - reinterpret_cast<uintptr_t>(fp) > (8u << 20)) break;
        fp = next;
    }
    ::ascgen::rt::CodeSite* s = n ? intern(intrinsic, f, n) : nullptr;
    if (!s) return ::ascgen::rt::Loc{intrinsic, 0};
    return ::ascgen::rt::Loc{s->key, ::ascgen::rt::CODE_SITE_LINE};
}

}  // namespace ascgen_devkit
