// Library throughput on the add+relu benchmark shape, without the core: 2^24 float32 split over 32
// blocks run one after another on one thread (the rt stub), tiles of 8192 elements double-buffered
// through TQue like a generated kernel. Prints milliseconds per run; compare with numpy's
// `np.maximum(x + y, 0, out=z)` (tests/cpp_stub/bench_addrelu.py runs both).
#include <chrono>
#include <cstdio>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kTile = 4096;

extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    uint32_t per = total / GetBlockNum();
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + per * GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ float*)y + per * GetBlockIdx(), per);
    zg.SetGlobalBuffer((__gm__ float*)z + per * GetBlockIdx(), per);
    pipe.InitBuffer(qx, 2, kTile * 4);
    pipe.InitBuffer(qy, 2, kTile * 4);
    pipe.InitBuffer(qz, 2, kTile * 4);
    for (uint32_t t = 0; t < per / kTile; ++t) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, xg[t * kTile], kTile);
        DataCopy(b, yg[t * kTile], kTile);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, b, kTile);
        Relu(c, c, kTile);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(zg[t * kTile], c, kTile);
        qz.FreeTensor(c);
    }
}

static void thunk(void* ctx) {
    auto* p = static_cast<void**>(ctx);
    add_relu((GM_ADDR)p[0], (GM_ADDR)p[1], (GM_ADDR)p[2], 1u << 24);
}

int main() {
    const size_t n = size_t(1) << 24;
    std::vector<float> x(n), y(n), z(n);
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 1000) - 500.f, y[i] = 1.5f;
    ascgen::rt::gm_register(x.data(), n * 4, "x");
    ascgen::rt::gm_register(y.data(), n * 4, "y");
    ascgen::rt::gm_register(z.data(), n * 4, "z");
    void* args[3] = {x.data(), y.data(), z.data()};
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        ascgen::rt::host_launch("add_relu", thunk, args, 32, ASCGEN_HERE);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        best = ms < best ? ms : best;
    }
    for (size_t i = 0; i < n; i += 4097)
        if (z[i] != (x[i] + y[i] > 0 ? x[i] + y[i] : 0)) return 1;
    std::printf("library add+relu 2^24 float32, 32 blocks on 1 thread: %.1f ms (best of 5)\n", best);
}
