"""Production operators run end to end from Python: `ascgen.ops.load(OP_DIR)(*arrays)` runs the op's host
tiling unchanged, then its kernel on the devkit backend with the key, block dim, workspace and tiling data
it produced (ascgen/ops/kernel.py), against numpy references (tests/ops/cases.py; the full sweep over every
case, product and shape is benchmarks/bench_ops.py)."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen import ops
from ascgen.errors import SpecError
from ascgen.ops import host_build, kernel
from tests.ops.cases import CASES, mismatches
from tests.op_copies import edit, edited_copy
from tests.ops.test_host_tiling import _cann

BY_NAME = {c.name: c for c in CASES}


def _run(name, product, shape, op_dir=None):
    case = BY_NAME[name]
    rng = np.random.default_rng(7)
    ins = case.make(shape, np.dtype(case.dtype) if case.dtype != "bfloat16" else np.dtype("bfloat16"), rng)
    got = ops.load(op_dir or _cann() / case.op, product=product)(*ins, outputs=case.outputs(ins), **case.attrs)
    got = got if isinstance(got, tuple) else (got,)
    return [mismatches(g, r) for g, r in zip(got, case.expected(ins, product))]


# add_rms_norm: a MIX of its tiling keys' classes; (37, 1281) is ragged on every axis (37 rows over 40 cores
# of 48, 1281 columns: not a multiple of the 16-element block).
@pytest.mark.parametrize("shape", [(8, 256), (37, 1281)])
def test_add_rms_norm_matches_numpy(shape):
    assert all(bad == 0 for bad, _ in _run("add_rms_norm-float16", "ascend910b", shape))


def test_add_rms_norm_on_ascend950_normalizes_the_float_sum():
    # The regbase kernel (add_rms_norm_apt.cpp) accumulates the squares with Reg::MulAddDst, a fused vmula
    # (elementwise.h), and normalizes x1 + x2 before rounding it: its bfloat16 rstd is 4e-4 away from the
    # rounded sum's, which the ascend910b kernel normalizes (the repository's golden has both: cases.py).
    assert all(bad == 0 for bad, _ in _run("add_rms_norm-bfloat16", "ascend950", (8, 256)))


def test_a_template_kernel_decodes_its_key_with_the_declaration_it_includes():
    # ops-math is_finite keeps two ASCENDC_TPL_ARGS_DECL headers: op_kernel/is_finite_struct.h (what the
    # ascend910b kernel includes) and op_kernel/arch35/is_finite_struct_arch35.h (ascend950's). Taking the
    # first header of the folder by name decoded 910b's key 2580 with the 950 arguments (a refusal here; with
    # other widths, a wrong instance). The declaration is the one the source includes.
    assert _run("is_finite-float16", "ascend910b", (37, 129)) == [(0, 0.0)]


def test_each_tiling_key_is_its_own_binary_as_the_op_compiler_builds_it():
    # The op compiler builds one binary per key with -DTILING_KEY_VAR=<key>, so `#if TILING_KEY_VAR == k`
    # (ops-nn quant_matmul_reduce_sum, ops-math top_k_v2) selects code per key. Compiled once for every key,
    # TILING_KEY_VAR was g_tilingKey, which `#if` reads as 0: this copy of rms_norm, whose body only key 2's
    # binary keeps, returned at once and left its outputs poisoned.
    case = BY_NAME["rms_norm-float16"]
    x, gamma = np.ones((8, 256), np.float16), np.ones(256, np.float16)
    key = ops.load(_cann() / case.op, product="ascend910b").tiling(
        x, gamma, outputs=case.outputs([x, gamma]), **case.attrs).tiling_key
    source = (_cann() / case.op / "op_kernel" / "rms_norm.cpp").read_text()
    guard = f"#if TILING_KEY_VAR != {key}\n    return;     // only key {key}'s binary computes\n#endif\n"
    copy = edited_copy(_cann() / case.op, {"rms_norm.cpp": edit(source, "    GM_ADDR usrWorkspace =",
                                                                 guard + "    GM_ADDR usrWorkspace =")})
    assert key == 2 and [bad for bad, _ in _run("rms_norm-float16", "ascend910b", (8, 256), copy)] == [0, 0]


def test_is_inf_tail_tile_reads_the_allocation_slack_as_on_the_device():
    # 37 x 129 half values: the last core copies its tail with a 32-byte-aligned DataCopy, 22 bytes past the
    # tensor's end, into the slack aclrtMalloc adds (kernel.ALLOC_ALIGN); with exact-size buffers this was
    # a memory error for a kernel that is correct on the device.
    assert _run("is_inf-float16", "ascend910b", (37, 129)) == [(0, 0.0)]


def test_device_buffer_is_aclrtmalloc_sized_and_poisoned():
    buffer, view = kernel.device_buffer((3, 5), np.float16, data=np.ones((3, 5), np.float16))
    assert buffer.nbytes == 32 + 32 and view.shape == (3, 5) and (view == 1).all()
    assert np.isnan(buffer[15:]).all()          # the slack: 0xFFFF, a NaN half
    assert kernel.device_buffer((8,), np.float32)[0].nbytes == 64
    assert np.isnan(kernel.device_buffer((2,), np.float32)[1]).all()


def test_mismatches_counts_an_unwritten_element():
    ref = np.zeros(4)
    got = np.array([0, 0, np.nan, 0], np.float16)
    assert mismatches(got, ref)[0] == 1


def test_inputs_must_be_arrays():
    op = ops.load(_cann() / "ops-nn/norm/add_rms_norm", product="ascend910b")
    with pytest.raises(SpecError, match=r"input 1 \(x2\): give a numpy array"):
        op(np.zeros((2, 16), np.float16), ((2, 16), "float16"), np.zeros(16, np.float16),
           outputs=[((2, 16), "float16"), ((2, 1), "float32"), ((2, 16), "float16")])


def test_kernel_source_of_a_product_is_the_op_builds():
    root = _cann()
    from ascgen import products
    assert kernel.kernel_source(root / "ops-nn/norm/add_rms_norm", products.get("ascend950")).name == \
        "add_rms_norm_apt.cpp"              # opFile.value of the ascend950 config
    assert kernel.kernel_source(root / "ops-math/math/add", products.get("ascend950")).as_posix().endswith(
        "op_kernel/arch35/add.cpp")         # add_kernel_sources(KERNEL_SRC arch35/add.cpp COMPUTE_UNITS ascend950)
    assert kernel.kernel_source(root / "ops-nn/vfusion/modulate", products.get("ascend950")).as_posix().endswith(
        "op_kernel/arch35/modulate.cpp")    # the same entry in op_kernel/CMakeLists.txt (found by the key coverage)
    assert kernel.kernel_source(root / "ops-nn/vfusion/modulate", products.get("ascend910b")).name == "modulate.cpp"
    assert host_build.dependencies(root / "ops-nn/norm/add_rms_norm") == ("norm_common", "rms_norm")


def test_an_output_the_kernel_never_writes_is_reported_not_returned_silently():
    # ops-nn squared_relu's kernel body is under `#if __CCE_AICORE__ == 220 || ... == 310`; built with another
    # value (350, as two of the repository's UTs pass) the body is compiled out and the output keeps its
    # allocation poison: a warning naming the output and the cause, not a quiet NaN array.
    op = ops.load(_cann() / "ops-nn/activation/squared_relu", product="ascend950", defines={"__CCE_AICORE__": 350})
    x = np.ones((8, 256), np.float16)
    with pytest.warns(kernel.UnwrittenOutput, match=r"wrote no element of output 0 \(output\).*"
                                                    r"__CCE_AICORE__=350 \(ascend950, set by the load's defines\)"):
        y = op(x, outputs=[(x.shape, "float16")])
    assert np.isnan(y).all()


def test_squared_relu_runs_on_ascend950_with_the_product_s_cce_aicore():
    # The same kernel with the product table's __CCE_AICORE__ (310 on ascend950, products.py says why).
    assert all(bad == 0 for bad, _ in _run("squared_relu-float16", "ascend950", (8, 256)))


@pytest.mark.slow      # ascend950 ops run in this file's squared_relu and add_rms_norm cases; bench_ops.py runs add
def test_add_with_a_broadcast_operand_runs_on_ascend950():
    # ops-math add's arch35 kernel (opbase's atvoss broadcast schedule) declares its tiling pointer with
    # __tiling_data_ptr__ and broadcasts x2 (1, 129) through the library's Broadcast, whose register gathers
    # (vgatherb, vgather2) the dav_3510 model lacked; the sum is numpy's float16 add, bit for bit.
    assert _run("add-float16", "ascend950", (37, 129)) == [(0, 0.0)]
