"""Tiling-key coverage: over a sweep of shapes, the keys an op's host tiling produces against the keys its
kernel handles (ops/keys.py). Tiling only, no kernel launch: each shape costs one run of the tiling runner,
and the kernel source is read once per binary (per dtype macros).

`coverage(op, requests)` runs every request (`Request(inputs, outputs, attrs)`, tensors as `op.tiling`
takes them) and returns a `Coverage`: the keys produced with the first request producing each, the keys
the kernel handles, the produced-but-unhandled ones (each an error naming the op, product, shapes, dtypes
and attributes), the handled-but-never-produced ones (informational), and the requests the op itself
rejected (its own error message: a shape it does not support produces no key). An op whose tiling sources
do not build raises that error once, before any shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ascgen.errors import KernelCrashError, SpecError
from ascgen.ops import host_build, kernel, keys
from ascgen.ops.host_tiling import TensorSpec
from ascgen.ops.op import Op


@dataclass(frozen=True)
class Request:
    """One tiling call: the inputs (None: an optional input left out), the outputs, the attributes."""
    inputs: tuple
    outputs: tuple
    attrs: tuple = ()                 # (name, value) pairs

    @classmethod
    def of(cls, inputs, outputs, attrs: dict | None = None) -> "Request":
        return cls(tuple(inputs), tuple(outputs), tuple(sorted((attrs or {}).items())))

    def describe(self, op: Op) -> str:
        """`x1 8x256 DT_FLOAT16, x2 ..., gamma 256 DT_FLOAT16; epsilon=1e-06`: what produced a key."""
        d = op.definition
        tensors = [f"{d.input_name(i)} " + ("(left out)" if t is None else _tensor(t, f"input {i}"))
                   for i, t in enumerate(self.inputs)]
        text = ", ".join(tensors)
        return text + ("; " + ", ".join(f"{k}={v}" for k, v in self.attrs) if self.attrs else "")


@dataclass
class Uncovered:
    key: int
    request: Request
    reading: keys.KernelKeys
    message: str


@dataclass
class Coverage:
    op: Op
    produced: dict = field(default_factory=dict)       # key -> the first Request producing it
    readings: list = field(default_factory=list)       # KernelKeys of every binary the requests reached
    uncovered: list = field(default_factory=list)      # Uncovered: produced, no branch takes it
    unknown: list = field(default_factory=list)        # Uncovered whose verdict a key use not followed leaves open
    rejected: list = field(default_factory=list)       # (Request, the op's first error line)
    requests: int = 0

    def handled(self) -> list[int] | None:
        """Every key some binary handles, or None when one of them takes any key."""
        out: set[int] = set()
        for reading in self.readings:
            listed = reading.handled_keys()
            if listed is None:
                return None
            out |= set(listed)
        return sorted(out)

    def never_produced(self) -> list[int]:
        """Keys the kernel handles that no request produced (informational: the sweep's reach)."""
        return sorted(set(self.handled() or ()) - set(self.produced))

    @property
    def ok(self) -> bool:
        return not self.uncovered

    def summary(self) -> str:
        d = self.op.definition
        handled = self.handled()
        return (f"{d.op_type} on {self.op.product.id}: {self.requests} shape(s), {len(self.rejected)} rejected by "
                f"the op; keys produced {sorted(self.produced) or 'none'}; kernel handles "
                f"{'any key' if handled is None else keys.listing(handled)}; uncovered "
                f"{sorted({u.key for u in self.uncovered}) or 'none'}"
                + (f"; unknown {sorted({u.key for u in self.unknown})}" if self.unknown else ""))


def coverage(op: Op, requests: Iterable[Request]) -> Coverage:
    """Run the op's tiling for every request and check each key it produces against its kernel."""
    result = Coverage(op)
    seen: dict = {}                                    # KernelBuild -> KernelKeys
    host_build.runner(op.op_dir, op.product)           # an op whose tiling does not build fails here, once
    for request in requests:
        result.requests += 1
        ins = [None if t is None else TensorSpec.of(t, f"{op.definition.op_type} input {i}")
               for i, t in enumerate(request.inputs)]
        outs = [TensorSpec.of(t, f"{op.definition.op_type} output {i}") for i, t in enumerate(request.outputs)]
        try:
            tiling = op.tiling(*ins, outputs=outs, **dict(request.attrs))
        except (SpecError, KernelCrashError) as exc:     # the op's own refusal, or a definition mismatch
            result.rejected.append((request, _first_line(exc)))
            continue
        build = kernel.kernel_build(op.op_dir, op.product, op.definition, ins, outs, op.defines)
        if build not in seen:
            seen[build] = keys.read(build, op.product)
            result.readings.append(seen[build])
        _record(result, tiling.tiling_key, request, seen[build])
    return result


def _record(result: Coverage, key: int, request: Request, reading: keys.KernelKeys) -> None:
    first = key not in result.produced
    result.produced.setdefault(key, request)
    verdict = reading.handles(key)
    if verdict is True or not first and any(u.key == key and u.reading is reading
                                            for u in result.uncovered + result.unknown):
        return
    d, op = result.op.definition, result.op
    where = f"{d.op_type} on {op.product.id}: tiling key {key}, produced for {request.describe(op)}"
    if verdict is False:
        message = f"{where}, has no branch in {reading.source}: {reading.why_not(key)}"
        result.uncovered.append(Uncovered(key, request, reading, message))
    else:
        message = (f"{where}: no test in {reading.source} names it, and a key use ascgen does not follow may "
                   f"take it ({reading.unread[0]})")
        result.unknown.append(Uncovered(key, request, reading, message))


def _tensor(t: Any, where: str) -> str:
    spec = TensorSpec.of(t, where)
    shape = "x".join(map(str, spec.shape)) or "scalar"
    return f"{shape} {spec.dtype}" + ("" if spec.format == "FORMAT_ND" else f" {spec.format}")


def _first_line(exc: Exception) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    said = [ln for ln in lines if "[op host ERROR]" in ln or "[op error" in ln]
    return f"{type(exc).__name__}: " + (lines[0] if lines else "") + (f" | {said[0]}" if said else "")
