"""The operator repositories' kernel-side tiling conventions on the devkit backend (docs/op-conventions.md):
the GET_TILING_DATA* family, REGISTER_TILING_DEFAULT, TILING_KEY_IS / TILING_KEY_LIST dispatch with the
launch's tiling key (Python `tiling_key=` and a host program's ICPU_SET_TILING_KEY), each on a small kernel
checked against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.commands import run as run_cmd
from ascgen.errors import KernelMemoryError
from ascgen.runtime.loader import load
from tests import devkit_tree

# One kernel per macro family. The tiling struct holds a scale and a bias; TILING_KEY_IS picks the formula.
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

struct OpTiling {
    uint32_t n;
    float scale;
    float bias;
    uint32_t pad;
};

// out = x * scale (key 1), x + bias (key 2), x * scale + bias (keys 3 or 4: TILING_KEY_LIST)
__aicore__ inline void Compute(GM_ADDR x, GM_ADDR out, float scale, float bias, uint32_t n) {
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    og.SetGlobalBuffer((__gm__ float*)out, n);
    for (uint32_t i = 0; i < n; i++) {
        float v = xg.GetValue(i);
        if (TILING_KEY_IS(1)) {
            v = v * scale;
        } else if (TILING_KEY_IS(2)) {
            v = v + bias;
        } else if (TILING_KEY_LIST(3, 4)) {
            v = v * scale + bias;
        } else {
            v = -1.0f;
        }
        og.SetValue(i, v);
    }
}

extern "C" __global__ __aicore__ void by_default(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(OpTiling);
    GET_TILING_DATA(t, tiling);
    Compute(x, out, t.scale, t.bias, t.n);
}

extern "C" __global__ __aicore__ void with_struct(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(OpTiling, t, tiling);
    Compute(x, out, t.scale, t.bias, t.n);
}

extern "C" __global__ __aicore__ void by_pointer(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_PTR_WITH_STRUCT(OpTiling, t, tiling);
    Compute(x, out, t->scale, t->bias, t->n);
}

extern "C" __global__ __aicore__ void by_member(GM_ADDR x, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_MEMBER(OpTiling, scale, scale, tiling);
    GET_TILING_DATA_MEMBER(OpTiling, bias, bias, tiling);
    GET_TILING_DATA_MEMBER_ADDR(OpTiling, n, n, tiling);
    Compute(x, out, scale, bias, *n);
}
"""

N = 40


def _tiling(n=N, scale=3.0, bias=0.5) -> np.ndarray:
    t = np.zeros(16, np.uint8)
    t[0:4] = np.frombuffer(np.uint32(n).tobytes(), np.uint8)
    t[4:8] = np.frombuffer(np.float32(scale).tobytes(), np.uint8)
    t[8:12] = np.frombuffer(np.float32(bias).tobytes(), np.uint8)
    return t


@pytest.fixture(scope="module")
def module():
    devkit_tree.require()
    return load(KERNEL, "ascend910b", backend="devkit", filename="op_conventions.cpp")


@pytest.mark.parametrize("kernel", ["by_default", "with_struct", "by_pointer", "by_member"])
@pytest.mark.parametrize("key", [1, 2, 3, 4, 9])
def test_each_tiling_macro_reads_the_struct_and_tiling_key_is_picks_the_branch(module, kernel, key):
    x = np.linspace(-2, 2, N, dtype=np.float32)
    out = np.zeros(N, np.float32)
    module.launch(kernel, 2, x, out, _tiling(), tiling_key=key)
    want = {1: x * 3.0, 2: x + 0.5, 3: x * 3.0 + 0.5, 4: x * 3.0 + 0.5}.get(key, np.full(N, -1.0, np.float32))
    np.testing.assert_array_equal(out, want.astype(np.float32))


def test_a_tiling_argument_too_short_for_the_struct_is_a_memory_error_at_the_macro(module):
    x = np.ones(N, np.float32)
    with pytest.raises(KernelMemoryError, match="op_conventions.cpp"):
        module.launch("with_struct", 1, x, np.zeros(N, np.float32), np.zeros(8, np.uint8), tiling_key=1)


# A host program in the CPU-debug style of the operator repositories' kernel UTs.
PROGRAM = KERNEL + r"""
#include "tikicpulib.h"
#include <cstdio>
int main() {
    const uint32_t n = 8;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* out = (float*)AscendC::GmAlloc(n * sizeof(float));
    OpTiling* t = (OpTiling*)AscendC::GmAlloc(sizeof(OpTiling));
    for (uint32_t i = 0; i < n; i++) x[i] = float(i);
    t->n = n; t->scale = 2.0f; t->bias = 100.0f;
    for (uint64_t key : {2, 1}) {
        ICPU_SET_TILING_KEY(key);
        ICPU_RUN_KF(with_struct, 2, (GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)t);
        std::printf("key %llu:", (unsigned long long)key);
        for (uint32_t i = 0; i < n; i++) std::printf(" %g", out[i]);
        std::printf("\n");
    }
    AscendC::GmFree(x); AscendC::GmFree(out); AscendC::GmFree(t);
    return 0;
}
"""


def test_icpu_set_tiling_key_selects_the_branch_of_each_icpu_run_kf(tmp_path, capfd):
    devkit_tree.require()
    src = tmp_path / "icpu_key.cpp"
    src.write_text(PROGRAM)
    program = run_cmd.load_program(src, "ascend910b", backend="devkit")
    assert run_cmd.run_program(program) == 0
    out = capfd.readouterr().out
    assert "key 2: 100 101 102 103 104 105 106 107" in out
    assert "key 1: 0 2 4 6 8 10 12 14" in out
