"""Describe a vector kernel in Python: GM inputs and outputs, scalar parameters, element-wise expressions.

    k = Kernel("add_relu", block_dim=8, tile_length=2048)
    x, y = k.input("x", "float16"), k.input("y", "float16")
    k.output("z", Relu(x + y))

Every declaration and op records the user's `file:line` so emitted statements and errors point back at it.
`Kernel.spec()` freezes the description into a `KernelSpec` (ascgen/builder/ir.py). See docs/builder.md.
"""
from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass

import numpy as np

from ascgen.builder.ir import TASK_SYNC_MODES, DimSpec, KernelSpec, Node, OutputSpec, ParamSpec, ScalarOperand
from ascgen.builder import shapes as _shapes
from ascgen.builder.names import _check_ident, _where
from ascgen.builder.caps import any_cast_modes, spell_round
from ascgen.builder.ops import EXACT_CASTS, OPS, ROUND_MODES, cast_targets
from ascgen.builder.types import DTYPES, SCALAR_DTYPES, DType, dtype as _dtype
from ascgen.errors import SpecError

__all__ = ["Kernel", "Tensor", "Scalar", "Param",
           "Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Maxs", "Mins", "Exp", "Ln", "Abs",
           "Sqrt", "Reciprocal", "Relu", "LeakyRelu", "Cast", "Duplicate", "RotateHalf", "RotatePairs",
           "ReduceSum", "ReduceMax", "ReduceMin", "Mean", "TopK", "TopKIndices", "Matmul", "Dim"]

_CREATION = itertools.count()


@dataclass(frozen=True)
class Param:
    """One kernel parameter in C entry order (totalLength is inserted after the last output)."""
    name: str
    kind: str            # "input" | "output" | "scalar"
    dtype: np.dtype
    ctype: str
    where: str
    default: float | int | None = None
    shape: tuple[str, ...] = ()      # 2-D kernels: dim names of a GM tensor; () otherwise


@dataclass(frozen=True)
class Dim:
    """A symbolic dimension of a 2-D kernel (`k.dim("cols", multiple_of=16)`): a uint32_t kernel argument."""
    name: str
    multiple_of: int = 1


class Scalar:
    """A scalar kernel parameter; use it as the scalar operand of Adds/Muls/Maxs/Mins/LeakyRelu."""

    def __init__(self, kernel: "Kernel", name: str, dt: DType, where: str):
        self.kernel, self.name, self.dtype, self.where = kernel, name, dt, where

    def __neg__(self):
        return _NegScalar(self)

    def __repr__(self):
        return f"Scalar({self.name!r}, {self.dtype.name})"


class _NegScalar:
    def __init__(self, scalar: Scalar):
        self.scalar = scalar


class Tensor:
    """A value of `totalLength` elements: a GM input or the result of an op."""

    def __init__(self, kernel: "Kernel", node_id: int):
        self.kernel, self.node_id = kernel, node_id

    @property
    def dtype(self) -> np.dtype:
        return DTYPES[self.kernel._nodes[self.node_id].dtype].np

    @property
    def shape(self) -> tuple[str, ...]:
        """Dim names: () for a 1-D kernel's tensors, (rows, cols), (rows,) per-row or (cols,) per-column."""
        return self.kernel._shape_names(self.kernel._nodes[self.node_id].shape)

    def _tensor_or_scalar(self, other, tensor_op: str, scalar_op: str, negate: bool = False):
        if isinstance(other, Tensor):
            return _binary(tensor_op, self, other)
        if negate:
            if isinstance(other, Scalar):
                other = _NegScalar(other)
            elif isinstance(other, numbers.Real):
                other = -other
        return _scalar_op(scalar_op, self, other)

    def __add__(self, other):
        return self._tensor_or_scalar(other, "Add", "Adds")

    def __radd__(self, other):
        return self._tensor_or_scalar(other, "Add", "Adds")

    def __sub__(self, other):
        return self._tensor_or_scalar(other, "Sub", "Adds", negate=True)

    def __mul__(self, other):
        return self._tensor_or_scalar(other, "Mul", "Muls")

    def __rmul__(self, other):
        return self._tensor_or_scalar(other, "Mul", "Muls")

    def __truediv__(self, other):
        if not isinstance(other, Tensor):
            raise SpecError(f"`tensor / scalar` at {_where()} is not offered; use Muls(x, 1 / value)")
        return _binary("Div", self, other)

    def __neg__(self):
        return _scalar_op("Muls", self, -1)

    def __bool__(self):
        raise SpecError(f"a builder Tensor has no truth value (at {_where()}); use Max/Min for comparisons")

    def __repr__(self):
        node = self.kernel._nodes[self.node_id]
        return f"Tensor({node.op}, {node.dtype}, {node.where})"


class Kernel:
    """A vector kernel under construction. See docs/builder.md."""

    def __init__(self, name: str, *, block_dim: int = 8, tile_length: int = 2048, buffer_num: int = 2,
                 task_sync: str = "both"):
        where = _where()
        self.name = _check_ident(name, "kernel", where)
        if not isinstance(block_dim, int) or isinstance(block_dim, bool) or block_dim < 1:
            raise SpecError(f"kernel {name!r} at {where}: block_dim must be an integer >= 1, got {block_dim!r}")
        if not isinstance(tile_length, int) or isinstance(tile_length, bool) or tile_length < 1:
            raise SpecError(f"kernel {name!r} at {where}: tile_length must be an integer >= 1, got {tile_length!r}")
        if buffer_num not in (1, 2) or isinstance(buffer_num, bool):
            raise SpecError(f"kernel {name!r} at {where}: buffer_num must be 1 (single buffering) or 2 "
                            f"(double buffering), got {buffer_num!r}")
        if task_sync not in TASK_SYNC_MODES:
            raise SpecError(f"kernel {name!r} at {where}: task_sync must be one of {', '.join(TASK_SYNC_MODES)}, "
                            f"got {task_sync!r}")
        self.block_dim, self.tile_length, self.buffer_num, self.task_sync = block_dim, tile_length, buffer_num, task_sync
        self.source = where
        self._order = next(_CREATION)
        self._params: list[ParamSpec] = []
        self._nodes: list[Node] = []
        self._outputs: list[OutputSpec] = []
        self._scalars: dict[str, Scalar] = {}
        self._dims: list[DimSpec] = []          # (rows, cols) once a 2-D input is declared
        self._declared: dict[str, DimSpec] = {}  # k.dim(...) declarations not yet used by a shape
        self._flat_inputs = False               # an input without shape makes the kernel 1-D
        self._matmul_done = False               # Matmul(a, b) was called (the kernel is a MIX kernel)
        self._topk: int | None = None           # TopK(x, k) was called: its k

    # ---- declarations ----
    def _new_param_name(self, name, what: str, where: str) -> str:
        _check_ident(name, what, where)
        if name == self.name or any(p.name == name for p in self._params):
            raise SpecError(f"kernel {self.name!r}: {what} name {name!r} at {where} is already used")
        return name

    def input(self, name: str, dtype, shape=None) -> Tensor:
        """A GM input: 1-D (`totalLength` elements) without `shape`; with shape=("rows", "cols") a row-major
        2-D tensor, with shape=("cols",) a per-column vector broadcast over every row."""
        where = _where()
        self._new_param_name(name, "input", where)
        dt = _dtype(dtype, where)
        kind, names = _shapes.input_shape(self, shape, name, where)
        self._params.append(ParamSpec(name, "input", dt.name, where, shape=names))
        return self._add_node(Node(len(self._nodes), "input", dt.name, name=name, where=where, shape=kind))

    def dim(self, name: str, *, multiple_of: int = 1) -> Dim:
        """Declare a symbolic dim with a promise about its values (`multiple_of`); use it in `shape=`."""
        where = _where()
        _check_ident(name, "dim", where)
        if not isinstance(multiple_of, int) or isinstance(multiple_of, bool) or multiple_of < 1:
            raise SpecError(f"dim {name!r} at {where}: multiple_of must be an integer >= 1, got {multiple_of!r}")
        if name in self._declared or any(d.name == name for d in self._dims):
            raise SpecError(f"kernel {self.name!r}: dim {name!r} at {where} is already declared")
        self._declared[name] = DimSpec(name, multiple_of, where)
        return Dim(name, multiple_of)

    def _shape_names(self, kind: str | None) -> tuple[str, ...]:
        names = [d.name for d in self._dims] + ["", "", ""]
        if self._matmul_done:                # dims are (M, N, K): the epilogue is over (M, N)
            m, n, k = names[:3]
            return {None: (), "rc": (m, n), "r": (m,), "c": (n,), "mk": (m, k), "kn": (k, n)}[kind]
        rows, cols, third = names[:3]
        lanes = str(self._topk)         # a (rows, k) tensor's second extent is the literal k
        return {None: (), "rc": (rows, cols), "r": (rows,), "c": (cols,), "kn": (cols, third), "rk": (rows, lanes)}[kind]

    def scalar(self, name: str, dtype="float32", default=None) -> Scalar:
        where = _where()
        self._new_param_name(name, "scalar", where)
        dt = _dtype(dtype, where)
        if dt.name not in SCALAR_DTYPES:
            raise SpecError(f"scalar {name!r} at {where}: dtype {dt.name} is not offered for scalar parameters; "
                            f"use {' or '.join(SCALAR_DTYPES)} (it is converted to each op's element type)")
        if default is None:
            default = 1.0 if dt.is_float else 1
        if not isinstance(default, numbers.Real) or isinstance(default, bool):
            raise SpecError(f"scalar {name!r} at {where}: default must be a number, got {default!r}")
        default = float(default) if dt.is_float else int(math.trunc(default))
        self._params.append(ParamSpec(name, "scalar", dt.name, where, default))
        scalar = Scalar(self, name, dt, where)
        self._scalars[name] = scalar
        return scalar

    def output(self, name: str, expr: Tensor, dtype=None) -> Tensor:
        where = _where()
        self._new_param_name(name, "output", where)
        if not isinstance(expr, Tensor):
            raise SpecError(f"output {name!r} at {where}: the value must be a builder expression, got {expr!r}")
        self._own(expr, "output", where)
        node = self._nodes[expr.node_id]
        if dtype is not None and _dtype(dtype, where).name != node.dtype:
            raise SpecError(f"output {name!r} at {where}: declared {_dtype(dtype, where).name} but the expression "
                            f"is {node.dtype}; hint: wrap it in Cast(..., {_dtype(dtype, where).name!r})")
        if node.shape == "c":
            raise SpecError(f"output {name!r} at {where}: a per-column vector cannot be an output of a 2-D kernel "
                            "(every core would write it); output a (rows, cols) or per-row value")
        self._params.append(ParamSpec(name, "output", node.dtype, where, shape=self._shape_names(node.shape)))
        self._outputs.append(OutputSpec(name, expr.node_id, where))
        return expr

    # ---- internals used by the op functions ----
    def _add_node(self, node: Node) -> Tensor:
        self._nodes.append(node)
        return Tensor(self, node.id)

    def _own(self, t: Tensor, op: str, where: str) -> None:
        if t.kernel is not self:
            raise SpecError(f"{op} at {where}: operand belongs to kernel {t.kernel.name!r}, not {self.name!r}")

    # ---- public views ----
    @property
    def params(self) -> tuple[Param, ...]:
        order = {"input": 0, "output": 1, "scalar": 2}
        ordered = sorted(self._params, key=lambda p: order[p.kind])   # stable: declaration order per kind
        return tuple(Param(p.name, p.kind, DTYPES[p.dtype].np, DTYPES[p.dtype].ctype, p.where, p.default, p.shape)
                     for p in ordered)

    @property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind == "input")

    @property
    def outputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind == "output")

    @property
    def scalars(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind == "scalar")

    @property
    def length_index(self) -> int:
        """Position of `uint32_t totalLength` (2-D kernels: of the first dim) in the C entry's parameters."""
        return len(self.inputs) + len(self.outputs)

    @property
    def dims(self) -> tuple[str, ...]:
        """The dim arguments of a 2-D kernel, in entry order (rows, cols); () for a 1-D kernel."""
        return tuple(d.name for d in self._dims)

    def spec(self) -> KernelSpec:
        if not self._outputs:
            raise SpecError(f"kernel {self.name!r} at {self.source} has no output; add k.output(name, expr)")
        params = tuple(sorted(self._params, key=lambda p: {"input": 0, "output": 1, "scalar": 2}[p.kind]))
        return KernelSpec(self.name, self.block_dim, self.tile_length, self.buffer_num, self.task_sync,
                          params, tuple(self._nodes), tuple(self._outputs), self.source, tuple(self._dims))

    def __repr__(self):
        return f"Kernel({self.name!r}, block_dim={self.block_dim}, params={[p.name for p in self.params]})"


# ---- ops ----
def _need_tensor(value, op: str, where: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise SpecError(f"{op} at {where}: expected a builder tensor, got {value!r}")
    return value


def _check_dtype(op: str, dt: str, where: str) -> None:
    allowed = OPS[op].dtypes
    if dt not in allowed:
        raise SpecError(f"{op} at {where} does not support {dt}; supported: {', '.join(allowed)}"
                        + ("; hint: Cast to float32 first" if "float32" in allowed else ""))


def _binary(op: str, a, b) -> Tensor:
    where = _where()
    a, b = _need_tensor(a, op, where), _need_tensor(b, op, where)
    a.kernel._own(b, op, where)
    da, db = a.kernel._nodes[a.node_id].dtype, a.kernel._nodes[b.node_id].dtype
    if da != db:
        raise SpecError(f"{op} at {where}: operand dtypes differ ({da} and {db}); hint: Cast one of them")
    _check_dtype(op, da, where)
    k = a.kernel
    shape = _shapes.broadcast(op, k._nodes[a.node_id].shape, k._nodes[b.node_id].shape, where)
    return k._add_node(Node(len(k._nodes), op, da, (a.node_id, b.node_id), where=where, shape=shape))


def _scalar_operand(value, kernel: Kernel, op: str, dt: str, where: str) -> ScalarOperand:
    negate = False
    if isinstance(value, _NegScalar):
        value, negate = value.scalar, True
    if isinstance(value, Scalar):
        if value.kernel is not kernel:
            raise SpecError(f"{op} at {where}: scalar {value.name!r} belongs to kernel {value.kernel.name!r}")
        return ScalarOperand(param=value.name, negate=negate)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SpecError(f"{op} at {where}: the scalar operand must be a number or a k.scalar(...), got {value!r}")
    if not math.isfinite(value):
        raise SpecError(f"{op} at {where}: the scalar operand must be finite, got {value!r}")
    if not DTYPES[dt].is_float:
        whole = int(math.trunc(value))
        if value != whole:
            raise SpecError(f"{op} at {where}: {value!r} is not an integer but the operand is {dt}")
        info = np.iinfo(DTYPES[dt].np)
        if not info.min <= whole <= info.max:
            raise SpecError(f"{op} at {where}: {value!r} does not fit in {dt} [{info.min}, {info.max}]")
        return ScalarOperand(literal=whole)
    return ScalarOperand(literal=float(value))


def _scalar_op(op: str, a, s) -> Tensor:
    where = _where()
    a = _need_tensor(a, op, where)
    dt = a.kernel._nodes[a.node_id].dtype
    _check_dtype(op, dt, where)
    operand = _scalar_operand(s, a.kernel, op, dt, where)
    k = a.kernel
    shape = _shapes.elementwise(op, k._nodes[a.node_id].shape, where)
    return k._add_node(Node(len(k._nodes), op, dt, (a.node_id,), scalar=operand, where=where, shape=shape))


def _unary(op: str, a) -> Tensor:
    where = _where()
    a = _need_tensor(a, op, where)
    dt = a.kernel._nodes[a.node_id].dtype
    _check_dtype(op, dt, where)
    k = a.kernel
    shape = _shapes.elementwise(op, k._nodes[a.node_id].shape, where)
    return k._add_node(Node(len(k._nodes), op, dt, (a.node_id,), where=where, shape=shape))


def Add(a, b): return _binary("Add", a, b)            # noqa: E704
def Sub(a, b): return _binary("Sub", a, b)            # noqa: E704
def Mul(a, b): return _binary("Mul", a, b)            # noqa: E704
def Div(a, b): return _binary("Div", a, b)            # noqa: E704
def Max(a, b): return _binary("Max", a, b)            # noqa: E704
def Min(a, b): return _binary("Min", a, b)            # noqa: E704
def Adds(a, s): return _scalar_op("Adds", a, s)       # noqa: E704
def Muls(a, s): return _scalar_op("Muls", a, s)       # noqa: E704
def Maxs(a, s): return _scalar_op("Maxs", a, s)       # noqa: E704
def Mins(a, s): return _scalar_op("Mins", a, s)       # noqa: E704
def LeakyRelu(a, slope): return _scalar_op("LeakyRelu", a, slope)   # noqa: E704
def Exp(a): return _unary("Exp", a)                   # noqa: E704
def Ln(a): return _unary("Ln", a)                     # noqa: E704
def Abs(a): return _unary("Abs", a)                   # noqa: E704
def Sqrt(a): return _unary("Sqrt", a)                 # noqa: E704
def Reciprocal(a): return _unary("Reciprocal", a)     # noqa: E704
def Relu(a): return _unary("Relu", a)                 # noqa: E704


def RotateHalf(a) -> Tensor:
    """RoPE's rotate_half over each row of a (rows, cols) tensor: [-x[:, cols/2:], x[:, :cols/2]]. cols must be
    even with half a row a whole number of 32-byte blocks (the kernel asserts it at run time)."""
    return _rotate("RotateHalf", a, _where())


def RotatePairs(a) -> Tensor:
    """Interleaved RoPE's pair rotation over each row of a (rows, cols) tensor: [-x1, x0, -x3, x2, ...] (lane
    2i gets -x[2i+1], lane 2i+1 gets x[2i]). cols must be even (the kernel asserts it at run time)."""
    return _rotate("RotatePairs", a, _where())


def _rotate(op: str, a, where: str) -> Tensor:
    a = _need_tensor(a, op, where)
    k = a.kernel
    node = k._nodes[a.node_id]
    _check_dtype(op, node.dtype, where)
    if node.shape != "rc":
        what = "a 1-D kernel's tensor" if node.shape is None else _shapes.describe(node.shape)
        raise SpecError(f"{op} at {where}: rotates within each row of a (rows, cols) tensor, got {what}")
    return k._add_node(Node(len(k._nodes), op, node.dtype, (a.node_id,), where=where, shape="rc"))


def Cast(a, dtype, round: str = "rint") -> Tensor:  # noqa: A002 - the Ascend C name
    """Convert to `dtype` with a round mode: none, rint, floor, ceil, round, trunc, odd (docs/builder.md)."""
    where = _where()
    a = _need_tensor(a, "Cast", where)
    src = a.kernel._nodes[a.node_id].dtype
    dst = _dtype(dtype, where).name
    if round not in ROUND_MODES:
        raise SpecError(f"Cast at {where}: unknown round mode {round!r}; use one of {', '.join(ROUND_MODES)}")
    if src == dst and src != "float32":
        raise SpecError(f"Cast at {where}: the operand is already {dst}")
    offered = any_cast_modes(src, dst)
    if offered is None:
        targets = cast_targets(src)
        raise SpecError(f"Cast at {where}: {src} -> {dst} is not offered; from {src} you can cast to "
                        f"{', '.join(targets) or 'nothing'} (cast through float16/float32)")
    exact = (src, dst) in EXACT_CASTS
    if exact:
        round = "none"         # a widening conversion has one mode; accept whatever was asked
    elif spell_round(offered, round, exact) is None:
        raise SpecError(f"Cast at {where}: round mode {round!r} is not offered for {src} -> {dst}; "
                        f"use one of {', '.join(offered)}")
    k = a.kernel
    shape = _shapes.elementwise("Cast", k._nodes[a.node_id].shape, where)
    return k._add_node(Node(len(k._nodes), "Cast", dst, (a.node_id,), round=round, where=where, shape=shape))


def Duplicate(kernel_or_like, value, dtype=None) -> Tensor:
    """A tensor filled with `value`: Duplicate(k, 0.5, "float16") or Duplicate(x, 0.5) (dtype of x)."""
    where = _where()
    if isinstance(kernel_or_like, Tensor):
        kernel = kernel_or_like.kernel
        dt = kernel._nodes[kernel_or_like.node_id].dtype if dtype is None else _dtype(dtype, where).name
    elif isinstance(kernel_or_like, Kernel):
        kernel = kernel_or_like
        if dtype is None:
            raise SpecError(f"Duplicate at {where}: give the dtype: Duplicate(k, value, 'float16')")
        dt = _dtype(dtype, where).name
    else:
        raise SpecError(f"Duplicate at {where}: the first argument is the kernel or a tensor, got {kernel_or_like!r}")
    _check_dtype("Duplicate", dt, where)
    if kernel._dims:
        raise SpecError(f"Duplicate at {where}: not offered in a 2-D kernel; use a scalar operand instead "
                        "(x * 0 + value, or Adds/Muls with the value)")
    operand = _scalar_operand(value, kernel, "Duplicate", dt, where)
    return kernel._add_node(Node(len(kernel._nodes), "Duplicate", dt, (), scalar=operand, where=where))



# ---- row reductions (2-D kernels): one value per row ----
def _reduce(op: str, a, axis) -> Tensor:
    where = _where()
    a = _need_tensor(a, op, where)
    k = a.kernel
    node = k._nodes[a.node_id]
    _shapes.check_reduction(op, node.shape, axis, where)
    _check_dtype(op, node.dtype, where)
    return k._add_node(Node(len(k._nodes), op, node.dtype, (a.node_id,), where=where, shape="r"))


def ReduceSum(a, axis=-1): return _reduce("ReduceSum", a, axis)   # noqa: E704
def ReduceMax(a, axis=-1): return _reduce("ReduceMax", a, axis)   # noqa: E704
def ReduceMin(a, axis=-1): return _reduce("ReduceMin", a, axis)   # noqa: E704
def Mean(a, axis=-1): return _reduce("Mean", a, axis)             # noqa: E704


# ---- top-k (2-D kernels): the k largest lanes of each row ----
TOPK_MAX = 64          # k lanes of float32 fit one 256-byte repeat: the gate's row reductions stay one level


def TopK(a, k: int) -> Tensor:
    """The k largest values of each row of a float32 (rows, cols) tensor, in descending order: a (rows, k)
    float32 tensor. Equal values: the lower column first. +-inf rank (and are reported) as +-FLT_MAX; a row
    holding a NaN stops the kernel (a run-time assert naming the row); cols >= k is asserted at run time.
    `TopKIndices(values)` gives the selected columns (int32). One TopK per kernel. See docs/builder.md "Top-k"."""
    where = _where()
    a = _need_tensor(a, "TopK", where)
    kern = a.kernel
    node = kern._nodes[a.node_id]
    if node.shape != "rc":
        what = "a 1-D kernel's tensor" if node.shape is None else _shapes.describe(node.shape)
        raise SpecError(f"TopK at {where}: selects within each row of a (rows, cols) tensor, got {what}")
    if node.dtype != "float32":
        raise SpecError(f"TopK at {where}: takes float32 values, got {node.dtype}; hint: Cast(x, 'float32') first")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= TOPK_MAX:
        raise SpecError(f"TopK at {where}: k must be an integer in [1, {TOPK_MAX}] (the k lanes of a row are one "
                        f"256-byte repeat of float32), got {k!r}")
    if kern._topk is not None or kern._matmul_done:
        other = "a TopK" if kern._topk is not None else "a Matmul"
        raise SpecError(f"TopK at {where}: kernel {kern.name!r} already has {other}; one TopK per kernel, "
                        "without Matmul (chain kernels in a SuperKernel)")
    kern._topk = k
    return kern._add_node(Node(len(kern._nodes), "TopK", "float32", (a.node_id,), where=where, shape="rk", k=k))


def TopKIndices(values) -> Tensor:
    """The int32 column of each lane a TopK selected: (rows, k), in the order of its values."""
    where = _where()
    values = _need_tensor(values, "TopKIndices", where)
    node = values.kernel._nodes[values.node_id]
    if node.op != "TopK":
        raise SpecError(f"TopKIndices at {where}: the operand is the result of TopK(x, k), got {node.op} at "
                        f"{node.where}")
    kern = values.kernel
    return kern._add_node(Node(len(kern._nodes), "TopKIndices", "int32", (node.id,), where=where, shape="rk",
                               k=node.k))


# ---- Matmul (a MIX kernel: the cube computes a x b, the vector cores run the epilogue) ----
MATMUL_DTYPES = ("float16", "bfloat16", "int8")
# The cube's accumulator per operand dtype: float for half / bfloat16, int32 for int8.
MATMUL_ACC = {"float16": "float32", "bfloat16": "float32", "int8": "int32"}


def Matmul(a, b, *, tile=(128, 128, 64)) -> Tensor:
    """a (M, K) x b (K, N) -> float32 (M, N), accumulated in float on the cube unit. `a` and `b` are inputs
    (shape=("M", "K") then shape=("K", "N")); the result takes element-wise ops, per-column vectors
    (declared after this call, shape=("N",)) and scalars as its epilogue. `tile` = (BM, BN, BK): the cube
    tile, multiples of 16. See docs/builder.md "Matmul"."""
    where = _where()
    a, b = _need_tensor(a, "Matmul", where), _need_tensor(b, "Matmul", where)
    k = a.kernel
    k._own(b, "Matmul", where)
    na, nb = k._nodes[a.node_id], k._nodes[b.node_id]
    if k._matmul_done:
        raise SpecError(f"Matmul at {where}: kernel {k.name!r} already has a Matmul; one per kernel "
                        "(chain kernels in a SuperKernel)")
    if k._topk is not None:
        raise SpecError(f"Matmul at {where}: kernel {k.name!r} has a TopK; a Matmul kernel has none "
                        "(chain kernels in a SuperKernel)")
    if na.op != "input" or nb.op != "input" or na.shape != "rc" or nb.shape != "kn":
        raise SpecError(f"Matmul at {where}: the operands are inputs declared with shape=(M, K) and then "
                        "shape=(K, N), used as they are (no prologue ops)")
    if na.dtype != nb.dtype or na.dtype not in MATMUL_DTYPES:
        raise SpecError(f"Matmul at {where}: operands are {na.dtype} and {nb.dtype}; the cube takes "
                        f"{', '.join(MATMUL_DTYPES)} for both")
    others = [n for n in k._nodes if n.id not in (a.node_id, b.node_id) and n.shape is not None]
    if others:
        raise SpecError(f"Matmul at {where}: {others[0].op} at {others[0].where} comes before it; a Matmul "
                        "kernel computes nothing else from its operands: declare the epilogue after Matmul")
    if (not isinstance(tile, tuple) or len(tile) != 3
            or any(not isinstance(t, int) or isinstance(t, bool) or t < 16 or t % 16 for t in tile)):
        raise SpecError(f"Matmul at {where}: tile must be (BM, BN, BK), positive multiples of 16, got {tile!r}")
    m, kk, n = k._dims
    k._dims = [m, n, kk]                  # the epilogue is over (M, N); K is the third dim argument
    k._matmul_done = True
    k._nodes[a.node_id] = _replace_shape(na, "mk")
    acc = MATMUL_ACC[na.dtype]
    result = k._add_node(Node(len(k._nodes), "Matmul", acc, (a.node_id, b.node_id), where=where,
                              shape="rc", tile=tile))
    # The cube hands its tiles to the vector cores through GM: an output named "workspace" (the float32
    # product, int32 for int8 operands), so callers allocate it like any output and tests can compare it.
    k._params.append(ParamSpec("workspace", "output", acc, where, shape=(m.name, n.name)))
    k._outputs.append(OutputSpec("workspace", result.node_id, where))
    return result


def _replace_shape(node: Node, shape: str) -> Node:
    from dataclasses import replace
    return replace(node, shape=shape)
