// A source location known only by code addresses, for the devkit backend (docs/devkit.md, "Reports").
//
// There the intrinsics sit under the real library's inline code, so no __builtin_FILE default argument can
// name the user's line. The intrinsic layer instead records the return addresses of its call chain (a
// frame-pointer walk, a few loads) in a CodeSite it keeps for the life of its module, and hands the core
// `Loc{site->key, CODE_SITE_LINE}`. The core symbolises a site (addr2line over the module's line tables)
// only when a report needs its text (runtime/core/code_site.cpp), so the hot path of a DMA stays cheap.
#pragma once
#include <atomic>
#include "rt.h"

namespace ascgen {
namespace rt {

// Loc.line of a code site; Loc.file then points at the CodeSite (whose first member is its key text).
constexpr int CODE_SITE_LINE = -0x7ac0de;
constexpr int CODE_SITE_FRAMES = 8;

struct CodeSite {
    char key[48];                    // "<intrinsic>#<n>": a distinct text per site, so code that compares
                                     // locations by file text keeps sites apart before they are resolved
    const char* intrinsic;           // the intrinsic that made the record ("copy_gm_to_ubuf", "SyncAll")
    const char* not_user;            // '\n'-separated path prefixes that are not the user's source
    int n;                           // frames used
    const void* frames[CODE_SITE_FRAMES];   // return addresses, innermost first
    std::atomic<const void*> resolved;      // the core's cached resolution (never freed)
};

inline bool is_code_site(Loc loc) { return loc.file != nullptr && loc.line == CODE_SITE_LINE; }

// `copy` is a file copy of the loaded module `original` (the devkit's per-core copies): the locations its
// code reports read as the original's (a relocatable module's source folder, code_site.cpp).
void module_copy(const char* copy, const char* original);

}  // namespace rt
}  // namespace ascgen
