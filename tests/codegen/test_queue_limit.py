"""The planner refuses more queue buffers per position than the Ascend C library has event ids for
(QUE_MAX_EVENT = 8: "max buffer number in same queue position is 8"), as the builtin library does at run
time (tests/library/test_queue.py), instead of emitting a kernel the real library stops."""
from __future__ import annotations

import pytest

import ascgen
from ascgen.builder import Kernel, Relu
from ascgen.errors import SpecError


def _outputs(n: int, buffer_num: int, shape=None) -> Kernel:
    k = Kernel(f"outs{n}", buffer_num=buffer_num, tile_length=256)
    x = k.input("x", "float16", shape=shape)
    for i in range(n):
        k.output(f"y{i}", Relu(x + float(i)))
    return k


@pytest.mark.parametrize("shape", [None, ("rows", "cols")])
def test_five_double_buffered_outputs_are_refused_with_the_library_rule(shape):
    with pytest.raises(SpecError, match=r"kernel 'outs5' at test_queue_limit\.py:\d+: 5 outputs x buffer_num 2 = "
                                        r"10 queue buffers at VECOUT; .* at most 8 per queue position on ascend910b "
                                        r".*Hint: buffer_num=1, or at most 4 outputs"):
        ascgen.emit(_outputs(5, 2, shape), "ascend910b")


def test_the_limit_is_per_position_and_counts_buffers():
    ascgen.emit(_outputs(4, 2), "ascend910b")          # 8 at VECOUT
    ascgen.emit(_outputs(8, 1), "ascend910b")          # 8 at VECOUT, single-buffered
    with pytest.raises(SpecError, match="9 queue buffers at VECOUT"):
        ascgen.emit(_outputs(9, 1), "ascend910b")
    k = Kernel("ins", buffer_num=2)
    xs = [k.input(f"x{i}", "float16") for i in range(5)]
    k.output("y", xs[0] + xs[1] + xs[2] + xs[3] + xs[4])
    with pytest.raises(SpecError, match="5 inputs x buffer_num 2 = 10 queue buffers at VECIN"):
        ascgen.emit(k, "ascend910b")


def test_four_double_buffered_outputs_run_over_several_tiles_on_the_builtin_library():
    """8 buffers at VECOUT, every one used (three tiles per core) and freed: within the pool."""
    import warnings
    import numpy as np
    from ascgen.runtime.loader import load
    k = _outputs(4, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = load(ascgen.emit(k, "ascend910b"), "ascend910b", filename=f"{k.name}.cpp")
    x = np.linspace(-2, 2, 2 * 256 * 3, dtype=np.float16)
    ys = [np.zeros_like(x) for _ in range(4)]
    mod.launch(k.name, 2, x, *ys, x.size)
    for i, y in enumerate(ys):
        np.testing.assert_array_equal(y, np.maximum(x + np.float16(i), 0))


def test_the_limit_follows_the_architecture():
    """QUE_MAX_EVENT is 4 outside dav-2002/2201/3002/3102/3510/5102 (asc-devkit kernel_macros.h): ascend910."""
    k = Kernel("k3")
    a, b, c = (k.input(n, "float16") for n in "abc")
    k.output("y", a + b + c)
    ascgen.emit(k, "ascend310p")
    with pytest.raises(SpecError, match=r"6 queue buffers at VECIN; .* at most 4 per queue position on ascend910 "):
        ascgen.emit(k, "ascend910")
