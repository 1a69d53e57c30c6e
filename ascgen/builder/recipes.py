"""Decoder-layer recipes (issue 23 point 3): builder functions for the kernels a transformer decoder layer
fuses, each with its numpy reference written from the textbook formula (the truth the tests compare with;
`ascgen.builder.reference.evaluate` is the kernel-order oracle).

    from ascgen.builder.recipes import add_rmsnorm
    k = add_rmsnorm("add_rmsnorm")                  # a Kernel: emit it, test it, put it in a SuperKernel

Every recipe returns a plain `Kernel`, so the user's line that calls it is what emitted comments and errors
name. See docs/builder.md "Decoder-layer recipes" for what each computes and where it runs.
"""
from __future__ import annotations

import numpy as np

from ascgen.builder.kernel import (Abs, Cast, Exp, Kernel, Matmul, Maxs, Mean, Mins, ReduceMax, ReduceSum, RotateHalf,
                                   RotatePairs, Sqrt, TopK, TopKIndices)
from ascgen.builder.types import FLT_MAX

__all__ = ["add_rmsnorm", "swiglu", "dynamic_quant", "matmul_dequant", "rope", "rope_interleaved", "topk_gating",
           "add_rmsnorm_reference", "swiglu_reference", "dynamic_quant_reference", "matmul_dequant_reference",
           "rope_reference", "rope_interleaved_reference", "topk_gating_reference"]

QMAX = 127.0                  # symmetric int8: values in [-127, 127]
AMAX_FLOOR = 1e-6             # a row of zeros gets this max |x| (its scale stays finite; its values are 0)


def add_rmsnorm(name: str = "add_rmsnorm", dtype: str = "float16", *, block_dim: int = 8,
                tile_length: int = 4096, cols_multiple_of: int = 1) -> Kernel:
    """h = x + residual (stored: the next residual), y = h / sqrt(mean(h^2) + eps) * gamma, over the last
    axis of (rows, cols); h in `dtype`, the norm in float32, gamma float32 per column. `cols_multiple_of`
    (16 for half) promises whole 32-byte rows, which products without DataCopyPad (ascend310p) need."""
    k = Kernel(name, block_dim=block_dim, tile_length=tile_length)
    cols = k.dim("cols", multiple_of=cols_multiple_of)
    x = k.input("x", dtype, shape=("rows", cols))
    residual = k.input("residual", dtype, shape=("rows", cols))
    gamma = k.input("gamma", "float32", shape=(cols,))
    eps = k.scalar("eps", "float32", default=1e-6)
    h = k.output("h", x + residual)
    hf = Cast(h, "float32")
    k.output("y", Cast(hf / Sqrt(Mean(hf * hf, axis=-1) + eps) * gamma, dtype))
    return k


def add_rmsnorm_reference(x, residual, gamma, eps=1e-6):
    h = (x + residual).astype(x.dtype)
    hf = h.astype(np.float64)
    y = hf / np.sqrt(np.mean(hf * hf, axis=-1, keepdims=True) + eps) * gamma
    return {"h": h, "y": y.astype(x.dtype)}


def swiglu(name: str = "swiglu", dtype: str = "float16", *, block_dim: int = 8, tile_length: int = 2048,
           shape: tuple[str, str] | None = None) -> Kernel:
    """y = silu(gate) * up = gate / (1 + exp(-gate)) * up, element-wise, computed in float32: 1-D, or over
    (rows, cols) with `shape=("rows", "cols")` (to chain with the 2-D kernels of a SuperKernel)."""
    k = Kernel(name, block_dim=block_dim, tile_length=tile_length)
    gate = Cast(k.input("gate", dtype, shape=shape), "float32")
    up = Cast(k.input("up", dtype, shape=shape), "float32")
    k.output("y", Cast(gate / (Exp(gate * -1.0) + 1.0) * up, dtype))
    return k


def swiglu_reference(gate, up):
    g = gate.astype(np.float64)
    return {"y": (g / (1.0 + np.exp(-g)) * up.astype(np.float64)).astype(gate.dtype)}


def dynamic_quant(name: str = "dynamic_quant", dtype: str = "float16", *, block_dim: int = 8,
                  tile_length: int = 4096) -> Kernel:
    """Per-token (per-row) symmetric int8 quantisation: scale = max|x| / 127 per row (float32, `scales`),
    q = rint(x / scale) as int8 (`values`). A row of zeros has scale 1e-6 / 127 and values 0."""
    k = Kernel(name, block_dim=block_dim, tile_length=tile_length)
    x = Cast(k.input("x", dtype, shape=("rows", "cols")), "float32")
    amax = Maxs(ReduceMax(Abs(x), axis=-1), AMAX_FLOOR)
    k.output("scales", amax * (1.0 / QMAX))
    # rint once, in float32 -> int32; the way down to int8 (through float32 and float16) is then exact.
    q = Cast(Cast(Cast(x * QMAX / amax, "int32", round="rint"), "float32"), "float16")
    k.output("values", Cast(q, "int8"))
    return k


def dynamic_quant_reference(x):
    xf = x.astype(np.float64)
    amax = np.maximum(np.max(np.abs(xf), axis=-1, keepdims=True), AMAX_FLOOR)
    return {"scales": (amax[:, 0] / QMAX).astype(np.float32),
            "values": np.clip(np.rint(xf * QMAX / amax), -QMAX, QMAX).astype(np.int8)}


def matmul_dequant(name: str = "matmul_dequant", out_dtype: str = "float16", *, block_dim: int = 4,
                   tile=(32, 64, 64)) -> Kernel:
    """int8 a (M, K) x int8 b (K, N) accumulated in int32 on the cube, then y = acc * scale + bias per
    output channel (float32 `scale` and `bias` of N), written as `out_dtype`."""
    k = Kernel(name, block_dim=block_dim)
    a = k.input("a", "int8", shape=("M", "K"))
    b = k.input("b", "int8", shape=("K", "N"))
    acc = Matmul(a, b, tile=tile)
    scale = k.input("scale", "float32", shape=("N",))
    bias = k.input("bias", "float32", shape=("N",))
    k.output("y", Cast(Cast(acc, "float32") * scale + bias, out_dtype))
    return k


def matmul_dequant_reference(a, b, scale, bias, out_dtype=np.float16):
    acc = a.astype(np.int64) @ b.astype(np.int64)
    return {"y": (acc * scale.astype(np.float64) + bias).astype(out_dtype)}


def rope(name: str = "rope", dtype: str = "float16", *, block_dim: int = 8, tile_length: int = 4096,
         cols_multiple_of: int = 32) -> Kernel:
    """Rotary position embedding, half-split form (GPT-NeoX / Llama): y = x * cos + rotate_half(x) * sin per
    row of (rows, cols) = (tokens, head_dim), rotate_half(x) = [-x[:, cols/2:], x[:, :cols/2]]; cos_table and sin_table are
    (rows, cols) tables of the tokens' positions, computed in float32. `cols_multiple_of` (32: half-rows of
    whole 32-byte blocks in float32, and whole rows without DataCopyPad) is the head-dim promise."""
    return _rotary(name, dtype, block_dim, tile_length, cols_multiple_of, RotateHalf)


def _rotary(name: str, dtype: str, block_dim: int, tile_length: int, cols_multiple_of: int, rotate) -> Kernel:
    """y = x * cos + rotate(x) * sin over (rows, cols) in float32: both RoPE forms, which differ only in the
    lane permutation."""
    k = Kernel(name, block_dim=block_dim, tile_length=tile_length)
    cols = k.dim("cols", multiple_of=cols_multiple_of)
    x = Cast(k.input("x", dtype, shape=("rows", cols)), "float32")
    cos = Cast(k.input("cos_table", dtype, shape=("rows", cols)), "float32")
    sin = Cast(k.input("sin_table", dtype, shape=("rows", cols)), "float32")
    k.output("y", Cast(x * cos + rotate(x) * sin, dtype))
    return k


def rope_reference(x, cos_table, sin_table):
    xf = x.astype(np.float64)
    half = x.shape[-1] // 2
    rotated = np.concatenate([-xf[:, half:], xf[:, :half]], axis=-1)
    return {"y": (xf * cos_table.astype(np.float64) + rotated * sin_table.astype(np.float64)).astype(x.dtype)}


def rope_interleaved(name: str = "rope_interleaved", dtype: str = "float16", *, block_dim: int = 8,
                     tile_length: int = 4096, cols_multiple_of: int = 2) -> Kernel:
    """Rotary position embedding, interleaved form (GPT-J): each pair (x[2i], x[2i+1]) of a row of (rows, cols)
    = (tokens, head_dim) rotated, y[2i] = x[2i] cos - x[2i+1] sin, y[2i+1] = x[2i+1] cos + x[2i] sin, computed
    as x * cos + RotatePairs(x) * sin in float32. cos_table and sin_table are (rows, cols) tables given per
    interleaved position, as `rope` takes them (a real table holds each pair's angle twice: cos[:, 2i] ==
    cos[:, 2i+1]). `cols_multiple_of` (2: whole pairs) is the head-dim promise; 16 also runs without DataCopyPad."""
    return _rotary(name, dtype, block_dim, tile_length, cols_multiple_of, RotatePairs)


def rope_interleaved_reference(x, cos_table, sin_table):
    """The textbook pair rotation, lane by lane with each lane's own table entry."""
    xf, c, s = (t.astype(np.float64) for t in (x, cos_table, sin_table))
    y = np.empty_like(xf)
    y[:, 0::2] = xf[:, 0::2] * c[:, 0::2] - xf[:, 1::2] * s[:, 0::2]
    y[:, 1::2] = xf[:, 1::2] * c[:, 1::2] + xf[:, 0::2] * s[:, 1::2]
    return {"y": y.astype(x.dtype)}


def topk_gating(name: str = "topk_gating", dtype: str = "float16", *, k: int = 8, renormalize: bool = True,
                block_dim: int = 8, tile_length: int = 4096, cols_multiple_of: int = 1) -> Kernel:
    """Mixture-of-experts router over logits (rows, cols) = (tokens, experts): per token the k experts of
    largest logit (`indices` (rows, k) int32, descending, equal logits: the lower expert first) and their
    gates (`weights` (rows, k) float32). renormalize=True (Mixtral): softmax over the k chosen logits,
    exp(v - v_max) / sum, in float32. renormalize=False: softmax over all experts in float32, then the k
    largest probabilities, not renormalised. +-inf logits rank as +-FLT_MAX (a -inf expert is chosen only
    after every finite one; gates stay finite); a NaN logit stops the kernel (a run-time assert naming the
    row). cols >= k, asserted at run time. Without DataCopyPad (ascend310p) it runs with the experts
    promised in whole 32-byte units (`cols_multiple_of=16` for half) and k a multiple of 8."""
    kern = Kernel(name, block_dim=block_dim, tile_length=tile_length)
    x = kern.input("logits", dtype, shape=("rows", kern.dim("cols", multiple_of=cols_multiple_of)))
    xf = x if x.dtype == np.float32 else Cast(x, "float32")
    if renormalize:
        values = TopK(xf, k)
        kern.output("indices", TopKIndices(values))
        gates = Exp(values - ReduceMax(values))
        kern.output("weights", gates / ReduceSum(gates))
        return kern
    finite = Mins(Maxs(xf, -FLT_MAX), FLT_MAX)   # as TopK ranks them: +inf is FLT_MAX, not an inf - inf NaN
    e = Exp(finite - ReduceMax(finite))
    values = TopK(e / ReduceSum(e), k)
    kern.output("indices", TopKIndices(values))
    kern.output("weights", values)
    return kern


def topk_gating_reference(x, k, renormalize=True):
    """The textbook router in float64: the k largest logits per row (a stable sort: equal logits, lower
    expert first) and softmax over them (or over all experts, then the k largest, not renormalised). Logits
    are first clamped to the float32 range, the kernel's rule for +-inf; a NaN is refused (ValueError)."""
    x32 = np.asarray(x).astype(np.float32)
    if np.isnan(x32).any():
        raise ValueError(f"topk_gating_reference: row {int(np.flatnonzero(np.isnan(x32).any(axis=1))[0])} holds a "
                         "NaN logit, which has no rank (the kernel refuses it too)")
    xf = np.clip(x32, -FLT_MAX, FLT_MAX).astype(np.float64)
    if not renormalize:
        e = np.exp(xf - xf.max(axis=1, keepdims=True))
        xf = e / e.sum(axis=1, keepdims=True)
    order = np.argsort(-xf, axis=1, kind="stable")[:, :k]
    chosen = np.take_along_axis(xf, order, axis=1)
    if renormalize:
        gates = np.exp(chosen - chosen[:, :1])
        chosen = gates / gates.sum(axis=1, keepdims=True)
    return {"indices": order.astype(np.int32), "weights": chosen.astype(np.float32)}
