"""Builder SuperKernels of 2-D and Matmul kernels: matmul -> softmax -> matmul runs as one SuperKernel on
the emulator, equal to the tasks' references chained in numpy, with no race, under both placements; the
buffers' shapes follow the tasks' dims; mixing 1-D and 2-D tasks or binding mismatched shapes is an error."""
import warnings

import numpy as np
import pytest

from ascgen.builder import Cast, Exp, Kernel, Matmul, ReduceMax, ReduceSum
from ascgen.codegen.superkernel import SuperKernel
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from ascgen.errors import SpecError

PRODUCT = "ascend910_93"


def _matmul(name: str, a: str, b: str, out: str, k_name: str, n_name: str) -> Kernel:
    k = Kernel(name, block_dim=2)
    kd = k.dim(k_name, multiple_of=16)
    x = k.input(a, "float16", shape=("M", kd))
    w = k.input(b, "float16", shape=(kd, n_name))
    k.output(out, Cast(Matmul(x, w, tile=(32, 32, 32)), "float16"))
    return k


def _softmax() -> Kernel:
    k = Kernel("sk_softmax", block_dim=4, tile_length=1024)
    x = Cast(k.input("h", "float16", shape=("rows", "cols")), "float32")
    e = Exp(x - ReduceMax(x))
    k.output("p", Cast(e / ReduceSum(e), "float16"))
    return k


def _attention(placement="dataflow") -> SuperKernel:
    sk = SuperKernel("mm_softmax_mm", PRODUCT, placement=placement)
    sk.add(_matmul("sk_mm1", "q", "kt", "h", "D", "S"), workspace="ws1")
    sk.add(_softmax())
    sk.add(_matmul("sk_mm2", "p", "v", "out", "S", "E"), workspace="ws2")
    return sk


@pytest.mark.parametrize("placement", ["dataflow", "default"])
def test_matmul_softmax_matmul_runs_as_one_superkernel(placement):
    rng = np.random.default_rng(3)
    m, d, s, e = 37, 48, 64, 40          # ragged rows and tiles; S and D are the matmuls' K (multiples of 16)
    inputs = {"q": (rng.standard_normal((m, d)) * 0.3).astype(np.float16),
              "kt": (rng.standard_normal((d, s)) * 0.3).astype(np.float16),
              "v": rng.standard_normal((s, e)).astype(np.float16)}
    sk = _attention(placement)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        arrays, report = sk.run(inputs)
    assert report.races == [], report.format_races()
    want = sk.reference(inputs)
    for name in ("h", "p", "out", "ws1", "ws2"):
        assert arrays[name].shape == want[name].shape
        np.testing.assert_array_equal(arrays[name], want[name], err_msg=name)
    assert arrays["out"].shape == (m, e)


def test_placement_keeps_matmul_tasks_plain_and_prefetches_nothing_written_before():
    pols = _attention().policies()
    assert [p.prefetch_inputs for p in pols] == [frozenset(), frozenset(), frozenset()]   # v: a MIX task
    assert not any(p.set_early for p in pols)


def test_buffer_shape_mismatches_and_mixed_kinds_are_errors():
    sk = SuperKernel("bad", PRODUCT)
    sk.add(_matmul("bad_mm1", "q", "kt", "h", "D", "S"))
    sk.add(_matmul("bad_mm2", "h", "v", "out", "S", "E"))     # both write "workspace", of different shapes
    rng = np.random.default_rng(0)
    inputs = {"q": rng.standard_normal((4, 16)).astype(np.float16),
              "kt": rng.standard_normal((16, 32)).astype(np.float16),
              "v": rng.standard_normal((32, 8)).astype(np.float16)}
    with pytest.raises(SpecError, match=r'task "bad_mm2" writes \(4, 8\) to buffer \'workspace\', which is \(4, 32\); '
                                        r"bind the output to another buffer"):
        sk._arrays(inputs)
    flat = Kernel("flat", block_dim=2, tile_length=256)
    flat.output("z", flat.input("out", "float16") * 2.0)
    mixed = SuperKernel("mixed", PRODUCT).add(_matmul("mx_mm", "q", "kt", "out", "D", "S")).add(flat)
    with pytest.raises(SpecError, match=r'task "flat" is 1-D and others are 2-D'):
        mixed._arrays({"q": inputs["q"], "kt": inputs["kt"]})


def test_a_topk_router_after_add_rmsnorm_runs_as_one_superkernel():
    # The router's (rows, k) outputs get buffers of (rows, 4): the literal k is their second extent.
    from ascgen.builder import recipes
    sk = SuperKernel("norm_router", PRODUCT)
    sk.add(recipes.add_rmsnorm("sk_add_rmsnorm", tile_length=1024))
    sk.add(recipes.topk_gating("sk_router", k=4, tile_length=1024), logits="y")
    rng = np.random.default_rng(1)
    inputs = {"x": rng.uniform(-2, 2, (13, 60)).astype(np.float16),
              "residual": rng.uniform(-2, 2, (13, 60)).astype(np.float16), "gamma": np.ones(60, np.float32)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        arrays, report = sk.run(inputs)
    assert report.races == [], report.format_races()
    want = sk.reference(inputs)
    for name in ("h", "y", "indices", "weights"):
        np.testing.assert_array_equal(arrays[name], want[name], err_msg=name)
    np.testing.assert_array_equal(arrays["indices"], recipes.topk_gating_reference(arrays["y"], 4)["indices"])
    assert arrays["weights"].shape == (13, 4)
