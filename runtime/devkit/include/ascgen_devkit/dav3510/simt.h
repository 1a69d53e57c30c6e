// The SIMT side of the dav_3510 CPU mode: vector value types, the launch geometry, and a model of a SIMT
// launch (`AscendC::Simt::VF_CALL<f>(Dim3(n), args...)`, `asc_vf_call<f>(dim3{n}, args...)`: both call
// `cce::async_invoke`). The model runs the launch's threads one after another on the launching core, in
// thread-index order (x fastest), each with its own threadIdx. That is the device's result for every kernel
// whose threads do not wait for one another; a barrier (asc_syncthreads) or a warp exchange (shuffle, vote,
// warp reduce), whose result depends on the threads running together, is refused at the call with a named
// fault, never run as if it had synchronised. Atomics run as the library's CPU mode writes them (under its
// process lock).
#pragma once
#include <cstdint>
#include "../missing.h"
#include "../scalar.h"
#include "../site.h"

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
}  // namespace cce
using cce::dim3;        // bisheng also names it at global scope: kernels write `dim3{128}`
// The SIMT C API (asc_atomic_add, asc_ldcg...) is declared in namespace __asc_simt_vf, whose names the device
// compiler makes visible in SIMT code without qualification. A using-directive cannot be limited to SIMT
// code, and at global scope it made every printf call with arguments ambiguous (the namespace declares a SIMT
// printf): opbase's atvoss log.h in ops-nn's ascend950 kernels stopped so. Unqualified calls to those names
// are a named compile error instead.

namespace ascgen_devkit {
struct SimtGeometry {
    uint32_t x = 0, y = 0, z = 0;
};
}  // namespace ascgen_devkit
// The running SIMT thread's geometry. One set per module copy, i.e. per core: a launch runs on its core's
// thread. blockIdx / gridDim are the core's block index and the launch's block count.
inline ascgen_devkit::SimtGeometry threadIdx, blockIdx, blockDim{1, 1, 1}, gridDim{1, 1, 1};
// The threads of a warp (the library's warp functions take `width = warpSize`).
inline constexpr int32_t warpSize = 32;

namespace ascgen_devkit {
inline uint32_t simt_linear_thread() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline uint32_t simt_threads() { return blockDim.x * blockDim.y * blockDim.z; }

[[noreturn]] inline void simt_unsupported(const char* what) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at(what),
                       "%s: a SIMT barrier or warp exchange needs the launch's threads to run together; ascgen's "
                       "SIMT model runs them one after another (runtime/devkit simt.h), so it refuses the call "
                       "rather than give another result than the device's. Thread %u of %u, block %u.", what,
                       simt_linear_thread(), simt_threads(), blockIdx.x);
}

template <class Body>
inline void simt_launch(cce::dim3 threads, Body&& body) {
    if (threads.x == 0 || threads.y == 0 || threads.z == 0)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at("async_invoke"),
                           "a SIMT launch of %u x %u x %u threads: every dimension must be at least 1",
                           threads.x, threads.y, threads.z);
    blockDim = {threads.x, threads.y, threads.z};
    blockIdx = {static_cast<uint32_t>(get_block_idx()), 0, 0};
    gridDim = {static_cast<uint32_t>(get_block_num()), 1, 1};
    for (uint32_t z = 0; z < threads.z; ++z)
        for (uint32_t y = 0; y < threads.y; ++y)
            for (uint32_t x = 0; x < threads.x; ++x) {
                threadIdx = {x, y, z};
                body();
            }
    threadIdx = {};
    blockDim = {1, 1, 1};
}
}  // namespace ascgen_devkit

namespace cce {
// One SIMT launch: `F(args...)` once per thread (see the top of this file).
template <auto F, class... A>
void async_invoke(dim3 threads, A&&... args) {
    ::ascgen_devkit::simt_launch(threads, [&] { F(args...); });
}
}  // namespace cce

inline uint32_t GetWarpId() { return ascgen_devkit::simt_linear_thread() / warpSize; }
inline uint32_t GetLaneId() { return ascgen_devkit::simt_linear_thread() % warpSize; }
// A barrier among the launch's threads: nothing to wait for when the launch has one thread.
inline void Sync() {
    if (ascgen_devkit::simt_threads() > 1)
        ascgen_devkit::simt_unsupported("Sync");
}
inline bool __isfinite(float x) { return __builtin_isfinite(x); }

// The library's CPU mode runs warp functions through Warp::WarpOp / WarpShuffleOp and atomics through
// ThreadBlock::AtomicOp(f), holding its process lock around the latter.
struct Warp {
    template <class T, class F> T WarpOp(T, F) { ascgen_devkit::simt_unsupported("WarpOp"); }
    template <class T> T WarpShuffleOp(T, uint32_t, uint32_t) { ascgen_devkit::simt_unsupported("WarpShuffleOp"); }
};
struct ThreadBlock {
    static ThreadBlock& GetBlockInstance() {
        static thread_local ThreadBlock block;      // per core: a core's launch runs on its thread
        return block;
    }
    Warp warps_[64];
    template <class F> void AtomicOp(F f) { f(); }
};

namespace bfloat16 {
// fp4 -> bfloat16 widening of the CPU model's tensor printer: declared only.
struct Bf16T {
    template <class T> explicit Bf16T(T);
    operator bfloat16_t() const;
};
}  // namespace bfloat16
