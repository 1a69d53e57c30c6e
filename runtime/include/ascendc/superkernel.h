// SuperKernel binding for offline (<<<>>>) builds: the __sk__ qualifier, sk::SkSystemArgs and SK_BIND.
// The emulator runs SuperKernels from Python (ascgen.runtime.SuperKernel), so SK_BIND only checks that
// the bound SK functions exist and compile (taking their addresses instantiates them).
#pragma once
#include <cstdint>

#ifndef __sk__
#define __sk__
#endif

namespace sk {
struct SkSystemArgs {
    uint32_t skNumBlocks = 0;
    uint32_t SkGetNumBlocks() const { return skNumBlocks; }
};
}  // namespace sk

namespace ascgen {
namespace lib {
template <class... F>
constexpr bool sk_bind(uint64_t cap, F*...) {
    return cap < 16;   // cap bits: 1 wait, 2 set, 4 disable_dcci, 8 disable_batchmode_check
}
}  // namespace lib
}  // namespace ascgen

#define SK_BIND(GF, cap, ...)                                                                     \
    [[maybe_unused]] static const bool ascgen_sk_bound_##GF = ::ascgen::lib::sk_bind((cap), __VA_ARGS__)
