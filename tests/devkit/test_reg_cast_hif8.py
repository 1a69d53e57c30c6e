"""dav_3510 vcvt to and from hifloat8 (dav3510/vconv.h, the element rule in ascgen_devkit/hif8.h) through
the library's Reg::Cast, in the forms it has: float -> hifloat8 (4x narrowing, the result at lane 4i +
RegLayout), half -> hifloat8 (2x, lane 2i + RegLayout), both in ROUND A (CAST_ROUND), saturating or not, and
hifloat8 -> float / half (widening from the same lanes), and the scalar type's constructor. ROUND H
(CAST_HYBRID) builds and stops the kernel with a named fault. Before, ops-nn grouped_dynamic_block_quant
stopped at `missing intrinsic vcvt (RegTensor<hifloat8_t>, RegTensor<float>, ..., ROUND=1 ...)`.

The reference is en_dtypes' numpy `hifloat8` (the package the CANN repositories' goldens use; a test-only
dependency, the `test` extra): its astype is ROUND A without saturation; with saturation the values are first
clipped to +-2^15 and NaN made 0, as the goldens do and as the vector unit's saturation rule says."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import KernelAssertError
from tests.devkit import shared_module

en_dtypes = pytest.importorskip("en_dtypes", reason="en-dtypes (the `test` extra) is the hifloat8 reference")
HIF8 = en_dtypes.hifloat8
TOP = 32768.0                                 # 2^15, the largest finite hifloat8
TILE = 8192                                   # bytes per tile; every kernel reads and writes as many bytes
LAYOUTS = ("ZERO", "ONE", "TWO", "THREE")

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <Reg::RegLayout L, Reg::SatMode S, RoundMode R>
constexpr Reg::CastTrait kTrait = {L, S, Reg::MaskMergeMode::ZEROING, R};
constexpr uint32_t kTile = %(tile)d;

// Narrowing: each 256-byte register of S becomes 256 bytes of hifloat8 lanes (the result at lane r * i + L).
template <typename S, RoundMode R, Reg::SatMode T, Reg::RegLayout L>
__simd_vf__ inline void ToHif8(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t regs)
{
    Reg::RegTensor<S> a;
    Reg::RegTensor<hifloat8_t> b;
    Reg::MaskReg m = Reg::CreateMask<S, Reg::MaskPattern::ALL>();
    Reg::MaskReg all = Reg::CreateMask<uint8_t, Reg::MaskPattern::ALL>();
    for (uint16_t k = 0; k < regs; ++k) {
        Reg::LoadAlign(a, (__ubuf__ S*)(x + 256 * k));
        Reg::Cast<hifloat8_t, S, kTrait<L, T, R>>(b, a, m);
        Reg::StoreAlign(y + 256 * k, (Reg::RegTensor<uint8_t>&)b, all);
    }
}

// Widening: lane i of D from hifloat8 lane r * i + L.
template <typename D, Reg::RegLayout L>
__simd_vf__ inline void FromHif8(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t regs)
{
    Reg::RegTensor<uint8_t> a;
    Reg::RegTensor<D> b;
    Reg::MaskReg m = Reg::CreateMask<D, Reg::MaskPattern::ALL>();
    for (uint16_t k = 0; k < regs; ++k) {
        Reg::LoadAlign(a, x + 256 * k);
        Reg::Cast<D, hifloat8_t, kTrait<L, Reg::SatMode::UNKNOWN, RoundMode::UNKNOWN>>(b, (Reg::RegTensor<hifloat8_t>&)a, m);
        Reg::StoreAlign((__ubuf__ D*)(y + 256 * k), b, m);
    }
}

// A scalar conversion: the storage type's constructor (en_dtypes' astype: ties away, not saturating)
__simd_vf__ inline void Scalar(__ubuf__ uint8_t* x, __ubuf__ uint8_t* y, uint32_t regs)
{
    for (uint32_t i = 0; i < regs * 64; ++i) ((__ubuf__ hifloat8_t*)y)[i] = hifloat8_t(((__ubuf__ float*)x)[i]);
    for (uint32_t i = regs * 64; i < regs * 256; ++i) y[i] = 0;
}

// `bytes` of x through VF into y, a tile at a time.
template <auto VF>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t bytes) {
    GlobalTensor<uint8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint8_t*)x, bytes);
    yg.SetGlobalBuffer((__gm__ uint8_t*)y, bytes);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile);
    LocalTensor<uint8_t> xl = buf.Get<uint8_t>(), yl = xl[kTile];
    for (uint32_t at = 0; at < bytes; at += kTile) {
        DataCopy(xl, xg[at], kTile);
        PipeBarrier<PIPE_ALL>();
        asc_vf_call<VF>((__ubuf__ uint8_t*)xl.GetPhyAddr(), (__ubuf__ uint8_t*)yl.GetPhyAddr(), kTile / 256);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg[at], yl, kTile);
        PipeBarrier<PIPE_ALL>();
    }
}
""" % {"tile": TILE}


def _to_name(src: str, sat: bool, layout: int, mode: str = "A") -> str:
    return f"{src}_to_hif8_{mode}_{'sat' if sat else 'nosat'}_{layout}"


TO_HIF8 = [("float", False, 0), ("float", True, 1), ("float", False, 2), ("float", True, 3),
           ("half", False, 0), ("half", True, 1)]
FROM_HIF8 = [("float", 0), ("float", 3), ("half", 0), ("half", 1)]
KERNEL += "".join(
    f'extern "C" __global__ __aicore__ void {_to_name(src, sat, layout)}(GM_ADDR x, GM_ADDR y, uint32_t n) '
    f'{{ Run<ToHif8<{src}, RoundMode::CAST_ROUND, Reg::SatMode::{"SAT" if sat else "NO_SAT"}, '
    f'Reg::RegLayout::{LAYOUTS[layout]}>>(x, y, n); }}\n' for src, sat, layout in TO_HIF8)
KERNEL += "".join(
    f'extern "C" __global__ __aicore__ void hif8_to_{dst}_{layout}(GM_ADDR x, GM_ADDR y, uint32_t n) '
    f'{{ Run<FromHif8<{dst}, Reg::RegLayout::{LAYOUTS[layout]}>>(x, y, n); }}\n' for dst, layout in FROM_HIF8)
KERNEL += (f'extern "C" __global__ __aicore__ void {_to_name("float", True, 0, "H")}(GM_ADDR x, GM_ADDR y, uint32_t n) '
           '{ Run<ToHif8<float, RoundMode::CAST_HYBRID, Reg::SatMode::SAT, Reg::RegLayout::ZERO>>(x, y, n); }\n')

KERNEL += 'extern "C" __global__ __aicore__ void scalar_hif8(GM_ADDR x, GM_ADDR y, uint32_t n) { Run<Scalar>(x, y, n); }\n'

kernels = shared_module.register(KERNEL, "ascend950")


def _launch(kernel: str, x: np.ndarray) -> np.ndarray:
    data = x.view(np.uint8)
    assert data.size % TILE == 0
    y = np.full(data.size, 0x5A, np.uint8)                        # every byte written by the kernel
    kernels().launch(kernel, 1, data, y, np.uint32(data.size))
    return y


def _grid() -> np.ndarray:
    """Every finite positive hifloat8 value, ascending."""
    values = np.arange(256, dtype=np.uint8).view(HIF8).astype(np.float64)
    return np.unique(values[np.isfinite(values) & (values > 0)])


def _floats() -> np.ndarray:
    """float32 values at the rule's edges, both signs: every grid value, every midpoint between neighbours
    (the ties) and the floats either side of it, the midpoint below 2^-22 and past 2^15, float subnormals, the
    specials; then random magnitudes over the whole range and beyond. A multiple of the tile."""
    grid = _grid()
    mids = np.concatenate([[grid[0] / 2], (grid[1:] + grid[:-1]) / 2, [1.25 * TOP]]).astype(np.float32)
    edges = np.concatenate([grid.astype(np.float32), mids, np.nextafter(mids, np.float32(0)),
                            np.nextafter(mids, np.float32(np.inf)), np.float32(grid[0] / 4) * np.arange(1, 4),
                            [1.5 * TOP, 2 * TOP, 1e38, np.float32(1e-45), np.float32(1e-40), 2.0 ** -126]])
    edges = np.concatenate([edges, -edges, [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan]]).astype(np.float32)
    rng = np.random.default_rng(19)
    count = -(-edges.size * 4 // TILE) * TILE // 4 + TILE // 4
    random = rng.choice([-1, 1], count) * np.exp2(rng.uniform(-26, 17, count))
    x = random.astype(np.float32)
    x[:edges.size] = edges
    return x


def _reference(x: np.ndarray, sat: bool) -> np.ndarray:
    if sat:
        x = np.nan_to_num(np.clip(x, -TOP, TOP), nan=0.0)
    with np.errstate(invalid="ignore"):                           # NaN and inf inputs are meant
        return x.astype(HIF8).view(np.uint8)


def _spread(codes: np.ndarray, ratio: int, layout: int) -> np.ndarray:
    want = np.zeros(codes.size * ratio, np.uint8)                 # the other lanes of each group: zero
    want[ratio * np.arange(codes.size) + layout] = codes
    return want


@pytest.mark.parametrize("src, sat, layout", TO_HIF8, ids=[_to_name(*c) for c in TO_HIF8])
def test_to_hifloat8_rounds_ties_away_and_saturates_as_asked(src, sat, layout):
    if src == "float":
        x = _floats()
    else:                                                         # every half bit pattern
        x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    ratio = x.itemsize                                            # 4x from float, 2x from half
    y = _launch(_to_name(src, sat, layout), x)
    want = _spread(_reference(x, sat), ratio, layout)
    bad = np.flatnonzero(y != want)
    assert not bad.size, (f"{bad.size} wrong bytes; first: input {x[bad[0] // ratio]!r} gave "
                          f"{y[bad[0]]:#04x}, en_dtypes {want[bad[0]]:#04x}")


@pytest.mark.parametrize("dst, layout", FROM_HIF8, ids=[f"{d}_{lay}" for d, lay in FROM_HIF8])
def test_hifloat8_widens_exactly(dst, layout):
    codes = np.tile(np.arange(256, dtype=np.uint8), TILE // 256)
    dtype = np.float32 if dst == "float" else np.float16
    ratio = np.dtype(dtype).itemsize
    y = _launch(f"hif8_to_{dst}_{layout}", codes).view(dtype)
    want = codes[ratio * np.arange(y.size) + layout].view(HIF8).astype(dtype)
    np.testing.assert_array_equal(y, want)                        # NaN where NaN, every value bit-exact


def test_hybrid_rounding_is_a_named_fault():
    with pytest.raises(KernelAssertError, match="hifloat8 in ROUND H"):
        _launch(_to_name("float", True, 0, "H"), np.ones(TILE // 4, np.float32))


def test_scalar_conversion_is_en_dtypes_astype():
    x = _floats()
    y = _launch("scalar_hif8", x).reshape(-1, TILE)               # per tile: a quarter of its bytes are results
    want = _reference(x, False).reshape(-1, TILE // 4)
    np.testing.assert_array_equal(y[:, :TILE // 4], want)
