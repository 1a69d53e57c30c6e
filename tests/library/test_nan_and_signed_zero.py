"""NaN and -0 through Max / Min / Maxs / Relu / Abs (issue 25): the numpy reference of the builder and an
emitted kernel on the builtin backend give the same bits, the element rules of docs/semantics.md
(NaN propagates, -0 orders below +0, Abs clears the sign). The devkit models follow the same rules,
checked op by op in tests/devkit/test_element_rules.py."""
from __future__ import annotations

import numpy as np

import ascgen
from ascgen import products
from ascgen.builder import Abs, Kernel, Max, Maxs, Min, Relu
from ascgen.builder.reference import evaluate

NAN = np.float32("nan")
X = np.array([NAN, 1, NAN, -0.0, 0.0, -0.0, 0.0, -2, 3, -np.inf], np.float32)
Y = np.array([1, NAN, NAN, 0.0, -0.0, -0.0, 0.0, 5, -1, 2], np.float32)


def _kernel():
    k = Kernel("nan_zero", block_dim=1, tile_length=64, buffer_num=1)   # 5 outputs: the library allows 8 buffers per queue position
    x, y = k.input("x", "float32"), k.input("y", "float32")
    k.output("mx", Max(x, y))
    k.output("mn", Min(x, y))
    k.output("relu", Relu(x))
    k.output("ab", Abs(x))
    k.output("mxs", Maxs(x, 0.0))
    return k


def _bits(a):
    return np.asarray(a, np.float32).view(np.uint32)


WANT = {   # the rules, by hand (0x7fc00000: a quiet NaN; any NaN payload is accepted below)
    "mx": [NAN, NAN, NAN, 0.0, 0.0, -0.0, 0.0, 5, 3, 2],
    "mn": [NAN, NAN, NAN, -0.0, -0.0, -0.0, 0.0, -2, -1, -np.inf],
    "relu": [NAN, 1, NAN, 0.0, 0.0, 0.0, 0.0, 0, 3, 0],
    "ab": [NAN, 1, NAN, 0.0, 0.0, 0.0, 0.0, 2, 3, np.inf],
    "mxs": [NAN, 1, NAN, 0.0, 0.0, 0.0, 0.0, 0, 3, 0],
}


def _same(got, want) -> bool:
    got, want = np.asarray(got, np.float32), np.asarray(want, np.float32)
    return bool(((_bits(got) == _bits(want)) | (np.isnan(got) & np.isnan(want))).all())


def test_the_reference_follows_the_element_rules():
    ref = evaluate(_kernel(), {"x": X, "y": Y})
    for name, want in WANT.items():
        assert _same(ref[name], want), (name, ref[name], want)


def test_the_builtin_backend_agrees_with_the_reference_bit_for_bit():
    from ascgen.runtime import load
    k = _kernel()
    module = load(ascgen.emit(k, products.get("ascend910b")), product=products.get("ascend910b"))
    n = len(X)
    outs = {p.name: np.full(n, 77, np.float32) for p in k.outputs}
    args = [X.copy() if p.name == "x" else Y.copy() if p.name == "y" else outs[p.name] for p in k.params]
    args.insert(k.length_index, n)
    module.launch(k.name, k.block_dim, *args)
    for name, want in WANT.items():
        assert _same(outs[name], want), (name, outs[name], want)
