"""The cube's matmul kernel (runtime/include/ascgen/gemm.h), Mmad's GEMV mode, and the hand-written cube
matmul kernel of benchmarks/bench_cube.py.

* gemm::mmad against the naive loop Mmad used before it (kept here, in the driver, as the oracle): bit for
  bit for half (same summation order, exact products), int8 against numpy exactly, bfloat16 within the
  float-sum bound; fractal padding filled with NaN patterns must not leak in or be overwritten.
* The vectorised half -> float conversion against the scalar one for all 65536 bit patterns.
* int8 through the library: ND -> NZ with 16 x 32 fractals, LoadData, Mmad into int32, Fixpipe to int32 GM.
* DataCopy ND -> NZ against its element formula (ragged, two matrices, gaps, overlapping pieces).
* GEMV mode (m == 1): L0A holds A as one contiguous row (the asc-devkit mmad_gemv sequence) in an L0A
  whose other bytes are garbage; the old emulation read a 16-row fractal there and got a wrong answer.
  Refused by name where GEMV is not emulated; disableGemv (dav-3510) keeps the fractal layout.
* benchmarks/kernels/matmul_cube.cpp through the real runtime at 64x96x128 with ragged tiles, within the
  float-sum error bound of a float64 reference (see _float_sum_bound).
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.library import harness
from tests.paths import REPO

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

DRIVER = r'''
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;
namespace G = ascgen::gemm;

static std::vector<char> g_in;
static size_t g_pos = 0;
template <class T> static const T* take(size_t n) {
    if (g_pos + n * sizeof(T) > g_in.size()) { std::fprintf(stderr, "driver: stdin too short\n"); std::exit(2); }
    const T* p = reinterpret_cast<const T*>(g_in.data() + g_pos);
    g_pos += n * sizeof(T);
    return p;
}
template <class T> static void put(const T* p, size_t n) { std::fwrite(p, sizeof(T), n, stdout); }

// The loop Mmad used before gemm.h, generalised to C0 = 32 / sizeof(In): the oracle.
template <class In, class Acc>
static void naive(Acc* c, const In* a, const In* b, int64_t m, int64_t n, int64_t k, bool init) {
    const int64_t C0 = 32 / sizeof(In), mf = (m + 15) / 16, kf = (k + C0 - 1) / C0, nf = (n + 15) / 16;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            Acc acc = 0;
            for (int64_t t = 0; t < k; ++t) {
                Acc x = Acc(a[((i / 16) * kf + t / C0) * 16 * C0 + (i % 16) * C0 + t % C0]);
                Acc y = Acc(b[((t / C0) * nf + j / 16) * 16 * C0 + (j % 16) * C0 + t % C0]);
                acc += x * y;
            }
            Acc& out = c[((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16];
            out = init ? acc : out + acc;
        }
}

// gemm TYPE M N K INIT: A (MxK), B (KxN), C0 (MxN, accumulator type) in ND on stdin. Writes C from
// gemm::mmad, then C from the naive loop (ND), then the count of padding elements of C that changed.
template <class In, class Acc>
static int gemm(int64_t m, int64_t n, int64_t k, bool init) {
    const int64_t C0 = 32 / sizeof(In), mf = (m + 15) / 16, kf = (k + C0 - 1) / C0, nf = (n + 15) / 16;
    const In* an = take<In>(m * k);
    const In* bn = take<In>(k * n);
    const Acc* cn = take<Acc>(m * n);
    // Padding: all-ones bytes (a NaN for half/bf16/float, -1 for integers) so a leak shows.
    std::vector<In> a(mf * kf * 16 * C0), b(kf * nf * 16 * C0);
    std::memset(a.data(), 0xff, a.size() * sizeof(In));
    std::memset(b.data(), 0xff, b.size() * sizeof(In));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t t = 0; t < k; ++t) a[((i / 16) * kf + t / C0) * 16 * C0 + (i % 16) * C0 + t % C0] = an[i * k + t];
    for (int64_t t = 0; t < k; ++t)
        for (int64_t j = 0; j < n; ++j) b[((t / C0) * nf + j / 16) * 16 * C0 + (j % 16) * C0 + t % C0] = bn[t * n + j];
    std::vector<Acc> c1(mf * nf * 256), c2;
    std::memset(c1.data(), 0xfe, c1.size() * sizeof(Acc));
    auto at = [&](int64_t i, int64_t j) { return ((j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16; };
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) c1[at(i, j)] = cn[i * n + j];
    c2 = c1;
    std::vector<Acc> before = c1;
    G::mmad(c1.data(), a.data(), b.data(), m, n, k, init, false);
    naive(c2.data(), a.data(), b.data(), m, n, k, init);
    std::vector<Acc> o1(m * n), o2(m * n);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) o1[i * n + j] = c1[at(i, j)], o2[i * n + j] = c2[at(i, j)];
    put(o1.data(), o1.size());
    put(o2.data(), o2.size());
    // Count changed padding by bytes (the 0xfe pattern is a NaN for float: compare bits, not values).
    std::vector<char> pad(c1.size(), 1);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) pad[at(i, j)] = 0;
    int32_t changed = 0;
    for (size_t e = 0; e < c1.size(); ++e) changed += pad[e] && std::memcmp(&c1[e], &before[e], sizeof(Acc)) != 0;
    put(&changed, 1);
    return 0;
}

// widen: how many of the 65536 half / bfloat16 bit patterns the vector conversion gets wrong (bitwise).
static int widen() {
    int32_t bad[2] = {0, 0};
    for (uint32_t base = 0; base < 65536; base += 16) {
        half h[16];
        bfloat16_t g[16];
        float f[16], e[16];
        for (int i = 0; i < 16; ++i) h[i] = half::from_bits(uint16_t(base + i)), g[i] = bfloat16_t::from_bits(uint16_t(base + i));
        G::detail::widen16(f, h);
        for (int i = 0; i < 16; ++i) e[i] = ascgen::lib::f16_to_f32(uint16_t(base + i));
        bad[0] += std::memcmp(f, e, sizeof f) != 0;
        G::detail::widen16(f, g);
        for (int i = 0; i < 16; ++i) e[i] = ascgen::lib::bf16_to_f32(uint16_t(base + i));
        bad[1] += std::memcmp(f, e, sizeof f) != 0;
    }
    put(bad, 2);
    return 0;
}

// gemv K N FRACTAL: Mmad with m == 1 through the library: A (1xK) and B stored transposed (NxK) in GM,
// the asc-devkit mmad_gemv sequence (FRACTAL=0: A as one contiguous row, GEMV mode; FRACTAL=1: A padded
// to 16 rows, with MmadParams::disableGemv where it exists). L0A is the whole 64 KB, full of 2.0 first.
static int gemv(int k, int n, bool fractal) {
    auto up = [](int v, int a) { return (v + a - 1) / a * a; };
    const half* ap = take<half>(size_t(k));
    std::vector<half> a(ap, ap + k), b;
    const half* bp = take<half>(size_t(n) * k);
    b.assign(bp, bp + size_t(n) * k);
    std::vector<float> c(n, -7.f);
    ascgen::rt::gm_register(a.data(), a.size() * 2, "a");
    ascgen::rt::gm_register(b.data(), b.size() * 2, "b");
    ascgen::rt::gm_register(c.data(), c.size() * 4, "c");
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(b.data(), b.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    const uint32_t aSize = fractal ? 16 * up(k, 16) : up(k, 256);
    LocalTensor<half> a1(TPosition::A1, 0, aSize);
    LocalTensor<half> b1(TPosition::B1, aSize * 2, uint32_t(up(k, 16) * up(n, 16)));
    LocalTensor<half> a2(TPosition::A2, 0, 32768);
    LocalTensor<half> b2(TPosition::B2, 0, uint32_t(up(k, 16) * up(n, 16)));
    LocalTensor<float> c1(TPosition::CO1, 0, uint32_t(16 * up(n, 16)));
    for (int i = 0; i < 32768; ++i) a2.data()[i] = half(2.0f);
    Nd2NzParams pa;
    pa.ndNum = 1, pa.nValue = 1, pa.dValue = uint16_t(k), pa.srcDValue = uint16_t(k);
    pa.dstNzC0Stride = fractal ? 16 : 1, pa.dstNzNStride = 1;
    DataCopy(a1, ag, pa);
    Nd2NzParams pb;
    pb.ndNum = 1, pb.nValue = uint16_t(n), pb.dValue = uint16_t(k), pb.srcDValue = uint16_t(k);
    pb.dstNzC0Stride = uint16_t(up(n, 16)), pb.dstNzNStride = 1;
    DataCopy(b1, bg, pb);
    LoadData2DParams la;
    la.repeatTimes = uint8_t(fractal ? up(k, 16) / 16 : up(k, 256) / 256), la.srcStride = 1;
    LoadData(a2, a1, la);
    LoadData2DParams lb;
    lb.repeatTimes = uint8_t(up(n, 16) / 16 * up(k, 16) / 16), lb.srcStride = 1;
    LoadData(b2, b1, lb);
    MmadParams mp;
    mp.m = 1, mp.n = uint16_t(n), mp.k = uint16_t(k);
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    mp.disableGemv = fractal;
#endif
    Mmad(c1, a2, b2, mp);
    FixpipeParamsV220 fp;
    fp.nSize = uint16_t(n), fp.mSize = 1, fp.srcStride = 16, fp.dstStride = uint32_t(n);
    Fixpipe(cg, c1, fp);
    put(c.data(), c.size());
    return 0;
}

// nd2nz ND N D SRCMAT SRCD C0STRIDE NSTRIDE DSTMAT SRCLEN DSTLEN: DataCopy(Nd2NzParams) of SRCLEN halves from
// stdin into an L1 tensor of DSTLEN halves filled with -1 first; writes the L1 tensor.
static int nd2nz(char** v) {
    int x[10];
    for (int i = 0; i < 10; ++i) x[i] = std::atoi(v[i]);
    const half* sp = take<half>(size_t(x[8]));
    std::vector<half> src(sp, sp + x[8]);
    ascgen::rt::gm_register(src.data(), src.size() * 2, "src");
    GlobalTensor<half> g;
    g.SetGlobalBuffer(src.data(), src.size());
    LocalTensor<half> l1(TPosition::A1, 0, uint32_t(x[9]));
    for (int i = 0; i < x[9]; ++i) l1.data()[i] = half(-1.0f);
    Nd2NzParams p{uint16_t(x[0]), uint16_t(x[1]), uint16_t(x[2]), uint16_t(x[3]), uint16_t(x[4]), uint16_t(x[5]),
                  uint16_t(x[6]), uint16_t(x[7])};
    DataCopy(l1, g, p);
    put(l1.data(), size_t(x[9]));
    return 0;
}

// mmad_i8 M K N: int8 A (MxK) and B stored transposed (NxK) in GM -> L1 (ND -> NZ, 16 x 32 fractals) ->
// LoadData -> Mmad into an int32 L0C -> Fixpipe to int32 GM; writes C (MxN).
static int mmad_i8(int m, int k, int n) {
    auto up = [](int v, int a) { return (v + a - 1) / a * a; };
    const int8_t* ap = take<int8_t>(size_t(m) * k);
    const int8_t* bp = take<int8_t>(size_t(n) * k);
    std::vector<int8_t> a(ap, ap + size_t(m) * k), b(bp, bp + size_t(n) * k);
    std::vector<int32_t> c(size_t(m) * n, 0);
    ascgen::rt::gm_register(a.data(), a.size(), "a");
    ascgen::rt::gm_register(b.data(), b.size(), "b");
    ascgen::rt::gm_register(c.data(), c.size() * 4, "c");
    GlobalTensor<int8_t> ag, bg;
    GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(b.data(), b.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    const int mf = up(m, 16) / 16, nf = up(n, 16) / 16, kf = up(k, 32) / 32;
    const uint32_t aSize = uint32_t(mf * kf * 512), bSize = uint32_t(nf * kf * 512);
    LocalTensor<int8_t> a1(TPosition::A1, 0, aSize), b1(TPosition::B1, aSize, bSize);
    LocalTensor<int8_t> a2(TPosition::A2, 0, aSize), b2(TPosition::B2, 0, bSize);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, uint32_t(mf * nf * 256));
    Nd2NzParams pa{1, uint16_t(m), uint16_t(k), 0, uint16_t(k), uint16_t(mf * 16), 1, 0};
    DataCopy(a1, ag, pa);
    Nd2NzParams pb{1, uint16_t(n), uint16_t(k), 0, uint16_t(k), uint16_t(nf * 16), 1, 0};
    DataCopy(b1, bg, pb);
    LoadData2DParams la;
    la.repeatTimes = uint8_t(kf), la.srcStride = uint16_t(mf);
    for (int i = 0; i < mf; ++i) LoadData(a2[uint32_t(i * kf * 512)], a1[uint32_t(i * 512)], la);
    LoadData2DParams lb;
    lb.repeatTimes = uint8_t(nf * kf), lb.srcStride = 1;
    LoadData(b2, b1, lb);
    MmadParams mp;
    mp.m = uint16_t(m), mp.n = uint16_t(n), mp.k = uint16_t(k);
    Mmad(c1, a2, b2, mp);
    FixpipeParamsV220 fp;
    fp.nSize = uint16_t(n), fp.mSize = uint16_t(m), fp.srcStride = uint16_t(mf * 16), fp.dstStride = uint32_t(n);
    Fixpipe(cg, c1, fp);
    put(c.data(), c.size());
    return 0;
}

// mmad_i8_kn M K N: as mmad_i8 but B is stored as it is multiplied (KxN) in GM: ND -> NZ in L1 (32-column
// blocks), then LoadDataWithTranspose turns each 32 x 32 block into two zN fractals of L0B.
static int mmad_i8_kn(int m, int k, int n) {
    auto up = [](int v, int a) { return (v + a - 1) / a * a; };
    const int8_t* ap = take<int8_t>(size_t(m) * k);
    const int8_t* bp = take<int8_t>(size_t(k) * n);
    std::vector<int8_t> a(ap, ap + size_t(m) * k), b(bp, bp + size_t(k) * n);
    std::vector<int32_t> c(size_t(m) * n, 0);
    ascgen::rt::gm_register(a.data(), a.size(), "a");
    ascgen::rt::gm_register(b.data(), b.size(), "b");
    ascgen::rt::gm_register(c.data(), c.size() * 4, "c");
    GlobalTensor<int8_t> ag, bg;
    GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(b.data(), b.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    const int mf = up(m, 16) / 16, nf = up(n, 16) / 16, kf = up(k, 32) / 32, nb = up(n, 32) / 32;
    const uint32_t aSize = uint32_t(mf * kf * 512), b1Size = uint32_t(kf * 32 * nb * 32);
    const uint32_t b2Size = uint32_t((nf * kf + 1) * 512);     // one fractal more: the last pair of an odd nf
    LocalTensor<int8_t> a1(TPosition::A1, 0, aSize), b1(TPosition::B1, aSize, b1Size);
    LocalTensor<int8_t> a2(TPosition::A2, 0, aSize), b2(TPosition::B2, 0, b2Size);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, uint32_t(mf * nf * 256));
    Nd2NzParams pa{1, uint16_t(m), uint16_t(k), 0, uint16_t(k), uint16_t(mf * 16), 1, 0};
    DataCopy(a1, ag, pa);
    Nd2NzParams pb{1, uint16_t(k), uint16_t(n), 0, uint16_t(n), uint16_t(kf * 32), 1, 0};
    DataCopy(b1, bg, pb);
    LoadData2DParams la;
    la.repeatTimes = uint8_t(kf), la.srcStride = uint16_t(mf);
    for (int i = 0; i < mf; ++i) LoadData(a2[uint32_t(i * kf * 512)], a1[uint32_t(i * 512)], la);
    for (int t = 0; t < kf; ++t) {
        LoadData2dTransposeParams lb(uint16_t(t), uint8_t(nb), uint16_t(kf), 1, 0);
        LoadDataWithTranspose(b2[uint32_t(t * nf * 512)], b1, lb);
    }
    MmadParams mp;
    mp.m = uint16_t(m), mp.n = uint16_t(n), mp.k = uint16_t(k);
    Mmad(c1, a2, b2, mp);
    FixpipeParamsV220 fp;
    fp.nSize = uint16_t(n), fp.mSize = uint16_t(m), fp.srcStride = uint16_t(mf * 16), fp.dstStride = uint32_t(n);
    Fixpipe(cg, c1, fp);
    put(c.data(), c.size());
    return 0;
}

int main(int argc, char** argv) {
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) g_in.insert(g_in.end(), buf, buf + got);
    std::string cmd = argc > 1 ? argv[1] : "";
    try {
        if (cmd == "widen") return widen();
        if (cmd == "nd2nz") return nd2nz(argv + 2);
        if (cmd == "mmad_i8") return mmad_i8(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]));
        if (cmd == "mmad_i8_kn") return mmad_i8_kn(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]));
        if (cmd == "gemv") return gemv(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]) != 0);
        if (cmd == "gemm") {
            std::string t = argv[2];
            int64_t m = std::atoll(argv[3]), n = std::atoll(argv[4]), k = std::atoll(argv[5]);
            bool init = std::atoi(argv[6]) != 0;
            if (t == "f16") return gemm<half, float>(m, n, k, init);
            if (t == "bf16") return gemm<bfloat16_t, float>(m, n, k, init);
            if (t == "i8") return gemm<int8_t, int32_t>(m, n, k, init);
            if (t == "f32") return gemm<float, float>(m, n, k, init);
        }
    } catch (ascgen::rt::Cancelled&) {
        return 3;
    }
    return 2;
}
'''

NATIVE = ("-march=native", "-ffp-contract=off")   # what ascgen.runtime.build adds for kernels on x86-64


@pytest.fixture(scope="module", params=["native", "baseline"])
def driver(request):
    """The driver built like a runtime kernel (-O2 -march=native -ffp-contract=off: AVX/FMA micro-kernel)
    and at the harness's baseline flags (SSE micro-kernel): both paths of gemm.h are checked."""
    if request.param == "native" and not ascgen_uses_native():
        pytest.skip("the runtime does not add -march=native on this machine")
    flags = ("-O2", *NATIVE) if request.param == "native" else ()
    exe = harness.build(f"cube_driver_{request.param}", DRIVER, flags=flags)

    def call(*args, data: bytes = b""):
        res = harness.run(exe, *args, stdin=data)
        assert res.returncode == 0, res.stderr.decode()
        return res.stdout
    return call


def ascgen_uses_native() -> bool:
    from ascgen.runtime import build
    return bool(build.native_flags())


def _float_sum_bound(a, b, terms: int):
    # A float32 sum of `terms` exact products, in any order, is within terms * 2^-24 * sum |a_i b_i| of
    # the exact value (the standard recursive-summation bound, with unit roundoff 2^-24).
    return terms * 2.0 ** -24 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))


SHAPES = [(16, 16, 16), (1, 16, 16), (7, 5, 3), (37, 53, 41), (64, 96, 128), (6, 16, 300), (130, 33, 17)]


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("init", [1, 0])
def test_gemm_half_is_bit_identical_to_the_naive_loop(driver, m, n, k, init):
    rng = np.random.default_rng(m * 7 + n * 3 + k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    out = np.frombuffer(driver("gemm", "f16", m, n, k, init, data=a.tobytes() + b.tobytes() + c0.tobytes()), np.uint8)
    new = out[:m * n * 4].view(np.float32).reshape(m, n)
    old = out[m * n * 4:2 * m * n * 4].view(np.float32).reshape(m, n)
    assert out[2 * m * n * 4:].view(np.int32)[0] == 0, "padding of L0C was overwritten"
    assert np.array_equal(new.view(np.uint32), old.view(np.uint32))
    exact = a.astype(np.float64) @ b.astype(np.float64) + (0 if init else c0)
    # init == 0 adds the old C once more: one more rounding of at most 2^-24 of the result.
    assert (np.abs(new - exact) <= _float_sum_bound(a, b, k) + 2.0 ** -23 * np.abs(exact)).all()


@pytest.mark.parametrize("m,n,k", [(16, 16, 32), (5, 40, 70), (33, 17, 100)])
def test_gemm_int8_is_exact(driver, m, n, k):
    rng = np.random.default_rng(k)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    c0 = rng.integers(-1000, 1000, (m, n), dtype=np.int32)
    out = np.frombuffer(driver("gemm", "i8", m, n, k, 0, data=a.tobytes() + b.tobytes() + c0.tobytes()), np.int32)
    new, old = out[:m * n].reshape(m, n), out[m * n:2 * m * n].reshape(m, n)
    assert out[-1] == 0
    ref = a.astype(np.int64) @ b.astype(np.int64) + c0
    assert np.array_equal(new, ref) and np.array_equal(old, ref)


@pytest.mark.parametrize("m,k,n", [(16, 32, 16), (20, 70, 35)])
def test_int8_cube_path_through_the_library_is_exact(m, k, n):
    exe = harness.build("cube_driver_baseline", DRIVER)
    rng = np.random.default_rng(m + k + n)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    bt = rng.integers(-128, 128, (n, k), dtype=np.int8)     # B transposed (N x K): its NZ copy is zN
    res = harness.run(exe, "mmad_i8", m, k, n, stdin=a.tobytes() + bt.tobytes())
    assert res.returncode == 0, res.stderr.decode()
    out = np.frombuffer(res.stdout, np.int32).reshape(m, n)
    assert np.array_equal(out, a.astype(np.int64) @ bt.T.astype(np.int64))


@pytest.mark.parametrize("m,k,n", [(16, 32, 32), (20, 96, 35), (17, 64, 80)])
def test_int8_with_b_as_k_by_n_through_load_data_with_transpose_is_exact(m, k, n):
    exe = harness.build("cube_driver_baseline", DRIVER)
    rng = np.random.default_rng(m * k + n)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)        # as multiplied: 32 x 32 blocks transposed to L0B
    res = harness.run(exe, "mmad_i8_kn", m, k, n, stdin=a.tobytes() + b.tobytes())
    assert res.returncode == 0, res.stderr.decode()
    out = np.frombuffer(res.stdout, np.int32).reshape(m, n)
    assert np.array_equal(out, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("m,n,k,init", [(21, 35, 77, 1), (1, 20, 13, 0), (33, 16, 8, 0)])
def test_gemm_float_within_the_float_sum_bound_and_padding_untouched(driver, m, n, k, init):
    # float in (the devkit backend's `mad`): 16 x 8 fractals, k ragged against C0 = 8; the padding of A and
    # B is NaN bytes, so reading past k or n would poison the sums.
    rng = np.random.default_rng(11)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    out = np.frombuffer(driver("gemm", "f32", m, n, k, init, data=a.tobytes() + b.tobytes() + c0.tobytes()), np.uint8)
    new = out[:m * n * 4].view(np.float32).reshape(m, n)
    changed = out[2 * m * n * 4:].view(np.int32)[0]
    exact = a.astype(np.float64) @ b.astype(np.float64) + (0 if init else c0.astype(np.float64))
    # A float product is not exact: one more rounding per term than the half bound, plus the final add.
    bound = 2 * _float_sum_bound(a, b, k) + 2.0 ** -23 * np.abs(exact)
    assert (np.abs(new - exact) <= bound).all()
    assert changed == 0


def test_gemm_bfloat16_within_the_float_sum_bound(driver):
    m, n, k = 21, 35, 77
    rng = np.random.default_rng(5)
    a = rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((k, n)).astype(ml_dtypes.bfloat16)
    c0 = np.zeros((m, n), np.float32)
    out = np.frombuffer(driver("gemm", "bf16", m, n, k, 1, data=a.tobytes() + b.tobytes() + c0.tobytes()), np.uint8)
    new = out[:m * n * 4].view(np.float32).reshape(m, n)
    old = out[m * n * 4:2 * m * n * 4].view(np.float32).reshape(m, n)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # Normal-range products are exact in float, so fused or not the sums match the naive loop bit for bit.
    assert np.array_equal(new.view(np.uint32), old.view(np.uint32))
    assert (np.abs(new - exact) <= _float_sum_bound(a, b, k)).all()


def test_vector_conversion_matches_the_scalar_one_for_every_bit_pattern(driver):
    bad = np.frombuffer(driver("widen"), np.int32)
    assert list(bad) == [0, 0], "blocks of 16 half / bfloat16 patterns converted differently"


@pytest.mark.parametrize("nd,rows,cols,src_mat,src_d,c0_stride,n_stride,dst_mat", [
    (1, 20, 40, 0, 40, 32, 1, 0),         # ragged: 40 columns = 2 whole 16-element pieces + 8
    (2, 5, 19, 120, 23, 8, 1, 600),       # two matrices, source rows wider than the copy
    (1, 6, 33, 0, 33, 3, 2, 0),           # dstNzNStride 2: every other 32-byte row
    (1, 4, 48, 0, 48, 0, 1, 0),           # dstNzC0Stride 0: pieces overlap, the last column block wins
])
def test_nd2nz_copy_matches_the_element_formula(nd, rows, cols, src_mat, src_d, c0_stride, n_stride, dst_mat):
    exe = harness.build("cube_driver_baseline", DRIVER)
    src_len = (nd - 1) * src_mat + (rows - 1) * src_d + cols
    dst_len = (nd - 1) * dst_mat + ((cols - 1) // 16) * c0_stride * 16 + (rows - 1) * n_stride * 16 + 16
    src = np.arange(src_len, dtype=np.float16)
    res = harness.run(exe, "nd2nz", nd, rows, cols, src_mat, src_d, c0_stride, n_stride, dst_mat, src_len, dst_len,
                      stdin=src.tobytes())
    assert res.returncode == 0, res.stderr.decode()
    expect = np.full(dst_len, -1.0, np.float16)
    for m in range(nd):                     # the documented element order: matrices, rows, columns
        for r in range(rows):
            for c in range(cols):
                expect[m * dst_mat + (c // 16) * c0_stride * 16 + r * n_stride * 16 + c % 16] = \
                    src[m * src_mat + r * src_d + c]
    assert np.array_equal(np.frombuffer(res.stdout, np.float16), expect)


@pytest.mark.parametrize("k,n", [(256, 32), (100, 20), (1000, 32)])
def test_gemv_mode_reads_l0a_as_one_row(k, n):
    # The wrong answer this catches: with m == 1 the old Mmad read A[0][t] at (t / 16) * 256 + t % 16 of a
    # 64 KB L0A, i.e. mostly the 2.0 filler, not the contiguous row the GEMV LoadData put there.
    exe = harness.build("cube_driver_baseline", DRIVER)
    rng = np.random.default_rng(k)
    a = rng.standard_normal(k).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)       # B transposed (N x K), as the example stores it
    res = harness.run(exe, "gemv", k, n, 0, stdin=a.tobytes() + bt.tobytes())
    assert res.returncode == 0, res.stderr.decode()
    out = np.frombuffer(res.stdout, np.float32)
    exact = a.astype(np.float64) @ bt.T.astype(np.float64)
    assert (np.abs(out - exact) <= _float_sum_bound(a[None, :], bt.T, k)[0]).all()


def test_gemv_can_be_disabled_on_3510():
    k, n = 100, 20
    exe = harness.build("cube_driver_3510", DRIVER, arch=3510)
    rng = np.random.default_rng(3)
    a = rng.standard_normal(k).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    exact = a.astype(np.float64) @ bt.T.astype(np.float64)
    for fractal in (0, 1):     # GEMV on (contiguous row) and off (A padded to a 16-row fractal)
        res = harness.run(exe, "gemv", k, n, fractal, stdin=a.tobytes() + bt.tobytes())
        assert res.returncode == 0, res.stderr.decode()
        out = np.frombuffer(res.stdout, np.float32)
        assert (np.abs(out - exact) <= _float_sum_bound(a[None, :], bt.T, k)[0]).all()


def test_gemv_is_refused_by_name_where_not_emulated():
    exe = harness.build("cube_driver_2002", DRIVER, arch=2002)
    k, n = 64, 16
    res = harness.run(exe, "gemv", k, n, 1, stdin=bytes(2 * k + 2 * k * n))
    assert res.returncode == 3, res.stderr.decode()
    err = res.stderr.decode()
    assert "kind=5" in err and "GEMV mode" in err and "m == 1" in err


def test_gemm_header_is_warning_free_on_its_own():
    for flags in ((), ("-O2", *NATIVE)):
        res = harness.syntax_check('#include "ascgen/gemm.h"\n'
                                   'void f(float* c, const half* a, const half* b, int8_t* x, int32_t* y) {\n'
                                   '  ascgen::gemm::mmad(c, a, b, 3, 4, 5, true, false);\n'
                                   '  ascgen::gemm::mmad(y, x, x, 3, 4, 5, false, false);\n}\n',
                                   flags=("-Wextra", "-Werror", *flags))
        assert res.returncode == 0, res.stderr


# ---- the benchmark's hand-written cube kernel, through the real runtime ------------------------------

def test_bench_cube_kernel_matches_numpy_with_ragged_tiles():
    from ascgen.runtime import load
    mod = load(REPO / "benchmarks" / "kernels" / "matmul_cube.cpp", "ascend910b")
    m, n, k = 64, 96, 128
    bm, bn, bk = 48, 80, 48          # edges: m 48 + 16, n 80 + 16, k 48 + 48 + 32
    rng = np.random.default_rng(11)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float32)
    mod.launch("matmul_cube", 3, a, b, c, m, n, k, bm, bn, bk)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # Each K step sums in float and L0C adds the steps: still one float sum of k products.
    assert (np.abs(c - exact) <= _float_sum_bound(a, b, k)).all()
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)


# ---- the asc-devkit GEMV example, unchanged, with its own gen_data.py / verify_result.py -----------------

def test_devkit_mmad_gemv_example_matches_its_golden(tmp_path):
    # Before GEMV mode was emulated this example stopped with "Mmad writes 8192 bytes of a (L0A), which
    # has 512 bytes": its L0A holds the 1 x 256 row, not 16 rows. The same steps as the other examples.
    from tests.library import test_examples
    case = ("examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_gemv", None)
    test_examples.test_example_runs_and_matches_its_golden(case, tmp_path)
