"""Production operators run end to end from Python (`ascgen.ops`: host tiling unchanged, then the kernel on
the devkit backend), each against a numpy reference written here from the op's documentation
(`<op>/docs/*.md`, `README.md`) and its kernel.

A case: the op folder (relative to ASCGEN_CANN_SOURCES), the inputs made from a shape, the attributes, the
output specs, and the reference. The test (tests/ops/test_op_run.py) runs a few; the sweep
(benchmarks/bench_ops.py) runs them all on every product and shape and writes the table of docs/ops.md.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import ml_dtypes
import numpy as np

from ascgen import config

BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.float32


@dataclass
class Case:
    op: str                                     # folder under ASCGEN_CANN_SOURCES
    dtype: str                                  # the inputs' data type
    shapes: list[tuple]                         # the x shapes to run (the last one ragged)
    make: Callable                              # (shape, dtype, rng) -> list of input arrays
    outputs: Callable                           # (inputs) -> list of (shape, dtype) output specs
    reference: Callable                         # (inputs, attrs[, product]) -> list of float64 / bool arrays
    attrs: dict = field(default_factory=dict)
    products: tuple = ("ascend910b", "ascend950")

    @property
    def name(self) -> str:
        return f"{self.op.rsplit('/', 1)[-1]}-{self.dtype}"

    def expected(self, ins, product: str) -> list:
        """The reference's arrays; a reference taking a third parameter is given the product (a kernel whose
        arithmetic differs per product, as the repository's own golden says)."""
        if self.reference.__code__.co_argcount == 3:
            return self.reference(ins, self.attrs, product)
        return self.reference(ins, self.attrs)


def _f(a):
    return np.asarray(a).astype(np.float64)


def _rand(shape, dtype, rng, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def _halves(x, dim=-1):
    a, b = np.split(_f(x), 2, axis=dim)
    return a, b


def _half_shape(x, dim=-1):
    shape = list(x.shape)
    shape[dim] //= 2
    return tuple(shape)


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def _gelu_erf(v):
    return 0.5 * v * (1.0 + np.vectorize(math.erf)(v / math.sqrt(2.0)))


def _gelu_tanh(v):
    return 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))


def _same(x):
    return [(x.shape, x.dtype.name)]


# The products whose add_rms_norm kernel normalizes the sum x1 + x2 rounded to the inputs' type; the others
# (ascend950's regbase kernel) normalize the float sum. The repository's golden says the same
# (ops-nn norm/add_rms_norm/tests/assets/golden.py: add_rms_golden_v1 for Ascend910B / Ascend910_93, v2
# otherwise); for bfloat16 the two rstd differ by about 4e-4, over the float32 tolerance.
_RMS_OF_ROUNDED_SUM = ("ascend910b", "ascend910_93")


def _rms_norm(x1, x2, gamma, eps, product):
    """(x, rstd, y) of AddRmsNorm: x = x1 + x2 is an output in the inputs' type."""
    exact = _f(x1.astype(np.float32) + x2.astype(np.float32))
    x = _f(exact.astype(x1.dtype))
    normalized = x if product in _RMS_OF_ROUNDED_SUM else exact
    rstd = 1.0 / np.sqrt((normalized * normalized).mean(-1, keepdims=True) + eps)
    return x, rstd, normalized * rstd * _f(gamma)


def _add_rms_norm_ref(ins, attrs, product):
    x, rstd, y = _rms_norm(*ins, attrs["epsilon"], product)
    return [y, rstd, x]


def _add_rms_norm_make(shape, dtype, rng):
    return [_rand(shape, dtype, rng), _rand(shape, dtype, rng), _rand(shape[-1:], dtype, rng)]


def _add_rms_norm_outputs(ins):
    x1 = ins[0]
    return [(x1.shape, x1.dtype.name), (x1.shape[:-1] + (1,), "float32"), (x1.shape, x1.dtype.name)]


CASES = [
    Case("ops-nn/norm/add_rms_norm", "float16", [(8, 256), (37, 1281), (3, 5, 4000)], _add_rms_norm_make,
         _add_rms_norm_outputs, _add_rms_norm_ref, {"epsilon": 1e-6}),
    Case("ops-nn/norm/add_rms_norm", "bfloat16", [(8, 256), (37, 1281)], _add_rms_norm_make,
         _add_rms_norm_outputs, _add_rms_norm_ref, {"epsilon": 1e-6}),
    Case("ops-math/math/is_inf", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [np.where(r.random(s) < 0.2, np.inf, _rand(s, d, r)).astype(d) * np.where(r.random(s) < 0.5, 1, -1).astype(d)],
         lambda ins: [(ins[0].shape, "bool")], lambda ins, a: [np.isinf(_f(ins[0]))]),
    Case("ops-math/math/is_finite", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [np.where(r.random(s) < 0.3, np.array([np.inf, -np.inf, np.nan])[r.integers(0, 3, s)],
                                   _rand(s, d, r)).astype(d)],
         lambda ins: [(ins[0].shape, "bool")], lambda ins, a: [np.isfinite(_f(ins[0]))]),
    Case("ops-math/math/pows", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         # the exponent: one value, one of the six the kernel computes (-2, -1, -0.5, 0.5, 2, 3: pows_base.h's
         # ComputePowsBase; CANN's aclnn layer sends the others elsewhere)
         lambda s, d, r: [_rand(s, d, r, 0.1, 2.0), np.array([{8: 2.0, 37: -0.5}.get(s[0], 3.0)], d)],
         lambda ins: _same(ins[0]), lambda ins, a: [_f(ins[0]) ** _f(ins[1])[0]]),
    Case("ops-nn/activation/heaviside", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [np.where(r.random(s) < 0.2, 0, _rand(s, d, r)).astype(d), _rand(s, d, r)],
         lambda ins: _same(ins[0]),
         lambda ins, a: [np.where(_f(ins[0]) < 0, 0.0, np.where(_f(ins[0]) == 0, _f(ins[1]), 1.0))]),
    Case("ops-nn/activation/squared_relu", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.maximum(_f(ins[0]), 0) ** 2]),
    Case("ops-nn/activation/swi_glu", "float16", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: [(_half_shape(ins[0]), ins[0].dtype.name)],
         lambda ins, a: [(lambda h: h[0] * _sigmoid(h[0]) * h[1])(_halves(ins[0]))], {"dim": -1}),
    Case("ops-nn/activation/glu", "float32", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: [(_half_shape(ins[0]), ins[0].dtype.name)],
         lambda ins, a: [(lambda h: h[0] * _sigmoid(h[1]))(_halves(ins[0]))], {"dim": -1}),
    Case("ops-nn/activation/gelu_mul", "float16", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: [(_half_shape(ins[0]), ins[0].dtype.name)],
         lambda ins, a: [(lambda h: _gelu_erf(h[0]) * h[1])(_halves(ins[0]))], {"approximate": "none"}),
    Case("ops-nn/activation/ge_glu_v2", "float16", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s, d, r)],
         lambda ins: [(_half_shape(ins[0]), ins[0].dtype.name)] * 2,
         lambda ins, a: [(lambda h: h[0] * _gelu_tanh(h[1]))(_halves(ins[0])), _gelu_tanh(_halves(ins[0])[1])],
         {"dim": -1, "approximate": 1, "activate_left": False}),
]

def _layer_norm(x, gamma, beta, eps):
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + eps)
    return (x - mean) * rstd * _f(gamma) + _f(beta), mean, rstd


def _add_layer_norm_ref(ins, attrs):
    x = _f(ins[0]) + _f(ins[1])
    y, mean, rstd = _layer_norm(x, ins[2], ins[3], attrs["epsilon"])
    return [y, mean, rstd, x]


def _dynamic_quant_ref(ins, attrs):
    x = _f(ins[0])
    scale = np.abs(x).max(-1) / 127.0
    return [np.rint(x / scale[..., None]), scale]


def _softmax(v):
    e = np.exp(v - v.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


CASES += [
    Case("ops-math/examples/add_example", "float32", [(2, 4, 8, 256), (1, 3, 37, 129), (3, 5, 1, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) + _f(ins[1])]),
    Case("ops-math/examples/add_example", "int32", [(2, 4, 8, 256), (1, 3, 37, 129)],    # key 1: the <1> instance
         lambda s, d, r: [r.integers(-1000, 1000, s).astype(d), r.integers(-1000, 1000, s).astype(d)],
         lambda ins: _same(ins[0]), lambda ins, a: [_f(ins[0]) + _f(ins[1])]),
    Case("ops-nn/loss/logit", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, 0.05, 0.95)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.log(_f(ins[0]) / (1 - _f(ins[0])))], {"eps": -1.0}),
    Case("ops-nn/loss/mse_loss_grad_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r), _rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [2.0 * (_f(ins[0]) - _f(ins[1])) * _f(ins[2]) / ins[0].size], {"reduction": "mean"}),
    Case("ops-nn/vfusion/modulate", "float16", [(2, 8, 256), (3, 37, 129), (1, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand((s[0], 1, s[2]), d, r), _rand((s[0], 1, s[2]), d, r)],
         # computed in the input type, as the kernel does (bit-identical to numpy's float16 arithmetic)
         lambda ins: _same(ins[0]), lambda ins, a: [_f(ins[0] * (1 + ins[1]) + ins[2])]),
    Case("ops-nn/norm/add_layer_norm", "float32", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r), _rand(s[-1:], d, r), _rand(s[-1:], d, r), None],
         lambda ins: [(ins[0].shape, "float32"), (ins[0].shape[:-1] + (1,), "float32"),
                      (ins[0].shape[:-1] + (1,), "float32"), (ins[0].shape, "float32")],
         _add_layer_norm_ref, {"epsilon": 1e-5, "additional_output": True}),
    Case("ops-nn/quant/dynamic_quant", "float16", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), None, None],
         lambda ins: [(ins[0].shape, "int8"), (ins[0].shape[:-1], "float32")], _dynamic_quant_ref, {"dst_type": 2}),
    Case("ops-nn/activation/fatrelu_mul", "float16", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s, d, r), np.array([0.25], d)], lambda ins: [(_half_shape(ins[0]), ins[0].dtype.name)],
         lambda ins, a: [(lambda h: np.where(h[0] > _f(ins[1])[0], h[0], 0.0) * h[1])(_halves(ins[0]))]),
]


def _group_norm_affine(ins, groups, eps):
    """(gamma * normalized x + beta, mean, rstd) of a group norm over (N, C, ...) in `groups` groups."""
    x, gamma, beta = _f(ins[0]), _f(ins[1]), _f(ins[2])
    n, c = x.shape[0], x.shape[1]
    grouped = x.reshape(n, groups, -1)
    mean = grouped.mean(-1)
    rstd = 1.0 / np.sqrt(grouped.var(-1) + eps)
    norm = ((grouped - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return norm * gamma.reshape(shape) + beta.reshape(shape), mean, rstd


def _group_norm_silu_ref(ins, attrs):
    out, mean, rstd = _group_norm_affine(ins, attrs["num_groups"], attrs["eps"])
    return [out * _sigmoid(out), mean, rstd]


def _rms_norm_ref(ins, attrs):
    x = _f(ins[0])
    rstd = 1.0 / np.sqrt((x * x).mean(-1, keepdims=True) + attrs["epsilon"])
    return [x * rstd * _f(ins[1]), rstd]


def _add_rms_norm_cast_ref(ins, attrs, product):
    x, rstd, y = _rms_norm(*ins, attrs["epsilon"], product)
    return [y, y, rstd, x]


def _rows_cols(s):
    return s[:-1] + (1,)


CASES += [
    Case("ops-nn/norm/rms_norm", "float16", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s[-1:], d, r)],
         lambda ins: [(ins[0].shape, ins[0].dtype.name), (_rows_cols(ins[0].shape), "float32")],
         _rms_norm_ref, {"epsilon": 1e-6}),
    Case("ops-nn/norm/add_rms_norm_cast", "float16", [(8, 256), (37, 1281), (3, 5, 1001)], _add_rms_norm_make,
         lambda ins: [(ins[0].shape, "float32"), (ins[0].shape, "float16"), (_rows_cols(ins[0].shape), "float32"),
                      (ins[0].shape, "float16")], _add_rms_norm_cast_ref, {"epsilon": 1e-6}),
    Case("ops-nn/norm/group_norm_silu", "float32", [(2, 32, 8, 8), (3, 24, 37), (1, 64, 5, 7)],
         lambda s, d, r: [_rand(s, d, r), _rand(s[1:2], d, r), _rand(s[1:2], d, r)],
         lambda ins: [(ins[0].shape, "float32"), ((ins[0].shape[0], 8), "float32"), ((ins[0].shape[0], 8), "float32")],
         _group_norm_silu_ref, {"num_groups": 8, "eps": 1e-5, "activate_silu": True}),
    Case("ops-nn/index/gather_elements_v2", "float32", [(8, 256), (37, 129), (5, 1001)],
         lambda s, d, r: [_rand(s, d, r), r.integers(0, s[-1], s[:-1] + (max(s[-1] // 3, 1),)).astype(np.int32)],
         lambda ins: [(ins[1].shape, "float32")],
         lambda ins, a: [np.take_along_axis(_f(ins[0]), ins[1].astype(np.int64), axis=1)], {"dim": 1},
         products=("ascend910b",)),
    Case("ops-nn/quant/ascend_quant_v2", "float16", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s[-1:], d, r, 10.0, 60.0), None],
         lambda ins: [(ins[0].shape, "int8")],
         lambda ins, a: [np.clip(np.rint(_f(ins[0]) * _f(ins[1])), -128, 127)],
         {"sqrt_mode": False, "round_mode": "round", "dst_type": 2, "axis": -1}),
]


def _gelu_quant_ref(ins, attrs):
    g = _gelu_erf(_f(ins[0]))
    scale = np.abs(g).max(-1) / 127.0
    return [np.rint(g / scale[..., None]), scale]


CASES += [
    Case("ops-math/math/angle_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [np.where(r.random(s) < 0.1, 0, _rand(s, d, r)).astype(d)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.angle(_f(ins[0]))]),
    Case("ops-nn/loss/logit_grad", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, 0.05, 0.95), _rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[1]) / (_f(ins[0]) * (1 - _f(ins[0])))], {"eps": -1.0}),
    Case("ops-nn/quant/dequant_bias", "int32", [(8, 256), (37, 1281), (5, 1001)],
         lambda s, d, r: [r.integers(-5000, 5000, s).astype(np.int32), _rand(s[-1:], BF16, r, 0.001, 0.01),
                          _rand(s[:-1], np.float32, r, 0.5, 2.0), _rand(s[-1:], BF16, r)],
         lambda ins: [(ins[0].shape, "bfloat16")],
         lambda ins, a: [_f(ins[0]) * _f(ins[1]) * _f(ins[2])[:, None] + _f(ins[3])], {"output_dtype": 27}),
    Case("ops-nn/loss/cross_v2", "float32", [(3, 256), (37, 3, 129), (3, 5, 3)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.cross(_f(ins[0]), _f(ins[1]), axis=list(ins[0].shape).index(3))],
         {"dim": -100}, products=("ascend910b",)),
    Case("ops-nn/activation/gelu_quant", "float16", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), None, None],
         lambda ins: [(ins[0].shape, "int8"), (ins[0].shape[:-1], "float32")], _gelu_quant_ref,
         {"approximate": "none", "quant_mode": "dynamic", "dst_type": 2, "round_mode": "rint"}),
]



def _is_close_make(shape, dtype, rng):
    """x2 within rtol of x1 (1e-6 of it) or not (1e-3), some exact ties, and a few non-finite pairs: equal
    infinities are close, NaNs never (equal_nan false)."""
    x1 = _rand(shape, dtype, rng)
    x2 = (x1 * (1 + np.where(rng.random(shape) < 0.5, 1e-6, 1e-3))).astype(dtype)
    x2 = np.where(rng.random(shape) < 0.1, x1, x2)
    odd = np.array([np.inf, -np.inf, np.nan], dtype)[rng.integers(0, 3, shape)]
    pick = rng.random(shape) < 0.05
    return [np.where(pick, odd, x1).astype(dtype), np.where(pick & (rng.random(shape) < 0.7), odd, x2).astype(dtype)]


_950 = ("ascend950",)
# Ops built for ascend950 only (their *_def.cpp configures no other core), each a different opbase atvoss
# schedule or ops-nn kernel: unary, unary with attributes, a scalar attribute, a cast, binary with a broadcast
# operand (last axis and first axis), ternary, a compare to bool, activations, a softmax over the last axis.
CASES += [
    Case("ops-math/math/sqrt", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, 0.0, 4.0)], lambda ins: _same(ins[0]), lambda ins, a: [np.sqrt(_f(ins[0]))],
         products=_950),
    Case("ops-math/math/exp", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: _same(ins[0]), lambda ins, a: [np.exp(_f(ins[0]))],
         {"base": -1.0, "scale": 1.0, "shift": 0.0}, products=_950),          # base -1: e
    Case("ops-math/math/rsqrt", "bfloat16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, 0.1, 4.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [1.0 / np.sqrt(_f(ins[0]))], products=_950),
    Case("ops-math/math/muls", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) * _f(np.float32(a["value"]))], {"value": 1.5}, products=_950),
    Case("ops-math/math/cast", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -300.0, 300.0)], lambda ins: [(ins[0].shape, "float16")],
         lambda ins, a: [_f(ins[0].astype(np.float16))], {"dst_type": 1}, products=_950),      # DT_FLOAT16
    Case("ops-math/math/sign", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [np.where(r.random(s) < 0.2, 0, _rand(s, d, r)).astype(d)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.sign(_f(ins[0]))], products=_950),
    Case("ops-math/math/add", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         # x2 broadcast along the first axis; computed in the input type, as numpy's float16 add rounds once
         lambda s, d, r: [_rand(s, d, r), _rand((1,) + s[1:], d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0] + ins[1])], products=_950),
    Case("ops-math/math/maximum", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s[-1:], d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.maximum(_f(ins[0]), _f(ins[1]))], products=_950),
    Case("ops-math/math/lerp", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r), _rand(s, d, r, 0.0, 1.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) + _f(ins[2]) * (_f(ins[1]) - _f(ins[0]))], products=_950),
    Case("ops-math/math/is_close", "float32", [(8, 256), (37, 129), (3, 5, 1001)], _is_close_make,
         lambda ins: [(ins[0].shape, "bool")],
         # |x1 - x2| <= atol + rtol * |x2|, numpy's rule as the op's documentation states it
         lambda ins, a: [np.isclose(_f(ins[0]), _f(ins[1]), rtol=a["rtol"], atol=a["atol"])],
         {"rtol": 1e-5, "atol": 1e-8, "equal_nan": False}, products=_950),
    Case("ops-nn/activation/leaky_relu", "float16", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [np.where(_f(ins[0]) >= 0, _f(ins[0]), _f(ins[0]) * a["negative_slope"])],
         {"negative_slope": 0.1}, products=_950),
    Case("ops-nn/activation/sigmoid", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -6.0, 6.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_sigmoid(_f(ins[0]))], products=_950),
    Case("ops-nn/activation/hard_swish", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -5.0, 5.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) * np.clip(_f(ins[0]) + 3, 0, 6) / 6], products=_950),
    Case("ops-nn/activation/mish", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -4.0, 4.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) * np.tanh(np.log1p(np.exp(_f(ins[0]))))], products=_950),
    Case("ops-nn/activation/gelu", "float32", [(8, 256), (37, 129), (3, 5, 1001)],     # its docs: the tanh form
         lambda s, d, r: [_rand(s, d, r, -4.0, 4.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_gelu_tanh(_f(ins[0]))], products=_950),
    Case("ops-nn/activation/softmax_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -4.0, 4.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_softmax(_f(ins[0]))], {"axes": [-1], "half_to_float": False}, products=_950),
]


def _bessel_i1e(x):
    """exp(-|x|) I1(x), I1 by its power series sum (x/2)^(2k+1) / (k! (k+1)!): 60 terms are exact to float64's
    precision for |x| <= 10, the range the case draws from."""
    k = np.arange(60)
    denominators = np.array([math.factorial(i) * math.factorial(i + 1) for i in k], np.float64)
    return np.exp(-np.abs(x)) * ((x[..., None] / 2.0) ** (2 * k + 1) / denominators).sum(-1)


def _hard_swish_slope(x):
    """HardSwishGradV2's documented gradSelf: 0 for x <= -3, x / 3 + 0.5 between, 1 for x >= 3."""
    return np.where(x <= -3, 0.0, np.where(x >= 3, 1.0, x / 3 + 0.5))


def _swi_glu_grad_ref(ins, attrs):
    """d/dx of y = silu(a) * b, x = [a, b] on the last axis, times y_grad: [g b silu'(a), g silu(a)]."""
    g, (a, b) = _f(ins[0]), _halves(ins[1])
    s = _sigmoid(a)
    return [np.concatenate([g * b * s * (1 + a * (1 - s)), g * a * s], -1)]


def _grouped_bias_add_grad_ref(ins, attrs):
    """Each group's rows of grad_y summed: group j is rows group_idx[j - 1] (0 for j = 0) to group_idx[j]."""
    ends = [int(e) for e in ins[1]]
    return [np.stack([_f(ins[0])[lo:hi].sum(0) for lo, hi in zip([0] + ends[:-1], ends)])]


def _histogram_ref(ins, attrs):
    """torch.histc's counts, as the op's documentation describes them: `bins` equal bins from min to max, max
    itself in the last one, values outside not counted."""
    x, lo, hi, bins = _f(ins[0]), float(ins[1][0]), float(ins[2][0]), attrs["bins"]
    inside = x[(x >= lo) & (x <= hi)]
    return [np.bincount(np.minimum(((inside - lo) * bins / (hi - lo)).astype(np.int64), bins - 1),
                        minlength=bins).astype(np.float64)]


def _deep_norm_ref(ins, attrs):
    x = attrs["alpha"] * _f(ins[0]) + _f(ins[1])
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + attrs["epsilon"])
    return [mean, rstd, (x - mean) * rstd * _f(ins[3]) + _f(ins[2])]


def _group_norm_swish_ref(ins, attrs):
    out, mean, rstd = _group_norm_affine(ins, attrs["num_groups"], attrs["eps"])
    return [out * _sigmoid(attrs["swish_scale"] * out), mean, rstd]


def _smooth_l1(z):
    return np.where(z < 1.0, 0.5 * z * z, z - 0.5)          # sigma 1: the Huber loss with delta 1


# Ops built for ascend910b and ascend950 alike.
CASES += [
    Case("ops-math/math/bessel_i1e", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r, -10.0, 10.0)], lambda ins: _same(ins[0]),
         lambda ins, a: [_bessel_i1e(_f(ins[0]))]),
    Case("ops-nn/activation/hard_swish_grad_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         # some x exactly 3, where the derivative's documented cases meet (x >= 3: 1)
         lambda s, d, r: [_rand(s, d, r), np.where(r.random(s) < 0.05, 3.0, _rand(s, d, r, -5.0, 5.0)).astype(d)],
         lambda ins: _same(ins[0]),
         lambda ins, a: [_f(ins[0]) * _hard_swish_slope(_f(ins[1]))]),
    Case("ops-nn/activation/swi_glu_grad", "float32", [(8, 256), (37, 258), (3, 5, 1002)],
         lambda s, d, r: [_rand(s[:-1] + (s[-1] // 2,), d, r), _rand(s, d, r)], lambda ins: _same(ins[1]),
         _swi_glu_grad_ref, {"dim": -1}),
    Case("ops-math/math/grouped_bias_add_grad", "float32", [(64, 256), (100, 129), (37, 1001)],
         # grad_y (rows, H) in 3 groups of rows; group_idx: each group's end row, the last the row count
         lambda s, d, r: [_rand(s, d, r),
                          np.array(sorted(r.choice(np.arange(1, s[0]), 2, replace=False)) + [s[0]], np.int32)],
         lambda ins: [((ins[1].shape[0], ins[0].shape[1]), "float32")], _grouped_bias_add_grad_ref,
         {"group_idx_type": 0}),
    Case("ops-math/math/histogram_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         # 50 bins over [-2, 2] of values drawn in [-3, 3]: those outside are not counted (int32 counts)
         lambda s, d, r: [_rand(s, d, r, -3.0, 3.0), np.array([-2.0], d), np.array([2.0], d)],
         lambda ins: [((50,), "int32")], _histogram_ref, {"bins": 50}),
    Case("ops-nn/loss/smooth_l1_loss", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r)], lambda ins: _same(ins[0]),
         lambda ins, a: [_smooth_l1(np.abs(_f(ins[0]) - _f(ins[1])))], {"sigma": 1.0}),
    Case("ops-nn/loss/mse_loss_v2", "float32", [(8, 256), (37, 129), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r)], lambda ins: [((), "float32")],
         lambda ins, a: [np.array(((_f(ins[0]) - _f(ins[1])) ** 2).mean())], {"reduction": "mean"}),
    Case("ops-nn/norm/deep_norm", "float32", [(8, 256), (37, 1281), (3, 5, 1001)],
         lambda s, d, r: [_rand(s, d, r), _rand(s, d, r), _rand(s[-1:], d, r), _rand(s[-1:], d, r)],
         lambda ins: [(_rows_cols(ins[0].shape), "float32")] * 2 + [(ins[0].shape, "float32")],
         _deep_norm_ref, {"alpha": 0.3, "epsilon": 1e-6}),
    Case("ops-nn/norm/group_norm_swish", "float32", [(2, 32, 8, 8), (3, 24, 37), (1, 64, 5, 7)],
         lambda s, d, r: [_rand(s, d, r), _rand(s[1:2], d, r), _rand(s[1:2], d, r)],
         lambda ins: [(ins[0].shape, "float32"), ((ins[0].shape[0], 8), "float32"), ((ins[0].shape[0], 8), "float32")],
         _group_norm_swish_ref,
         {"num_groups": 8, "data_format": "NCHW", "eps": 1e-5, "activate_swish": True, "swish_scale": 1.5}),
]

# Tolerances by output type: the kernels compute in float32 and round once (or a few times) to the output.
TOLERANCE = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 1e-4,
             "int8": 1, "int32": 0}        # integers: absolute (a quantized value may round the other way)


def mismatches(got: np.ndarray, ref: np.ndarray) -> tuple[int, float]:
    """(elements outside the tolerance, the max error relative to max(|ref|, 1)); bool outputs exact."""
    if got.shape != ref.shape:
        raise AssertionError(f"shape {got.shape}, reference {ref.shape}")
    if got.dtype == bool:
        return int((got != ref).sum()), float((got != ref).any())
    tol = TOLERANCE[got.dtype.name]
    g = _f(got)
    err = np.abs(g - ref) / (1.0 if got.dtype.kind in "iu" else np.maximum(np.abs(ref), 1.0))
    bad = ~(err <= tol)                     # NaN (an element never written: poisoned) counts as bad
    return int(bad.sum()), float(np.nanmax(err)) if np.isfinite(err).any() else float("inf")


def selected(only=None, products=None):
    """(case, product) pairs of CASES, filtered as the benchmarks' --only (case names op-dtype, or op names)
    and --products say."""
    for case in CASES:
        if only and not any(o in (case.name, case.op.rsplit("/", 1)[-1]) for o in only):
            continue
        for product in case.products:
            if not products or product in products:
                yield case, product


def sweep_arguments(description: str):
    """(args, CANN sources folder) of a sweep over the cases: --products, --only (as `selected` takes them),
    --json; exits naming the setting when ASCGEN_CANN_SOURCES is unset."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--products", nargs="*", default=None)
    parser.add_argument("--only", nargs="*", default=None, help="case names (op-dtype) or op names")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    root = config.cann_sources()
    if root is None:
        sys.exit("set ASCGEN_CANN_SOURCES to the folder holding the CANN source trees")
    return args, root
