// A MIX 1:2 Matmul with a vector epilogue, between two vector tasks, written against the real library
// (the devkit backend's SuperKernel test, tests/runtime/test_devkit_cube.py):
//
//   scale_a (AIV)    : a = 2 * x                                            (half, M x K)
//   matmul_leaky (MIX): a @ b on the cube cores (ND -> NZ, LoadData, Mmad), Fixpipe into the workspace w,
//                       then the cube core tells its two vector cores (CrossCoreSetFlag mode 2, PIPE_FIX),
//                       which compute y = LeakyRelu(w, 0.1) on half the rows each; meanwhile the cube core
//                       writes the raw product c = a @ b with a second Fixpipe
//   add_cy (AIV)     : z = c + y
//
// Each AIC core owns 16 rows of C (M = 16 * cores). `early` != 0 plants the bug the SuperKernel checker
// must catch: the cube side calls SetNextTaskStart before its last Fixpipe, so add_cy may read c while it
// is still being written. (Before the first one it would be harmless: the vector cores set only after the
// flag that follows it, and the next task waits for them too.)
#include "kernel_operator.h"

constexpr uint32_t ROWS = 16;     // rows of C per cube core
constexpr uint32_t SYNC_FLAG = 5; // AIC -> AIV: this core's rows of c are in GM

extern "C" __global__ __aicore__ void scale_a(GM_ADDR x, GM_ADDR a, uint32_t total)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t per = total / AscendC::GetBlockNum();
    AscendC::GlobalTensor<half> xg, ag;
    xg.SetGlobalBuffer((__gm__ half*)x + per * AscendC::GetBlockIdx(), per);
    ag.SetGlobalBuffer((__gm__ half*)a + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * per * sizeof(half));
    AscendC::LocalTensor<half> in = buf.Get<half>(), out = in[per];
    AscendC::WaitPreTaskEnd();
    AscendC::DataCopy(in, xg, per);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(out, in, half(2.0f), per);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(ag, out, per);
    AscendC::SetNextTaskStart();
}

// c (M x N float) = a (M x K half) @ b (K x N half); K, N multiples of 16, K * N and 16 * K halves fit L0.
extern "C" __global__ __aicore__ void matmul_leaky(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR c, GM_ADDR y,
                                                   uint32_t K, uint32_t N, uint32_t early)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::WaitPreTaskEnd();
    if ASCEND_IS_AIC {
        const uint32_t row0 = AscendC::GetBlockIdx() * ROWS;
        AscendC::GlobalTensor<half> ag, bg;
        AscendC::GlobalTensor<float> wg, cg;
        ag.SetGlobalBuffer((__gm__ half*)a + uint64_t(row0) * K, ROWS * K);
        wg.SetGlobalBuffer((__gm__ float*)w + uint64_t(row0) * N, ROWS * N);
        bg.SetGlobalBuffer((__gm__ half*)b, K * N);
        cg.SetGlobalBuffer((__gm__ float*)c + uint64_t(row0) * N, ROWS * N);
        AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, ROWS * K);
        AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, ROWS * K * sizeof(half), K * N);
        AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, ROWS * K);
        AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, K * N);
        AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, ROWS * N);
        AscendC::Nd2NzParams pa;
        pa.ndNum = 1, pa.nValue = ROWS, pa.dValue = K, pa.srcDValue = K, pa.dstNzC0Stride = ROWS, pa.dstNzNStride = 1;
        AscendC::DataCopy(a1, ag, pa);
        AscendC::Nd2NzParams pb;
        pb.ndNum = 1, pb.nValue = K, pb.dValue = N, pb.srcDValue = N, pb.dstNzC0Stride = K, pb.dstNzNStride = 1;
        AscendC::DataCopy(b1, bg, pb);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::LoadData2DParams la;
        la.repeatTimes = K / 16, la.srcStride = 1;
        AscendC::LoadData(a2, a1, la);
        AscendC::LoadData2DParams lb;
        lb.repeatTimes = N / 16, lb.srcStride = K / 16, lb.ifTranspose = true;
        for (uint32_t i = 0; i < K / 16; ++i) AscendC::LoadData(b2[i * N * 16], b1[i * 256], lb);
        AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
        AscendC::MmadParams mp;
        mp.m = ROWS, mp.n = N, mp.k = K;
        AscendC::Mmad(c1, a2, b2, mp);
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::FixpipeParamsV220 fp;
        fp.nSize = N, fp.mSize = ROWS, fp.srcStride = ROWS, fp.dstStride = N;
        AscendC::Fixpipe(wg, c1, fp);
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(SYNC_FLAG);
        if (early) AscendC::SetNextTaskStart();          // the planted bug: c is written below
        AscendC::Fixpipe(cg, c1, fp);
        if (!early) AscendC::SetNextTaskStart();
    }
    if ASCEND_IS_AIV {
        // AIV 2i and 2i+1 take rows [0, 8) and [8, 16) of cube core i's block.
        const uint32_t half_rows = ROWS / 2;
        const uint64_t off = (uint64_t(AscendC::GetBlockIdx()) * half_rows) * N;
        AscendC::GlobalTensor<float> wg, yg;
        wg.SetGlobalBuffer((__gm__ float*)w + off, half_rows * N);
        yg.SetGlobalBuffer((__gm__ float*)y + off, half_rows * N);
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * half_rows * N * sizeof(float));
        AscendC::LocalTensor<float> in = buf.Get<float>(), out = in[half_rows * N];
        AscendC::CrossCoreWaitFlag(SYNC_FLAG);
        AscendC::DataCopy(in, wg, half_rows * N);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::LeakyRelu(out, in, 0.1f, half_rows * N);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, out, half_rows * N);
        AscendC::SetNextTaskStart();
    }
}

extern "C" __global__ __aicore__ void add_cy(GM_ADDR c, GM_ADDR y, GM_ADDR z, uint32_t total)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t per = total / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> cg, yg, zg;
    cg.SetGlobalBuffer((__gm__ float*)c + per * AscendC::GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    zg.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * per * sizeof(float));
    AscendC::LocalTensor<float> cl = buf.Get<float>(), yl = cl[per], zl = cl[2 * per];
    AscendC::WaitPreTaskEnd();
    AscendC::DataCopy(cl, cg, per);
    AscendC::DataCopy(yl, yg, per);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(zl, cl, yl, per);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg, zl, per);
    AscendC::SetNextTaskStart();
}
