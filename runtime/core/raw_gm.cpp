// Raw GM accesses for the race detector (issue 9 class 2): modules built with ASCGEN_RAW_GM_RACES=1 are
// compiled with GCC's kernel-address instrumentation in call mode (`-fsanitize=kernel-address --param
// asan-instrumentation-with-call-threshold=0 --param asan-stack=0 --param asan-globals=0`), which turns
// every load and store into a call of the hooks below and links no sanitizer runtime. The hooks keep the
// accesses that fall inside a registered GM buffer during a run with race detection, and hand them to the
// happens-before detector as the library's own GM accesses are; everything else (stack, UB, the host)
// returns at once. The line is the last one the core recorded (an API call near the access): the
// instrumentation passes no source location.
#include <cstddef>
#include <cstdint>

#include "hb.h"
#include "state.h"

namespace {

inline void raw_gm_hook_access(uintptr_t addr, uint64_t bytes, bool write) {
    using namespace ascgen::core;
    CoreState* me = tl_core;
    if (!tl_run || !me || !ascgen::hb::enabled()) return;
    if (!gm_contains(addr, bytes)) return;
    ascgen::rt::Loc loc{me->last_file.load(std::memory_order_relaxed), me->last_line.load(std::memory_order_relaxed)};
    ascgen::hb::access(me->id, me->task, addr, bytes, write, loc, me->window);
}

}  // namespace

#define ASCGEN_RAW_HOOKS(n)                                                                                   \
    extern "C" __attribute__((visibility("default"))) void __asan_load##n##_noabort(uintptr_t a) {          \
        raw_gm_hook_access(a, n, false);                                                                             \
    }                                                                                                        \
    extern "C" __attribute__((visibility("default"))) void __asan_store##n##_noabort(uintptr_t a) {         \
        raw_gm_hook_access(a, n, true);                                                                              \
    }                                                                                                        \
    extern "C" __attribute__((visibility("default"))) void __asan_load##n(uintptr_t a) { raw_gm_hook_access(a, n, false); } \
    extern "C" __attribute__((visibility("default"))) void __asan_store##n(uintptr_t a) { raw_gm_hook_access(a, n, true); }

ASCGEN_RAW_HOOKS(1)
ASCGEN_RAW_HOOKS(2)
ASCGEN_RAW_HOOKS(4)
ASCGEN_RAW_HOOKS(8)
ASCGEN_RAW_HOOKS(16)

extern "C" __attribute__((visibility("default"))) void __asan_loadN_noabort(uintptr_t a, size_t n) {
    raw_gm_hook_access(a, n, false);
}
extern "C" __attribute__((visibility("default"))) void __asan_storeN_noabort(uintptr_t a, size_t n) {
    raw_gm_hook_access(a, n, true);
}
extern "C" __attribute__((visibility("default"))) void __asan_loadN(uintptr_t a, size_t n) { raw_gm_hook_access(a, n, false); }
extern "C" __attribute__((visibility("default"))) void __asan_storeN(uintptr_t a, size_t n) { raw_gm_hook_access(a, n, true); }
extern "C" __attribute__((visibility("default"))) void __asan_handle_no_return() {}
