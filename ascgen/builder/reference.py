"""The numpy oracle: what a built kernel must compute, op by op, rounded like the device.

Each op computes in float64 (floats) or int64 (integers) from its operands and rounds the result to the
op's dtype, so float16 and bfloat16 are rounded after every operation, as the vector unit does.
Integer Add/Sub/Mul wrap around; Cast follows its round mode and saturates when converting to integers.
"""
from __future__ import annotations

import numpy as np

from ascgen.builder.ir import KernelSpec, ScalarOperand
from ascgen.builder.types import DTYPES, FLT_MAX
from ascgen.errors import SpecError

# (rtol, atol) per dtype: a few ulps for the transcendental ops, whose device results are not correctly
# rounded; exact for integers.
_TOLERANCE = {"float16": (2e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1e-5, 1e-6)}


def tolerance(dtype) -> tuple[float, float]:
    """(rtol, atol) to compare a device result of `dtype` with this reference (np.allclose style)."""
    from ascgen.builder.types import dtype as _dtype
    return _TOLERANCE.get(_dtype(dtype).name, (0.0, 0.0))


def _spec(kernel) -> KernelSpec:
    return kernel if isinstance(kernel, KernelSpec) else kernel.spec()


def evaluate(kernel, inputs: dict, scalars: dict | None = None, *, length: int | None = None) -> dict[str, np.ndarray]:
    """Outputs of `kernel` (a Kernel or KernelSpec) for numpy `inputs` {name: array} and `scalars`
    {name: number; missing ones take their declared default}. 1-D kernels take 1-D arrays; `length` is
    needed only by a kernel without inputs (its outputs come from Duplicate alone). 2-D kernels take
    (rows, cols) arrays and (cols,) vectors, and return (rows, cols), (rows,) or (rows, k) outputs."""
    spec = _spec(kernel)
    scalars = dict(scalars or {})
    values: dict[int, np.ndarray] = {}
    columns: dict[int, np.ndarray] = {}     # a TopK node's chosen columns, for its TopKIndices
    extent: int | tuple[int, int] = (_check_inputs_2d(spec, inputs) if spec.is_2d
                                     else _check_inputs(spec, inputs, length))
    for p in spec.params_of("scalar"):
        scalars.setdefault(p.name, p.default)
    unknown = set(scalars) - {p.name for p in spec.params_of("scalar")}
    if unknown:
        raise SpecError(f"kernel {spec.name!r} has no scalar parameter {sorted(unknown)[0]!r}")
    for node in spec.live_nodes():
        if node.op == "input":
            values[node.id] = np.asarray(inputs[node.input_name]).astype(DTYPES[node.dtype].np, copy=False)
        elif node.op in _REDUCE and isinstance(extent, tuple):       # reductions are 2-D only
            values[node.id] = _reduce(node, values[node.args[0]], extent)
        elif node.op == "TopK":
            values[node.id], columns[node.id] = topk(values[node.args[0]], node.lanes, node.where)
        elif node.op == "TopKIndices":
            values[node.id] = columns[node.args[0]]
        elif node.op == "Matmul" and node.tile is not None:
            values[node.id] = matmul(values[node.args[0]], values[node.args[1]], node.tile[2])
        else:
            args = [values[a] for a in node.args]
            values[node.id] = _apply(node, args, scalars, extent)
    out = {}
    for o in spec.outputs:
        value = values[o.node]
        out[o.name] = (value[:, 0] if spec.nodes[o.node].shape == "r" else value).copy()
    return out


def _check_inputs_2d(spec: KernelSpec, inputs: dict) -> tuple[int, int]:
    """(rows, cols) from the inputs' shapes (for a Matmul kernel (M, N)); every input must agree on the
    size of each dim name."""
    sizes: dict[str, set] = {d.name: set() for d in spec.dims}
    for p in spec.params_of("input"):
        if p.name not in inputs:
            raise SpecError(f"kernel {spec.name!r}: missing input {p.name!r}")
        arr = np.asarray(inputs[p.name])
        if arr.ndim != len(p.shape):
            raise SpecError(f"input {p.name!r} must have shape {p.shape!r} ({len(p.shape)}-D), got {arr.shape}")
        for name, n in zip(p.shape, arr.shape):
            sizes[name].add(n)
    bad = {name: sorted(v) for name, v in sizes.items() if len(v) != 1}
    if bad:
        raise SpecError(f"kernel {spec.name!r}: inputs disagree on ({', '.join(d.name for d in spec.dims)}): "
                        + ", ".join(f"{name} {v}" for name, v in bad.items()))
    return sizes[spec.dims[0].name].pop(), sizes[spec.dims[1].name].pop()


def matmul(a: np.ndarray, b: np.ndarray, bk: int) -> np.ndarray:
    """a x b as the cube computes it: float32 products of the half/bfloat16 operands (exact), summed left to
    right within each BK slice of K (one Mmad), the slices added to the float accumulator in order. int8
    operands accumulate in int32, exactly (wrapping like the device's int32 adds)."""
    if a.dtype == np.int8:
        return (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    out = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k0 in range(0, a.shape[1], bk):
        acc = np.zeros_like(out)
        for t in range(k0, min(k0 + bk, a.shape[1])):
            acc = acc + a32[:, t:t + 1] * b32[t:t + 1, :]
        out = out + acc
    return out


_REDUCE = ("ReduceSum", "ReduceMax", "ReduceMin", "Mean")


def _left_to_right(x: np.ndarray) -> np.ndarray:
    """Sums along the last axis, added left to right in float32 (one WholeReduceSum repeat)."""
    acc = np.zeros(x.shape[:-1], np.float32)
    for i in range(x.shape[-1]):
        acc = acc + x[..., i]
    return acc


def repeat_sum(x: np.ndarray, dtype: str) -> np.ndarray:
    """Row sums of a 2-D array as the emitted two WholeReduceSum levels compute them: each 256-byte repeat
    of a row (64 float32 or 128 float16 elements; the last one may be short) is added left to right in
    float32 and rounded to `dtype`, then the partials are added left to right in float32 and rounded to
    `dtype`. Returns shape (rows, 1)."""
    rows, cols = x.shape
    per = 256 // DTYPES[dtype].size
    full = cols // per
    x32 = x.astype(np.float32)
    parts = [_round_to(_left_to_right(x32[:, :full * per].reshape(rows, full, per)), dtype)] if full else []
    if cols % per:
        parts.append(_round_to(_left_to_right(x32[:, full * per:]), dtype)[:, None])
    partials = np.concatenate(parts, axis=1).astype(np.float32)
    return _round_to(_left_to_right(partials), dtype)[:, None]


def topk(x: np.ndarray, k: int, where: str = "") -> tuple[np.ndarray, np.ndarray]:
    """(values, columns) of the k largest lanes of each row of float32 `x`: values descending, equal values
    lower column first (a stable sort of the negated row), +-inf ranked and reported as +-FLT_MAX. A NaN
    anywhere, or fewer than k columns, is refused as the kernel refuses it."""
    rows, cols = x.shape
    if cols < k:
        raise SpecError(f"TopK at {where}: a row of {cols} columns has no {k} largest lanes (cols >= k)")
    nan_rows = np.flatnonzero(np.isnan(x).any(axis=1))
    if nan_rows.size:
        raise SpecError(f"TopK at {where}: row {int(nan_rows[0])} holds a NaN, which has no rank")
    clamped = np.clip(x.astype(np.float32), -FLT_MAX, FLT_MAX)
    order = np.argsort(-clamped, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(clamped, order, axis=1), order.astype(np.int32)


def _reduce(node, x: np.ndarray, dims: tuple[int, int]) -> np.ndarray:
    """A row reduction: shape (rows, 1). Sums accumulate in float32 and round once to the dtype (Mean then
    multiplies by 1/cols converted to the dtype, as the emitted Muls does); max and min are exact. A
    (rows, k) top-k value reduces along its k lanes."""
    dt = node.dtype
    rows, cols = x.shape if x.ndim == 2 else dims
    if cols == 0:
        raise SpecError(f"{node.op} at {node.where}: a row of 0 columns has no {node.op[6:].lower() or 'mean'}")
    if node.op == "ReduceMax":
        return x.max(axis=1, keepdims=True)
    if node.op == "ReduceMin":
        return x.min(axis=1, keepdims=True)
    total = repeat_sum(x, dt)
    if node.op == "ReduceSum":
        return total
    inv = (np.float32(1.0) / np.float32(cols)).astype(DTYPES[dt].np)
    with np.errstate(all="ignore"):
        return _round_to(_wide(total, dt) * _wide(np.asarray(inv), dt), dt)


def _check_inputs(spec: KernelSpec, inputs: dict, length: int | None) -> int:
    lengths = set() if length is None else {length}
    for p in spec.params_of("input"):
        if p.name not in inputs:
            raise SpecError(f"kernel {spec.name!r}: missing input {p.name!r}")
        arr = np.asarray(inputs[p.name])
        if arr.ndim != 1:
            raise SpecError(f"input {p.name!r} must be 1-D, got shape {arr.shape}")
        lengths.add(arr.shape[0])
    if len(lengths) > 1:
        raise SpecError(f"kernel {spec.name!r}: inputs (and length=) disagree on the length: {sorted(lengths)}")
    if not lengths:
        raise SpecError(f"kernel {spec.name!r} has no input: pass evaluate(..., length=N)")
    return lengths.pop()


def _scalar_value(op: ScalarOperand, scalars: dict, dtype: str):
    """The scalar converted to the op's element type, as `static_cast<T>(s)` does in the emitted code."""
    raw = scalars[op.param] if op.param is not None else op.literal
    if raw is None:
        raise SpecError(f"scalar parameter {op.param!r} has no value and no default: pass scalars={{{op.param!r}: ...}}")
    value = np.asarray(raw).astype(DTYPES[dtype].np) if DTYPES[dtype].is_float else np.asarray(int(raw))
    if op.negate:
        value = -value
    return value.astype(DTYPES[dtype].np)


def _round_to(x: np.ndarray, dtype: str) -> np.ndarray:
    dt = DTYPES[dtype]
    if dt.is_float:
        return x.astype(np.float32).astype(dt.np) if dtype != "float32" else x.astype(np.float32)
    return x.astype(np.int64).astype(dt.np)   # integer arithmetic wraps (two's complement), like numpy's cast


def _maximum(a, b):
    """The device's Max (docs/semantics.md, Element rules): NaN propagates, max(-0, +0) = +0 in either
    order (np.maximum returns its second argument for equal zeros)."""
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, a + b, np.maximum(a, b))      # -0 + +0 = +0, -0 + -0 = -0


def _minimum(a, b):
    """NaN propagates, min(-0, +0) = -0 in either order."""
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, -(-a + -b), np.minimum(a, b))


_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
           "Max": _maximum, "Min": _minimum}
_SCALAR = {"Adds": np.add, "Muls": np.multiply, "Maxs": _maximum, "Mins": _minimum}
_UNARY = {"Exp": np.exp, "Ln": np.log, "Abs": np.abs, "Sqrt": np.sqrt, "Reciprocal": lambda v: 1.0 / v,
          "Relu": lambda v: _maximum(v, np.zeros_like(v))}     # Relu(NaN) = NaN, Relu(-0) = +0


def _wide(x: np.ndarray, dtype: str) -> np.ndarray:
    return x.astype(np.float64) if DTYPES[dtype].is_float else x.astype(np.int64)


def _apply(node, args, scalars, length):
    dt = node.dtype
    with np.errstate(all="ignore"):
        if node.op in _BINARY:
            return _round_to(_BINARY[node.op](_wide(args[0], dt), _wide(args[1], dt)), dt)
        if node.op in _SCALAR:
            s = _wide(_scalar_value(node.scalar, scalars, dt), dt)
            return _round_to(_SCALAR[node.op](_wide(args[0], dt), s), dt)
        if node.op == "LeakyRelu":
            s = _wide(_scalar_value(node.scalar, scalars, dt), dt)
            v = _wide(args[0], dt)
            return _round_to(np.where(v >= 0, v, v * s), dt)
        if node.op in _UNARY:
            return _round_to(_UNARY[node.op](_wide(args[0], dt)), dt)
        if node.op == "RotateHalf":             # a sign flip and a copy: exact in every dtype
            half = args[0].shape[-1] // 2
            return np.concatenate([-args[0][:, half:], args[0][:, :half]], axis=-1)
        if node.op == "RotatePairs":            # a swap and a sign flip: exact in every dtype
            out = np.empty_like(args[0])
            out[:, 0::2], out[:, 1::2] = -args[0][:, 1::2], args[0][:, 0::2]
            return out
        if node.op == "Duplicate":
            return np.full(length, _scalar_value(node.scalar, scalars, dt), dtype=DTYPES[dt].np)
        if node.op == "Cast":
            from ascgen.builder.reference_cast import cast
            return cast(args[0], dt, node.round)
    raise SpecError(f"the reference has no rule for op {node.op!r} (at {node.where})")


def _input_shape(spec: KernelSpec, p, dims) -> tuple[int, ...]:
    """The array shape of input `p` for dim values `dims` (in `spec.dims` order)."""
    size = {d.name: n for d, n in zip(spec.dims, dims)}
    return tuple(size[name] for name in p.shape)


def random_inputs(kernel, length, seed: int = 0) -> dict[str, np.ndarray]:
    """Deterministic test inputs: floats of magnitude in [0.1, 2) (positive when the kernel uses Ln or Sqrt,
    which need it; random signs otherwise), small integers for integer types. `length` is an int for a 1-D
    kernel and the dim values in `kernel.dims` order for a 2-D one: (rows, cols), or (M, N, K)."""
    spec = _spec(kernel)
    rng = np.random.default_rng(seed)
    positive = any(n.op in ("Ln", "Sqrt") for n in spec.live_nodes())
    out = {}
    for p in spec.params_of("input"):
        dt = DTYPES[p.dtype]
        shape = length if not spec.is_2d else _input_shape(spec, p, length)
        if dt.is_float:
            values = rng.uniform(0.1, 2.0, shape)
            if not positive:
                values *= rng.choice([-1.0, 1.0], shape)
            out[p.name] = values.astype(np.float32).astype(dt.np)
        else:
            lo, hi = (0, 100) if p.dtype == "uint8" else (-50, 50)
            out[p.name] = rng.integers(lo, hi, shape).astype(dt.np)
    return out
