// Kernels for the robustness suite (issue 9): each exercises one defect class. Lines the tests locate
// carry a `ROBUST:<name>` marker.
#include <cstdlib>
#include <stdexcept>
#include "kernel_operator.h"

// Copies x into y through raw GM pointers (no GlobalTensor): y is written, x only read.
extern "C" __global__ __aicore__ void raw_copy(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    if (AscendC::GetBlockIdx() != 0) return;
    __gm__ float* src = (__gm__ float*)x;
    __gm__ float* dst = (__gm__ float*)y;
    for (uint32_t i = 0; i < n; ++i) {
        dst[i] = src[i] * 2.0f;  // ROBUST:raw_copy
    }
}

// Binds x as half elements: an array of another dtype is a SpecError naming x.
extern "C" __global__ __aicore__ void half_scale(GM_ADDR x, uint32_t n)
{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, n);  // ROBUST:half_cast
    if (AscendC::GetBlockIdx() == 0 && n > 0) g.SetValue(0, g.GetValue(0));
}

// Copies a never-written UB tensor to GM.
extern "C" __global__ __aicore__ void ub_uninit(GM_ADDR z, uint32_t n)
{
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    t = q.DeQue<float>();
    AscendC::DataCopy(g, t, 64);  // ROBUST:ub_uninit
    q.FreeTensor(t);
}

// Fills UB with a marker and copies it out: the "earlier launch" of the leak test.
extern "C" __global__ __aicore__ void ub_fill(GM_ADDR z, uint32_t n)
{
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    AscendC::Duplicate(t, 12345.0f, 64);
    q.EnQue(t);
    t = q.DeQue<float>();
    AscendC::DataCopy(g, t, 64);
    q.FreeTensor(t);
}

// Reads one never-written UB element with the scalar unit and stores it to GM (no DataCopy: no report), so
// a test can see what uninitialised UB holds.
extern "C" __global__ __aicore__ void ub_peek(GM_ADDR z, uint32_t n)
{
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)z, 64);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    g.SetValue(0, t.GetValue(0));
    q.FreeTensor(t);
}

// A C++ exception escapes the kernel.
extern "C" __global__ __aicore__ void throws(GM_ADDR x, uint32_t n)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    if (AscendC::GetBlockIdx() == 1) throw std::runtime_error("kernel gave up");  // ROBUST:throws
}

static int deeper(int k) { volatile char pad[512]; pad[0] = (char)k; return deeper(k + 1) + pad[0]; }  // ROBUST:recurse

// Unbounded recursion (isolated mode: a stack overflow).
extern "C" __global__ __aicore__ void recurse(GM_ADDR x, uint32_t n)
{
    if (AscendC::GetBlockIdx() == 0) ((__gm__ int*)x)[0] = deeper((int)n);
}

// abort() from kernel code (isolated mode).
extern "C" __global__ __aicore__ void aborts(GM_ADDR x, uint32_t n)
{
    if (AscendC::GetBlockIdx() == 0) abort();  // ROBUST:aborts
}

// Writes one element past the end of z through a raw pointer (the last block's loop runs to n inclusive).
extern "C" __global__ __aicore__ void raw_overrun(GM_ADDR z, uint32_t n)
{
    if (AscendC::GetBlockIdx() != 0) return;
    __gm__ float* p = (__gm__ float*)z;
    for (uint32_t i = 0; i <= n; ++i) {
        p[i] = 1.0f;  // ROBUST:raw_overrun
    }
}

// A scalar GM loop (the raw-GM benchmark): z[i] = x[i] * a + 1 through raw pointers, split over blocks.
extern "C" __global__ __aicore__ void raw_scale(GM_ADDR x, GM_ADDR z, uint32_t n, float a)
{
    uint32_t blocks = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    uint32_t per = (n + blocks - 1) / blocks, begin = idx * per, end = begin + per < n ? begin + per : n;
    __gm__ float* src = (__gm__ float*)x;
    __gm__ float* dst = (__gm__ float*)z;
    for (uint32_t i = begin; i < end; ++i) dst[i] = src[i] * a + 1.0f;
}
