"""The host side of `ascgen emit --host`: main.cpp (aclrt* calls, the kernels' <<<>>> launchers, golden
comparison), CMakeLists.txt laid out like the asc-devkit direct-invocation samples, and the input /
golden data computed with the numpy reference."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ascgen import __version__
from ascgen.builder.types import DTYPES
from ascgen.codegen.plan import plan_kernel
from ascgen.builder.reference import evaluate, random_inputs, tolerance
from ascgen.codegen.render import render_template
from ascgen.errors import SpecError


def default_length(kernel) -> int:
    """block_dim * 2 tiles plus a ragged tail, so double buffering, the split and the tail all run."""
    return kernel.block_dim * kernel.tile_length * 2 + 37


def default_dims(spec, product) -> tuple[int, ...]:
    """The dim values of a 2-D or Matmul host run. Rows: three per core plus two (a ragged split), and a
    row a third of a tile plus one (not a whole 32-byte unit), rounded down to the cols promise. Matmul:
    M and N ragged over the cube tile, K three slices."""
    if spec.matmul is not None:
        from ascgen.codegen.plan_matmul import plan_matmul
        bm, bn, bk = plan_matmul(spec, product).tile
        return 2 * bm + 1, bn + 5, 3 * bk
    unit = spec.dims[1].multiple_of
    cols = (spec.tile_length // 3 + 1) // unit * unit or unit
    return 3 * spec.block_dim + 2, cols


def _dims_of(kernel, product, length):
    """(dim names, their values) of one host run; 1-D kernels have the one dim totalLength."""
    spec = kernel.spec()
    if not spec.is_2d:
        plan = plan_kernel(kernel, product)
        n = default_length(kernel) if length is None else length
        if 0 < n < plan.min_length:
            raise SpecError(f"--length {n} is below {plan.min_length}, the smallest non-empty length kernel "
                            f"{kernel.name!r} handles on {product.id} (no DataCopyPad there)")
        return ("totalLength",), (n,)
    if length is not None:
        raise SpecError(f"--length applies to 1-D kernels; kernel {kernel.name!r} is 2-D (dims "
                        f"{', '.join(kernel.dims)}): its host run uses fixed dims, drop --length")
    return tuple(kernel.dims), default_dims(spec, product)


def _kind(dtype: str) -> str:
    """How main.cpp decodes an element to double for the comparison."""
    return {"float16": "HALF", "bfloat16": "BF16", "float32": "F32", "int8": "I8", "uint8": "U8",
            "int16": "I16", "int32": "I32"}[dtype]


def write_host_project(kernels, product, out: Path, *, spec_file: str | None, length: int | None) -> list[Path]:
    written = []
    runs = []
    for kernel in kernels:
        names, values = _dims_of(kernel, product, length)
        n = values[0] if names == ("totalLength",) else values
        inputs = random_inputs(kernel, n, seed=0)
        golden = evaluate(kernel, inputs)
        for sub, arrays in (("input", inputs), ("golden", golden)):
            (out / sub).mkdir(exist_ok=True)
            for name, arr in arrays.items():
                path = out / sub / f"{kernel.name}.{name}.bin"
                path.write_bytes(np.ascontiguousarray(arr).tobytes())
                written.append(path)
        runs.append(_run_context(kernel, names, values))
    files = {"main.cpp": render_template("host_main.cpp.j2", runs=runs, version=__version__, product=product,
                                         spec_file=spec_file or "<spec.py>"),
             "CMakeLists.txt": render_template("CMakeLists.txt.j2", product=product,
                                               project=(Path(spec_file).stem if spec_file else "ascgen_kernels"),
                                               sources=[f"{k.name}.cpp" for k in kernels], version=__version__)}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8", newline="\n")
        written.append(out / name)
    return written


def _run_context(kernel, names, values) -> dict:
    buffers = []
    one_d = names == ("totalLength",)
    for p in kernel.params:
        if p.kind == "scalar":
            continue
        dt = DTYPES[p.dtype.name] if p.dtype.name in DTYPES else DTYPES["bfloat16"]
        rtol, atol = tolerance(dt.name)
        elements = "totalLength" if one_d else " * ".join(f"size_t({d})" for d in p.shape)
        buffers.append({"name": p.name, "kind": p.kind, "size": dt.size, "decode": _kind(dt.name),
                        "rtol": repr(rtol), "atol": repr(atol), "elements": elements})
    args, params = [], []
    for p in kernel.params:
        if p.kind == "scalar":
            args.append(repr(float(p.default)) + "f" if np.dtype(p.dtype).kind == "f" else str(int(p.default)))
            params.append(f"{p.ctype} {p.name}")
        else:
            args.append(f"dev_{p.name}")
            params.append(f"uint8_t* {p.name}")
    args[kernel.length_index:kernel.length_index] = list(names)
    params[kernel.length_index:kernel.length_index] = [f"uint32_t {d}" for d in names]
    shape = ", ".join(f"{d} {v}" for d, v in zip(names, values))
    return {"name": kernel.name, "shape": shape, "dims": list(zip(names, values)), "block_dim": kernel.block_dim,
            "buffers": buffers,
            "inputs": [b for b in buffers if b["kind"] == "input"],
            "outputs": [b for b in buffers if b["kind"] == "output"],
            "declaration": f"void {kernel.name}_do(uint32_t blockDim, void* stream, {', '.join(params)});",
            "launch": f"{kernel.name}_do(blockDim, stream, {', '.join(args)});"}
