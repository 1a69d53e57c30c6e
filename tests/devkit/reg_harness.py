"""The AIV side every binary dav_3510 register test shares: its kernel's `Run` copies 256 bytes of d, a and b
from GM into UB, calls one `__simd_vf__` function (d, a, b, count) on them through asc_vf_call, and copies d
back. d is copied in too, so a function that reads its destination (MulAddDst) sees the test's values."""
from __future__ import annotations


def binary_run(vf: str, params: str = "typename T") -> str:
    """C++ source of `template <params> Run(GM_ADDR d, GM_ADDR a, GM_ADDR b, uint32_t count)` calling `vf`
    (e.g. "AbsDif<T>"; `params` declares what it names besides T)."""
    return f"""
template <{params}>
__aicore__ inline void Run(GM_ADDR d, GM_ADDR a, GM_ADDR b, uint32_t count) {{
    constexpr uint32_t n = 256 / sizeof(T);
    GlobalTensor<T> dg, ag, bg;
    dg.SetGlobalBuffer((__gm__ T*)d, n);
    ag.SetGlobalBuffer((__gm__ T*)a, n);
    bg.SetGlobalBuffer((__gm__ T*)b, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 768);
    LocalTensor<T> dl = buf.Get<T>(), al = dl[n], bl = dl[2 * n];
    DataCopy(dl, dg, n);
    DataCopy(al, ag, n);
    DataCopy(bl, bg, n);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<{vf}>((__ubuf__ T*)dl.GetPhyAddr(), (__ubuf__ T*)al.GetPhyAddr(), (__ubuf__ T*)bl.GetPhyAddr(),
                      count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, dl, n);
}}
"""
