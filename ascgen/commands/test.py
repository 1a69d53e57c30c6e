"""`ascgen test SPEC.py --product P`: run every kernel of a spec on the emulator against the numpy oracle.

For each kernel: emit its Ascend C for the product, load it (compiled once, cached), then launch it on
random inputs at several lengths - empty, shorter than one 32-byte block, exactly one tile, and lengths
that leave a tail which is neither a multiple of the tile nor of 32 bytes - and compare every output with
`ascgen.reference.evaluate` under `ascgen.reference.tolerance(dtype)`. Outputs start filled with garbage,
so an element the kernel never writes is a mismatch. Prints a pass/fail table; exit 1 on any failure.
On products without DataCopyPad, emitted kernels support lengths 0 and >= one 32-byte unit
(`plan.min_length`): shorter ones are listed as not supported instead of run, and the minimum itself is
tested.
"""
from __future__ import annotations

import json
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ascgen import console, products
from ascgen.commands import DEFAULT_PRODUCT
from ascgen.errors import KernelError
from ascgen.runtime import backends

_GARBAGE = 0x5A                      # byte pattern the outputs start with


@dataclass
class CaseResult:
    kernel: str
    product: str
    length: int
    ok: bool
    detail: str = ""                 # first mismatch or the error
    max_error: float = 0.0


@dataclass
class KernelResult:
    kernel: str
    product: str
    cases: list[CaseResult] = field(default_factory=list)
    seconds: float = 0.0
    unsupported: list[int] = field(default_factory=list)   # lengths below the product's minimum (not run)
    min_length: int = 1

    @property
    def ok(self) -> bool:
        return bool(self.cases) and all(c.ok for c in self.cases)


def shapes_for(kernel, product, plan=None) -> list[tuple[int, ...]]:
    """(rows, cols) cases of a 2-D kernel: no rows, fewer rows than cores, ragged row counts over several
    tiles per core, one row as long as a tile, rows that do not fill 32 bytes or a tile. Where the kernel
    asserts cols' `multiple_of` promise (products without DataCopyPad; RotateHalf, RotatePairs), cols are
    multiples of it: other values are broken promises, not cases. Elsewhere ragged cols are run, promise
    or not (the emitted code does not rely on it there). A TopK kernel's rows hold at least k columns.
    `plan`: the emitted kernel's (ascgen.codegen.emit.emit_plan); planned here when not given."""
    spec = kernel.spec()
    if spec.matmul is not None:
        return _matmul_shapes(spec, product, plan)
    from ascgen.codegen.plan_rows import plan_rows
    plan = plan or plan_rows(spec, product)
    tile, blocks, unit = kernel.tile_length, kernel.block_dim, plan.align_elems
    promise = spec.dims[1].multiple_of      # the planner made it a multiple of what the kernel asserts
    if plan.data_copy_pad and not plan.rotate_multiple:
        step = 1
        cols = [1, unit - 3, unit + 5, tile // 3 + 1, tile]
    else:
        step = promise if promise > 1 else unit
        cols = [step, 3 * step, max(step, tile // step // 3 * step), tile // step * step]
    if plan.topk_k:                 # TopK asserts cols >= k: the narrowest rows are the two widths from k up
        narrowest = -(-plan.topk_k // step) * step
        cols = sorted({c for c in cols if c >= narrowest} | {narrowest, narrowest + step})
    rows = [0, 1, blocks - 1 or 1, 3 * blocks + 2, 2 * blocks * plan.max_tile_rows + 3]
    cases = [(r, c) for r in rows[:4] for c in cols[:3]] + [(rows[4], cols[0]), (2 * blocks + 1, cols[-1]),
                                                           (blocks + 3, cols[-2])]
    return sorted(set(cases))


def _matmul_shapes(spec, product, plan=None) -> list[tuple[int, ...]]:
    """(M, N, K) cases of a Matmul kernel: empty, one element, tiles ragged in M and N, fewer tiles than AI
    Cores, more tiles than AI Cores (round-robin), an odd row count split between the two AIVs, several
    K slices and a ragged last one."""
    from ascgen.codegen.plan_matmul import plan_matmul
    bm, bn, bk = (plan or plan_matmul(spec, product)).tile
    cores = spec.block_dim
    d = spec.dims[2].multiple_of                 # K's promise: the fractal depth (16; 32 for int8)
    return [(0, bn, d), (1, 1, d), (bm - 3, bn + 5, bk + d), (2 * bm + 1, bn // 2 + 1, 3 * bk),
            (bm * (cores + 1) + 7, 2 * bn, d), (5, bn * cores + 3, bk * 2 + d)]


def lengths_for(kernel) -> list[int]:
    """Lengths with tails: 0, 1, under one 32-byte block, one tile, a tile plus an odd tail, and more
    tiles than cores with a tail (some cores get one tile more than others)."""
    tile, blocks = kernel.tile_length, kernel.block_dim
    candidates = [0, 1, 13, tile, tile + 7, blocks * tile + 33, (2 * blocks + 1) * tile - 5]
    return sorted(set(n for n in candidates if n >= 0))


def _scalars(kernel, rng) -> dict:
    out = {}
    for p in kernel.scalars:
        default = getattr(p, "default", None)
        if default is not None:
            out[p.name] = default
        elif np.dtype(p.dtype).kind == "f":
            out[p.name] = float(np.float32(rng.uniform(-2, 2)))
        else:
            out[p.name] = int(rng.integers(-5, 6))
    return out


def _garbage(n: int, dtype) -> np.ndarray:
    return np.full(n * np.dtype(dtype).itemsize, _GARBAGE, dtype=np.uint8).view(dtype)


def _compare(name: str, got: np.ndarray, want: np.ndarray) -> tuple[bool, str, float]:
    from ascgen.builder.reference import tolerance
    rtol, atol = tolerance(want.dtype)
    g, w = got.astype(np.float64).ravel(), want.astype(np.float64).ravel()
    got, want = got.ravel(), want.ravel()
    close = np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    finite = np.isfinite(g) & np.isfinite(w)
    err = float(np.max(np.abs(g[finite] - w[finite]))) if finite.any() else 0.0
    if close.all():
        return True, "", err
    bad = np.flatnonzero(~close)
    i = int(bad[0])
    return False, (f"{name}: {bad.size} of {g.size} elements differ; first at [{i}]: got {got[i]!r}, "
                   f"expected {want[i]!r} (rtol {rtol}, atol {atol})"), err


def _case(kernel, length, seed: int):
    """The random inputs, scalars and garbage-filled outputs of one case, and the launch arguments."""
    from ascgen.builder.reference import random_inputs
    from ascgen.builder.shapes import extent
    dims = tuple(length) if kernel.dims else (length,)
    salt = int(np.prod(dims)) + sum(dims)
    rng = np.random.default_rng(seed + salt)
    inputs = random_inputs(kernel, length, seed=seed + salt)
    scalars = _scalars(kernel, rng)
    size = dict(zip(kernel.dims, dims))
    shapes = {p.name: tuple(extent(d, size) for d in p.shape) if p.shape else (dims[0],) for p in kernel.outputs}
    outputs = {p.name: _garbage(int(np.prod(shapes[p.name])), p.dtype).reshape(shapes[p.name])
               for p in kernel.outputs}
    return dims, inputs, scalars, outputs


def _launch(module, kernel, dims, inputs, scalars, outputs) -> None:
    values = {**inputs, **outputs, **scalars}
    args = [values[p.name] for p in kernel.params]
    args[kernel.length_index:kernel.length_index] = list(dims)
    module.launch(kernel.name, kernel.block_dim, *args)


def _against_reference(kernel, length, inputs, scalars, outputs) -> tuple[float, list[str]]:
    from ascgen.builder.reference import evaluate
    want = evaluate(kernel, inputs, scalars, length=None if kernel.dims else length)
    worst, details = 0.0, []
    for name, expected in want.items():
        ok, detail, err = _compare(name, outputs[name], expected)
        worst = max(worst, err)
        if not ok:
            details.append(detail)
    return worst, details


def backend_difference(name: str, builtin: np.ndarray, devkit: np.ndarray) -> str:
    """"" when the two backends wrote the same bits, else how many elements differ and by how much."""
    a, b = builtin.ravel(), devkit.ravel()
    width = a.dtype.itemsize
    same = a.view(np.uint8).reshape(a.size, width) == b.view(np.uint8).reshape(b.size, width)
    differ = np.flatnonzero(~same.all(axis=1))
    if differ.size == 0:
        return ""
    i = int(differ[0])
    gap = np.abs(a.astype(np.float64) - b.astype(np.float64))
    return (f"{name}: builtin and devkit differ in {differ.size} of {a.size} elements (max {np.nanmax(gap):.3g}); "
            f"first at [{i}]: builtin {a[i]!r}, devkit {b[i]!r}")


def run_case(module, kernel, length, seed: int = 0, devkit_module=None) -> CaseResult:
    """One launch of `kernel` at `length` elements (a 2-D kernel: `length` = (rows, cols)) against the
    reference. With `devkit_module`, the same case also runs there and both backends' outputs must be
    bit-identical (and each must match the reference)."""
    dims, inputs, scalars, outputs = _case(kernel, length, seed)
    product = module.product.id
    runs = [("", module, outputs)]
    if devkit_module is not None:
        runs = [("builtin ", module, outputs), ("devkit ", devkit_module, {n: a.copy() for n, a in outputs.items()})]
    worst, details = 0.0, []
    for label, mod, outs in runs:
        try:
            _launch(mod, kernel, dims, inputs, scalars, outs)
        except KernelError as exc:
            return CaseResult(kernel.name, product, length, False, f"{label}{type(exc).__name__}: {exc}")
        err, bad = _against_reference(kernel, length, inputs, scalars, outs)
        worst = max(worst, err)
        details += [label + d for d in bad]
    if devkit_module is not None:
        details += [d for name in outputs if (d := backend_difference(name, runs[0][2][name], runs[1][2][name]))]
    return CaseResult(kernel.name, product, length, not details, "; ".join(details), worst)


def check_kernel(kernel, product, lengths=None, seed: int = 0, backend: str = "builtin") -> KernelResult:
    """Emit, load and run `kernel` on `product` at each length; the per-length verdicts. backend "both" runs
    every case on the builtin and the devkit backend and also requires bit-identical outputs."""
    from ascgen.codegen.emit import emit_plan
    from ascgen.runtime.loader import load
    product = products.get(product)
    start = time.perf_counter()
    with warnings.catch_warnings():
        # "the calls have no effect on this product" is advice for people shipping the source, not a test result.
        from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        emitted = emit_plan(kernel, product)        # the plan too: the cases below read it, no re-plan
    source = emitted.text
    module = load(source, product, filename=f"{kernel.name}.cpp", backend="builtin" if backend == "both" else backend)
    other = load(source, product, filename=f"{kernel.name}.cpp", backend="devkit") if backend == "both" else None
    if kernel.dims:
        return _check_2d(module, kernel, product, emitted.plan, seed, start, other)
    from ascgen.codegen.plan import KernelPlan
    plan = emitted.plan
    if not isinstance(plan, KernelPlan):        # 1-D kernels are planned by plan_kernel
        raise TypeError(f"{kernel.name}: a 1-D kernel's plan is a KernelPlan, got {type(plan).__name__}")
    result = KernelResult(kernel.name, product.id, min_length=plan.min_length)
    wanted = lengths or lengths_for(kernel)
    if not lengths and result.min_length > 1:      # the shortest supported lengths are edge cases too
        wanted = sorted({*wanted, result.min_length, result.min_length + 1})
    for n in wanted:
        if 0 < n < result.min_length:
            result.unsupported.append(n)        # reported in the table, never run (it would read past GM)
            continue
        console.progress(f"{kernel.name} on {product.id}: length {n}")
        result.cases.append(run_case(module, kernel, n, seed, other))
    console.done()
    result.seconds = time.perf_counter() - start
    return result


def _check_2d(module, kernel, product, plan, seed: int, start: float, other=None) -> KernelResult:
    """A 2-D kernel at each (rows, cols) case, a Matmul kernel at each (M, N, K) case (`--length` does not
    apply: the default shapes are used)."""
    result = KernelResult(kernel.name, product.id)
    for shape in shapes_for(kernel, product, plan):
        console.progress(f"{kernel.name} on {product.id}: {shape[0]} x {shape[1]}")
        result.cases.append(run_case(module, kernel, shape, seed, other))
    console.done()
    result.seconds = time.perf_counter() - start
    return result


def _case_text(length) -> str:
    return "x".join(map(str, length)) if isinstance(length, tuple) else str(length)


def format_table(results: list[KernelResult]) -> str:
    rows = [("kernel", "product", "lengths", "max error", "time", "result")]
    for r in results:
        lengths = ",".join(_case_text(c.length) for c in r.cases)
        worst = max((c.max_error for c in r.cases), default=0.0)
        rows.append((r.kernel, r.product, lengths, f"{worst:.3g}", f"{r.seconds:.1f}s", "PASS" if r.ok else "FAIL"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for r in results:
        if r.unsupported:
            lines.append(f"note: {r.kernel} on {r.product} supports lengths 0 and >= {r.min_length} (no DataCopyPad); "
                         f"not run: {','.join(map(str, r.unsupported))}")
        for c in r.cases:
            if not c.ok:
                lines.append(f"FAIL {c.kernel} on {c.product}, length {_case_text(c.length)}: {c.detail}")
    return "\n".join(lines)


MAX_LENGTH = 1 << 26     # elements: 256 MiB per float32 array, several arrays per case, all held at once


def add_arguments(parser) -> None:
    parser.add_argument("spec", help="a spec file (Python defining ascgen.builder kernels)")
    parser.add_argument("--product", action="append", default=None,
                        help=f"product to test on (repeatable; default {DEFAULT_PRODUCT})")
    parser.add_argument("--kernel", action="append", default=None, help="test only this kernel (repeatable)")
    parser.add_argument("--length", type=int, action="append", default=None,
                        help="test this length instead of the default set (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    parser.add_argument("--backend", choices=(*backends.names(), "both"), default=backends.DEFAULT,
                        help=f"{backends.help_text()}; both: run every case on builtin and devkit and require "
                             "bit-identical outputs (a differential test)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: every kernel and case with its verdict, for scripts")


def run(args) -> int:
    from ascgen.builder import load_spec
    from ascgen.errors import SpecError
    for n in args.length or ():
        if not 0 <= n <= MAX_LENGTH:
            raise SpecError(f"--length {n}: a length is a number of elements in [0, {MAX_LENGTH}]. "
                            "Hint: the default lengths cover the edge cases; add one you care about.")
    kernels = load_spec(Path(args.spec))
    if args.kernel:
        unknown = set(args.kernel) - {k.name for k in kernels}
        if unknown:
            raise SpecError(f"{args.spec} defines no kernel {sorted(unknown)[0]!r} "
                            f"(it defines: {', '.join(k.name for k in kernels)})")
        kernels = [k for k in kernels if k.name in args.kernel]
    results = []
    for product in args.product or [DEFAULT_PRODUCT]:
        for kernel in kernels:
            results.append(check_kernel(kernel, product, args.length, args.seed, args.backend))
    failed = sum(not r.ok for r in results)
    if args.format == "json":
        print(json.dumps({"passed": len(results) - failed, "failed": failed,
                          "kernels": [asdict(r) | {"ok": r.ok} for r in results]}, indent=2, default=str))
        return 1 if failed else 0
    print(format_table(results))
    console.info(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
