// One kernel per fault the emulator must report. Each faulting statement carries a `FAULT:<name>` marker
// comment; the tests look the marker up to know which line the report must name.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void gm_out_of_bounds(GM_ADDR x, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x);                        // no size: the bound is the allocation
    uint32_t start = AscendC::GetBlockIdx() * 64;
    AscendC::DataCopy(t, g[start], 64);  // FAULT:gm_out_of_bounds (the last block reads past x)
}

extern "C" __global__ __aicore__ void local_overflow(GM_ADDR x, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::Duplicate(a, 1.0f, 128);  // FAULT:local_overflow (128 elements into a 64-element tensor)
}

extern "C" __global__ __aicore__ void ub_over_capacity(GM_ADDR x, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 200 * 1024);  // FAULT:ub_over_capacity (400 KB of UB)
}

extern "C" __global__ __aicore__ void ub_misaligned(GM_ADDR x, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    AscendC::DataCopy(t[3], g, 64);  // FAULT:ub_misaligned (UB offset 12 bytes)
}

extern "C" __global__ __aicore__ void datacopy_length(GM_ADDR x, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    AscendC::DataCopy(t, g, 7);  // FAULT:datacopy_length (28 bytes)
}

extern "C" __global__ __aicore__ void sync_all_short(GM_ADDR x, uint32_t n)
{
    if (AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum()) return;   // the last core never arrives
    AscendC::SyncAll();  // FAULT:sync_all_short
}

extern "C" __global__ __aicore__ void null_write(GM_ADDR x, uint32_t n)
{
    volatile float* p = reinterpret_cast<volatile float*>(static_cast<uintptr_t>(n) * 0);
    if (AscendC::GetBlockIdx() == 1) {
        *p = 1.0f;  // FAULT:null_write
    }
}

extern "C" __global__ __aicore__ void spin_with_api(GM_ADDR x, uint32_t n)
{
    AscendC::GlobalTensor<float> flag;
    flag.SetGlobalBuffer((__gm__ float*)x, n);
    while (flag.GetValue(0) == 0.0f) {  // FAULT:spin_with_api (polls a GM flag nobody sets)
    }
}

extern "C" __global__ __aicore__ void spin_bare(GM_ADDR x, uint32_t n)
{
    volatile uint32_t k = 0;
    for (;;) {
        k = k + 1;  // FAULT:spin_bare (never ends; never calls the API)
    }
}

extern "C" __global__ __aicore__ void spin_with_barrier(GM_ADDR x, uint32_t n)
{
    for (;;) {
        AscendC::PipeBarrier<PIPE_V>();  // FAULT:spin_with_barrier (calls the API, touches no GM)
    }
}
