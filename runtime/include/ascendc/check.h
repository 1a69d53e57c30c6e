// Fault helpers shared by every op header: one place that formats "what, where, numbers, hint".
//
// Entry points take `rt::Loc loc = ASCGEN_HERE` and record it as the core's latest user location, so
// operators (which cannot take a defaulted location) report the nearest preceding call instead.
#pragma once
#include <cstdint>

#include "ascgen/rt.h"

namespace ascgen {
namespace lib {

// The user location of the latest library call on this core (for operators such as tensor[i]).
inline rt::Loc& last_loc() {
    static thread_local rt::Loc loc{"<unknown>", 0};
    return loc;
}

// Every op starts here: remember where the user is, and let a cancelled run stop.
inline void enter(rt::Loc loc) {
    last_loc() = loc;
    rt::poll(loc);
}

// A location for operator faults: "near" the latest call, since operators have no Loc parameter.
inline rt::Loc near_loc() { return last_loc(); }

inline unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace lib
}  // namespace ascgen

// Fail with a memory fault when `cond` is false; the message arguments are evaluated only on failure.
#define ASCGEN_MEM_CHECK(cond, loc, ...)                                              \
    do {                                                                              \
        if (__builtin_expect(!(cond), 0)) ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, (loc), __VA_ARGS__); \
    } while (0)
#define ASCGEN_ARG_CHECK(cond, loc, ...)                                              \
    do {                                                                              \
        if (__builtin_expect(!(cond), 0)) ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, (loc), __VA_ARGS__); \
    } while (0)
