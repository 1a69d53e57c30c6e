// The SIMT names of the dav_3510 CPU mode: vector value types, launch geometry, warps. Declared only
// (see kernel_simt_cpu.h): no SIMT execution model exists in ascgen.
#pragma once
#include <cstdint>
#include "../missing.h"

#define ASCGEN_SIMT_VEC(name, T) \
    struct name##1 { T x; };      \
    struct name##2 { T x, y; };   \
    struct name##3 { T x, y, z; }; \
    struct name##4 { T x, y, z, w; };
ASCGEN_SIMT_VEC(float, float)
ASCGEN_SIMT_VEC(int, int32_t)
ASCGEN_SIMT_VEC(long, int64_t)
#undef ASCGEN_SIMT_VEC
struct half2 { half x, y; };

namespace cce {
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
    constexpr dim3(uint32_t a = 1, uint32_t b = 1, uint32_t c = 1) : x(a), y(b), z(c) {}
};
// Launching a SIMT function over threads: declared only.
template <auto F, class... A> void async_invoke(dim3 threads, A&&... args);
}  // namespace cce
namespace ascgen_devkit {
// A SIMT geometry register read: declared only, so reading it from a kernel fails to link by name.
struct SimtGeometry {
    uint32_t x, y, z;
};
}  // namespace ascgen_devkit
extern const ascgen_devkit::SimtGeometry blockIdx, threadIdx, blockDim, gridDim;
extern const int32_t warpSize;
uint32_t GetWarpId();
uint32_t GetLaneId();
void Sync();
bool __isfinite(float);

// The library passes lambdas (local types) to the warp and atomic operations, which a declared-only
// template cannot take: the members forward to declared-only functions instead, so a kernel reaching
// them still fails to link naming simt_WarpOp / simt_AtomicOp.
ASCGEN_DEVKIT_MISSING(simt_WarpOp)
ASCGEN_DEVKIT_MISSING(simt_WarpShuffleOp)
ASCGEN_DEVKIT_MISSING(simt_AtomicOp)
struct Warp {
    template <class T, class F> T WarpOp(T value, F) { return simt_WarpOp(value); }
    template <class T> T WarpShuffleOp(T value, uint32_t lane, uint32_t srcLane) {
        return simt_WarpShuffleOp(value, lane, srcLane);
    }
};
struct ThreadBlock {
    static ThreadBlock& GetBlockInstance();
    Warp warps_[64];
    template <class F> void AtomicOp(F) { simt_AtomicOp(0); }
};

namespace bfloat16 {
// fp4 -> bfloat16 widening of the CPU model's tensor printer: declared only.
struct Bf16T {
    template <class T> explicit Bf16T(T);
    operator bfloat16_t() const;
};
}  // namespace bfloat16
