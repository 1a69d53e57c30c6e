"""dav_3510 vmula and vmadd (dav3510/valu.h) through the library's Reg::MulAddDst (dst = dst + src0 * src1)
and Reg::MulDstAdd (dst = dst * src0 + src1) on the active lanes, the rest zero (ZEROING, the only mode the
library allows). Integer lanes wrap, checked bit-exact against numpy. Float lanes are fused (one rounding,
elementwise.h says why), checked bit-exact against the exact rational value rounded once to the lane's type,
on data where a rounded product gives another answer."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from tests import devkit_tree
from tests.devkit import reg_harness, shared_module

# One source for every form: template argument MADD picks MulDstAdd (dst * src0 + src1) over MulAddDst.
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, bool MADD>
__simd_vf__ inline void Mula(__ubuf__ T* d, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
{
    Reg::RegTensor<T> rd, ra, rb;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(rd, d);
    Reg::LoadAlign(ra, a);
    Reg::LoadAlign(rb, b);
    if constexpr (MADD) Reg::MulDstAdd(rd, ra, rb, m); else Reg::MulAddDst(rd, ra, rb, m);
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::StoreAlign(d, rd, all);
}

""" + reg_harness.binary_run("Mula<T, MADD>", "typename T, bool MADD = false") + """
extern "C" __global__ __aicore__ void mula_i32(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<int32_t>(d, a, b, 50); }
extern "C" __global__ __aicore__ void mula_u16(GM_ADDR d, GM_ADDR a, GM_ADDR b) { Run<uint16_t>(d, a, b, 100); }
""" + "".join(
    f'extern "C" __global__ __aicore__ void {op}_{name}(GM_ADDR d, GM_ADDR a, GM_ADDR b) '
    f'{{ Run<{ctype}, {madd}>(d, a, b, 256 / sizeof({ctype}) - 3); }}\n'
    for op, madd in (("mula", "false"), ("madd", "true"))
    for name, ctype in (("f32", "float"), ("f16", "half"), ("bf16", "bfloat16_t")))

FLOATS = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}
_BITS = {2: np.uint16, 4: np.uint32}

kernels = shared_module.register(KERNEL, "ascend950")


def _round_once(exact: Fraction, dtype: np.dtype):
    """`exact` rounded to nearest even in dtype: float(exact) in dtype and its two neighbours (one step of
    the bits either way: sign-magnitude, so one is nearer zero, one farther), the nearest picked exactly."""
    uint = _BITS[dtype.itemsize]
    near = int(np.array([float(exact)]).astype(dtype).view(uint)[0])
    cands = [np.array([b], uint).view(dtype) for b in (near - 1, near, near + 1) if 0 <= b < 1 << (8 * dtype.itemsize)]
    cands = [c for c in cands if np.isfinite(c.astype(np.float64)[0])]
    return min(cands, key=lambda c: (abs(Fraction(float(c.astype(np.float64)[0])) - exact),
                                     int(c.view(uint)[0]) & 1))[0]


def _fused_case(dtype: np.dtype, rng, madd: bool):
    """(d, a, b) with random lanes and 8 lanes built so that a rounded product changes the answer: the
    product is (1 + ku)^2 = 1 + 2ku + k^2 u^2 with k^2 u^2 below the type's precision, and the addend
    -(1 + 2ku) cancels the rest (MulAddDst: a * b + d; MulDstAdd: d * a + b)."""
    n = 256 // dtype.itemsize
    d, a, b = (rng.uniform(-4, 4, n).astype(dtype) for _ in range(3))
    u = {2: 2.0 ** -6, 4: 2.0 ** -13}[dtype.itemsize] if dtype != FLOATS["bf16"] else 2.0 ** -4
    for i in range(8):
        k = 2 * i + 1                                   # odd: k^2 u^2 has a bit below the product's ulp
        one_plus_u = np.float64(1 + u * k).astype(dtype)
        addend = np.float64(-(1 + 2 * u * k)).astype(dtype)
        if madd:
            d[i], a[i], b[i] = one_plus_u, one_plus_u, addend
        else:
            d[i], a[i], b[i] = addend, one_plus_u, one_plus_u
    return d, a, b


@pytest.mark.parametrize("madd", [False, True], ids=["MulAddDst", "MulDstAdd"])
@pytest.mark.parametrize("name", list(FLOATS))
def test_float_forms_round_once(name, madd):
    devkit_tree.require()
    dtype = FLOATS[name]
    d, a, b = _fused_case(dtype, np.random.default_rng(11), madd)
    n, count = d.size, d.size - 3
    fr = [[Fraction(float(v)) for v in x.astype(np.float64)] for x in (d, a, b)]
    want = np.zeros(n, dtype)
    for i in range(count):
        dd, aa, bb = fr[0][i], fr[1][i], fr[2][i]
        want[i] = _round_once(dd * aa + bb if madd else dd + aa * bb, dtype)
    # The planted lanes tell a fused op from a rounded product: they must differ between the two.
    x, y, z = (d, a, b) if madd else (a, b, d)
    product = (x[:8].astype(np.float64) * y[:8].astype(np.float64)).astype(dtype).astype(np.float64)
    unfused = (product + z[:8].astype(np.float64)).astype(dtype)
    assert (unfused.view(_BITS[dtype.itemsize]) != want[:8].view(_BITS[dtype.itemsize])).all()
    out = d.copy()
    kernel = f"{'madd' if madd else 'mula'}_{name}"
    kernels().launch(kernel, 1, out, a, b)
    np.testing.assert_array_equal(out.view(_BITS[dtype.itemsize]), want.view(_BITS[dtype.itemsize]))


@pytest.mark.parametrize("kernel,dtype,count", [("mula_i32", np.int32, 50), ("mula_u16", np.uint16, 100)])
def test_integer_mula_accumulates_wrapping_and_zeroes_inactive_lanes(kernel, dtype, count):
    devkit_tree.require()
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    n = 256 // np.dtype(dtype).itemsize
    d, a, b = (rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) for _ in range(3))
    want = ((d.astype(np.uint64) + a.astype(np.uint64) * b.astype(np.uint64)) % (1 << (8 * d.itemsize)))
    want = want.astype(np.dtype(dtype).str.replace("i", "u")).view(dtype)
    want[count:] = 0
    out = d.copy()
    kernels().launch(kernel, 1, out, a, b)
    np.testing.assert_array_equal(out, want)
