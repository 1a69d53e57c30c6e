"""Shapes of 2-D builder kernels: which operand shapes combine, and what they give.

A 2-D kernel has two symbolic dims (rows, cols) and three value shapes:
* "rc": rows x cols, row-major (the GM inputs declared with shape=(rows, cols), and what follows from them);
* "r":  one value per row (a row reduction: ReduceMax(x, axis=-1)), broadcast over its row when combined
        with an "rc" value;
* "c":  one value per column (an input declared with shape=(cols,)), broadcast over every row;
* "rk": rows x k, the k lanes TopK(x, k) selects per row; combines with itself and with per-row values, and
        reduces along its k lanes like an "rc" tensor along its cols.
A 1-D kernel's values have no shape (None) and never meet these.
"""
from __future__ import annotations

from ascgen.builder.ir import DimSpec
from ascgen.errors import SpecError

_NAMES = {"rc": "a (rows, cols) tensor", "r": "a per-row value", "c": "a per-column vector",
          "mk": "a Matmul operand", "kn": "a Matmul operand", "rk": "a (rows, k) top-k tensor"}


def _dim_name(d, where: str) -> str:
    name = getattr(d, "name", d)
    if not isinstance(name, str):
        raise SpecError(f"shape at {where}: dims are names (str) or k.dim(...) objects, got {d!r}")
    return name


def input_shape(kernel, shape, name: str, where: str) -> tuple[str | None, tuple[str, ...]]:
    """(node shape, dim names) of a new input; fixes the kernel's (rows, cols) at its first 2-D input."""
    if shape is None:
        if kernel._dims:
            raise SpecError(f"input {name!r} at {where}: kernel {kernel.name!r} is 2-D ({', '.join(kernel.dims)}); "
                            "give its shape: shape=(rows, cols) or shape=(cols,)")
        kernel._flat_inputs = True
        return None, ()
    if not isinstance(shape, (tuple, list)) or len(shape) not in (1, 2):
        raise SpecError(f"input {name!r} at {where}: shape must be (rows, cols) or (cols,), got {shape!r}")
    if kernel._flat_inputs:
        raise SpecError(f"input {name!r} at {where}: kernel {kernel.name!r} already has 1-D inputs (no shape); "
                        "a kernel is either 1-D or 2-D")
    names = tuple(_dim_name(d, where) for d in shape)
    if len(names) == 2:
        if names[0] == names[1]:
            raise SpecError(f"input {name!r} at {where}: rows and cols need two different dim names, got {names!r}")
        if not kernel._dims:
            _fix_dims(kernel, names, shape, where)
        elif _is_matmul_rhs(kernel, names):
            _add_dim(kernel, names[1], shape[1], where)
            return "kn", names
        elif names != kernel.dims[:2]:
            hint = (" (declare the epilogue's inputs after Matmul(...))" if _awaiting_matmul(kernel)
                    else "; every 2-D tensor of a kernel has the same (rows, cols)")
            raise SpecError(f"input {name!r} at {where}: shape {names!r} differs from the kernel's "
                            f"{kernel.dims[:2]!r}{hint}")
        return "rc", names
    if not kernel._dims:
        raise SpecError(f"input {name!r} at {where}: declare a (rows, cols) input before a per-column vector")
    if names[0] != kernel.dims[1] or _awaiting_matmul(kernel):
        if _awaiting_matmul(kernel):
            raise SpecError(f"input {name!r} at {where}: declare the epilogue's per-column vectors after "
                            f"Matmul(...) (the epilogue is over ({kernel.dims[0]}, {kernel.dims[2]}))")
        hint = " (per-row inputs are not offered)" if names[0] == kernel.dims[0] else ""
        raise SpecError(f"input {name!r} at {where}: a 1-D input of a 2-D kernel is a per-column vector "
                        f"shape=({kernel.dims[1]!r},), got {names!r}{hint}")
    return "c", names


def _fix_dims(kernel, names, shape, where: str) -> None:
    from ascgen.builder.names import _check_ident
    dims = []
    for n, d in zip(names, shape):
        spec = kernel._declared.get(n)
        if spec is None:
            _check_ident(n, "dim", where)
            spec = DimSpec(n, getattr(d, "multiple_of", 1), where)
        dims.append(spec)
    for spec in dims:
        if spec.name == kernel.name or any(p.name == spec.name for p in kernel._params):
            raise SpecError(f"kernel {kernel.name!r}: dim name {spec.name!r} at {where} is already a parameter")
    kernel._dims = dims


def _awaiting_matmul(kernel) -> bool:
    """Matmul operands are declared, the Matmul call is not made yet."""
    return len(kernel._dims) == 3 and not kernel._matmul_done


def _is_matmul_rhs(kernel, names) -> bool:
    """(K, N) after an (M, K) input: the right-hand operand of a Matmul (the only 2-D shape that may differ)."""
    rows, cols = kernel.dims[0], kernel.dims[1]
    return (len(kernel._dims) == 2 and not kernel._matmul_done and names[0] == cols
            and names[1] not in (rows, cols))


def _add_dim(kernel, name: str, d, where: str) -> None:
    from ascgen.builder.names import _check_ident
    spec = kernel._declared.get(name)
    if spec is None:
        _check_ident(name, "dim", where)
        spec = DimSpec(name, getattr(d, "multiple_of", 1), where)
    if any(p.name == name for p in kernel._params):
        raise SpecError(f"kernel {kernel.name!r}: dim name {name!r} at {where} is already a parameter")
    kernel._dims.append(spec)


def broadcast(op: str, a: str | None, b: str | None, where: str) -> str | None:
    """The shape of a binary op's result."""
    if "mk" in (a, b) or "kn" in (a, b):
        raise SpecError(f"{op} at {where}: a Matmul operand is used by Matmul only (no prologue ops)")
    if a == b and a != "c":
        return a
    pair = {a, b}
    if pair in ({"rc", "r"}, {"rc", "c"}, {"r", "c"}):
        return "rc"
    if pair == {"rk", "r"}:
        return "rk"
    what_a, what_b = (_NAMES.get(s, s) if s is not None else "a 1-D kernel's tensor" for s in (a, b))
    raise SpecError(f"{op} at {where}: {what_a} and {what_b} do not combine; "
                    "per-column vectors are only used against (rows, cols) tensors or per-row values; (rows, k) "
                    "top-k tensors against (rows, k) tensors or per-row values")


def extent(name: str, sizes: dict[str, int]) -> int:
    """The size of one dim of a GM tensor: a dim argument's value, or the literal k of a (rows, k) output."""
    return int(name) if name.isdigit() else sizes[name]


def describe(shape: str) -> str:
    """A shape class in words, for errors."""
    return _NAMES.get(shape, shape)


def elementwise(op: str, a: str | None, where: str) -> str | None:
    """Unary, scalar and Cast ops keep their operand's shape; per-column vectors are used as loaded."""
    if a in ("mk", "kn"):
        raise SpecError(f"{op} at {where}: a Matmul operand is used by Matmul only (no prologue ops)")
    if a == "c":
        raise SpecError(f"{op} at {where}: computing on a per-column vector is not offered (it is loaded once "
                        "and used as is); declare the input with the dtype and values you need")
    return a


def check_reduction(op: str, a: str | None, axis, where: str) -> None:
    if axis not in (-1, 1):
        raise SpecError(f"{op} at {where}: axis={axis!r} is not offered; rows are reduced along axis=-1 (cols)")
    if a == "rk" and op == "Mean":
        raise SpecError(f"{op} at {where}: the mean of a (rows, k) top-k tensor is not offered; use "
                        "ReduceSum(x) * (1 / k)")
    if a not in ("rc", "rk"):
        what = "a 1-D kernel's tensor" if a is None else _NAMES[a]
        raise SpecError(f"{op} at {where}: reduces a (rows, cols) tensor along its rows, got {what} (a (rows, k) "
                        "top-k tensor reduces along its k lanes too)")
