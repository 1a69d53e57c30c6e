// Small kernels for tests/test_library_{copy,faults,queue,misc}.py: `scenarios NAME` runs one and
// prints results as text; faults are printed by the stub on stderr. Lines tagged `// @tag` are looked up
// by the tests to check that a fault names the user's line.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;
extern "C" void ascgen_stub_report();

namespace {

template <class T>
std::vector<T> gm(size_t n, const char* name, T start = T(0)) {
    std::vector<T> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = T(float(start) + float(i));
    ascgen::rt::gm_register(v.data(), n * sizeof(T), name);   // vectors do not move after this
    return v;
}
template <class T>
void show(const char* label, const T* p, size_t n) {
    std::printf("%s:", label);
    for (size_t i = 0; i < n; ++i) std::printf(" %g", double(float(p[i])));
    std::printf("\n");
}

void copy_contig() {
    auto x = gm<float>(256, "x"), y = gm<float>(256, "y", -1000.f);
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x.data(), 256);
    yg.SetGlobalBuffer(y.data(), 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 256);
    DataCopy(yg, t, 256);
    show("y", y.data() + 250, 6);
}

void copy_strided() {
    auto x = gm<float>(128, "x"), y = gm<float>(128, "y", -1.f);
    for (auto& v : y) v = -1;
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x.data(), 128);
    yg.SetGlobalBuffer(y.data(), 128);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, DataCopyParams(4, 1, 1, 0));   // every other 32-byte block of x, packed in UB
    show("ub", t.data(), 32);
    DataCopy(yg, t, DataCopyParams(2, 2, 0, 2));   // two 64-byte blocks to y with a 64-byte gap
    show("y", y.data(), 64);
}

void copy_pad() {
    auto x = gm<float>(64, "x"), y = gm<float>(64, "y");
    for (auto& v : y) v = -1;
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x.data(), 64);
    yg.SetGlobalBuffer(y.data(), 64);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 99.f, 256);
    // 3 blocks of 5 floats, 1 float skipped between them in GM; 1 left pad element; pads = -7.
    DataCopyPad(t, xg, DataCopyExtParams{3, 20, 4, 0, 0}, DataCopyPadExtParams<float>{true, 1, 0, -7.f});
    show("ub", t.data(), 24);
    DataCopyPad(yg, t, DataCopyExtParams{3, 24, 0, 8, 0});   // 6 floats of each UB block, 8 bytes apart in GM
    show("y", y.data(), 22);
}

void copy_pad_dummy() {
    auto x = gm<float>(64, "x", 10.f);
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.data(), 64);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 99.f, 64);
    DataCopyPad(t, xg, DataCopyExtParams{2, 12, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.f});
    show("ub", t.data(), 16);
    SetPadValue(5.f);
    DataCopyPad(t, xg, DataCopyExtParams{1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 2, 0.f});
    show("ub2", t.data(), 8);
}

void atomic_add() {
    auto x = gm<float>(64, "x"), y = gm<float>(64, "y", 100.f);
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x.data(), 64);
    yg.SetGlobalBuffer(y.data(), 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 64);
    SetAtomicAdd<float>();
    DataCopy(yg, t, 64);
    DataCopy(yg, t, 64);
    DisableDmaAtomic();
    show("y", y.data(), 4);
    SetAtomicAdd<half>();
    DataCopy(yg, t, 64);   // @atomic_type
}

void f_copy_len() {
    auto x = gm<float>(64, "x");
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.data(), 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 10);   // @copy_len
}

void f_gm_view() {
    auto x = gm<float>(256, "x");
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.data(), 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg[32], 64);   // @gm_view
}

void f_gm_alloc() {
    auto x = gm<float>(64, "x");
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.data());   // no size: only the allocation bounds apply
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg[32], 64);   // @gm_alloc
}

void f_count() {
    TPipe pipe;
    TBuf<> a, b;
    pipe.InitBuffer(a, 256 * 4);
    pipe.InitBuffer(b, 128 * 4);
    LocalTensor<float> x = a.Get<float>(), y = b.Get<float>();
    Add(x, x, y, 256);   // @count
}

void f_subtensor() {
    TPipe pipe;
    TBuf<> a;
    pipe.InitBuffer(a, 256 * 4);
    LocalTensor<float> x = a.Get<float>();
    Relu(x, x, 8);   // @before_sub
    LocalTensor<float> y = x[300];
    (void)y;
}

void f_ub_capacity() {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 64 * 1024);
    pipe.InitBuffer(q, 2, 64 * 1024);   // @ub_capacity
}

void f_align() {
    TPipe pipe;
    TBuf<> a;
    pipe.InitBuffer(a, 256 * 4);
    LocalTensor<float> x = a.Get<float>();
    Exp(x[4], x[8], 16);   // @align
}

void f_waitflag() {
    TPipe pipe;
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);   // @waitflag
}

void f_getvalue() {
    TPipe pipe;
    TBuf<> a;
    pipe.InitBuffer(a, 64);
    LocalTensor<half> x = a.Get<half>();
    x.SetValue(31, half(1.0f));
    x.GetValue(32);   // @getvalue
}

void f_static_tensor() {
    LocalTensor<float> x(TPosition::VECCALC, 180 * 1024, 4096);   // @static_tensor
    (void)x;
}

void q_fifo() {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 128);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    a.SetValue(0, 1.f);
    b.SetValue(0, 2.f);
    q.EnQue(a);
    q.EnQue(b);
    std::printf("count=%d\n", q.GetTensorCountInQue());
    LocalTensor<float> first = q.DeQue<float>();
    LocalTensor<float> second = q.DeQue<float>();
    std::printf("first=%g second=%g size=%u\n", double(first.GetValue(0)), double(second.GetValue(0)),
                first.GetSize());
    q.FreeTensor(first);
    q.FreeTensor(second);
    LocalTensor<float> c = q.AllocTensor<float>();   // round robin: the first buffer again
    std::printf("reuse=%d idle=%d\n", int(c.GetPhyAddr() == first.GetPhyAddr() || c.GetPhyAddr() == second.GetPhyAddr()),
                int(q.HasIdleBuffer()));
}

void q_deque_empty() {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 128);
    LocalTensor<float> a = q.DeQue<float>();   // @deque_empty
    (void)a;
}

void q_alloc_exhausted() {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 128);
    q.AllocTensor<float>();
    q.AllocTensor<float>();
    q.AllocTensor<float>();   // @alloc_exhausted
}

void q_double_free() {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 128);
    LocalTensor<float> a = q.AllocTensor<float>();
    q.FreeTensor(a);
    q.FreeTensor(a);   // @double_free
}

void q_foreign() {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TBuf<> b;
    pipe.InitBuffer(q, 1, 128);
    pipe.InitBuffer(b, 128);
    q.EnQue(b.Get<float>());   // @foreign
}

void q_tbuf_len() {
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 128);
    b.Get<float>(33);   // @tbuf_len
}

void misc_printf() {
    AscendC::printf("x=%.2f idx=%ld n=%d s=%s\n", half(1.5f), block_idx, 7, "ok");
    PRINTF("plain\n");
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>();
    for (int i = 0; i < 4; ++i) t.SetValue(i, float(i) / 2);
    DumpTensor(t, 5, 4);
}

void misc_sync() {
    SyncAll();
    CrossCoreSetFlag<0, PIPE_MTE3>(3);
    CrossCoreWaitFlag(3);
    WaitPreTaskEnd();
    SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
    std::printf("aiv=%d aic=%d blockidx=%lld blocknum=%lld\n", int(ASCEND_IS_AIV), int(ASCEND_IS_AIC),
                (long long)GetBlockIdx(), (long long)GetBlockNum());
}

struct Tiling {
    uint32_t total;
    uint32_t tiles;
    float scale;
};
void misc_tiling_kernel(GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(Tiling);
    GET_TILING_DATA(t, tiling);
    std::printf("total=%u tiles=%u scale=%g key=%d\n", t.total, t.tiles, double(t.scale), int(TILING_KEY_IS(2)));
}
void misc_tiling() {
    static Tiling host{1024, 8, 0.5f};
    ascgen::rt::gm_register(&host, sizeof host, "tiling");
    ascgen_tiling_key = 2;
    misc_tiling_kernel(reinterpret_cast<GM_ADDR>(&host));
}

struct Scenario {
    const char* name;
    void (*fn)();
};
// Every queue buffer of a position holds an event id once used (queued or freed): 8 per position (QUE_MAX_EVENT).
template <int kOut>
void event_pool_run() {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> in[4];
    TQue<TPosition::VECOUT, 2> out[kOut];
    for (auto& q : in) pipe.InitBuffer(q, 2, 64);
    for (auto& q : out) pipe.InitBuffer(q, 2, 64);
    for (int tile = 0; tile < 3; ++tile) {
        for (auto& q : in) {
            LocalTensor<float> t = q.template AllocTensor<float>();
            q.EnQue(t);
            t = q.template DeQue<float>();
            q.FreeTensor(t);
        }
        for (auto& q : out) {
            LocalTensor<float> t = q.template AllocTensor<float>();
            q.EnQue(t);
            t = q.template DeQue<float>();
            q.FreeTensor(t);   // @event_pool
        }
    }
    std::printf("pools ok\n");
}
void q_event_pool_8() { event_pool_run<4>(); }
void q_event_pool_10() { event_pool_run<5>(); }

const Scenario kScenarios[] = {
    {"copy_contig", copy_contig}, {"copy_strided", copy_strided}, {"copy_pad", copy_pad},
    {"copy_pad_dummy", copy_pad_dummy}, {"atomic_add", atomic_add}, {"f_copy_len", f_copy_len},
    {"f_gm_view", f_gm_view}, {"f_gm_alloc", f_gm_alloc}, {"f_count", f_count}, {"f_subtensor", f_subtensor},
    {"f_ub_capacity", f_ub_capacity}, {"f_align", f_align}, {"f_waitflag", f_waitflag},
    {"f_getvalue", f_getvalue}, {"f_static_tensor", f_static_tensor}, {"q_fifo", q_fifo},
    {"q_deque_empty", q_deque_empty}, {"q_alloc_exhausted", q_alloc_exhausted}, {"q_double_free", q_double_free},
    {"q_foreign", q_foreign}, {"q_tbuf_len", q_tbuf_len}, {"misc_printf", misc_printf}, {"misc_sync", misc_sync},
    {"misc_tiling", misc_tiling}, {"q_event_pool_8", q_event_pool_8}, {"q_event_pool_10", q_event_pool_10},
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    for (const Scenario& s : kScenarios)
        if (std::strcmp(s.name, argv[1]) == 0) {
            int rc = 0;
            try {
                s.fn();
            } catch (ascgen::rt::Cancelled&) {
                rc = 3;
            }
            std::fflush(stdout);
            ascgen_stub_report();
            return rc;
        }
    std::fprintf(stderr, "unknown scenario %s\n", argv[1]);
    return 2;
}
