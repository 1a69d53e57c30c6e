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
from ascgen.codegen.render import launcher_params, render_template


def default_length(kernel) -> int:
    """block_dim * 2 tiles plus a ragged tail, so double buffering, the split and the tail all run."""
    return kernel.block_dim * kernel.tile_length * 2 + 37


def _kind(dtype: str) -> str:
    """How main.cpp decodes an element to double for the comparison."""
    return {"float16": "HALF", "bfloat16": "BF16", "float32": "F32", "int8": "I8", "uint8": "U8",
            "int16": "I16", "int32": "I32"}[dtype]


def write_host_project(kernels, product, out: Path, *, spec_file: str | None, length: int | None) -> list[Path]:
    written = []
    runs = []
    for kernel in kernels:
        plan = plan_kernel(kernel, product)
        n = default_length(kernel) if length is None else length
        if 0 < n < plan.min_length:
            from ascgen.errors import SpecError
            raise SpecError(f"--length {n} is below {plan.min_length}, the smallest non-empty length kernel "
                            f"{kernel.name!r} handles on {product.id} (no DataCopyPad there)")
        inputs = random_inputs(kernel, n, seed=0)
        golden = evaluate(kernel, inputs)
        for sub, arrays in (("input", inputs), ("golden", golden)):
            (out / sub).mkdir(exist_ok=True)
            for name, arr in arrays.items():
                path = out / sub / f"{kernel.name}.{name}.bin"
                path.write_bytes(np.ascontiguousarray(arr).tobytes())
                written.append(path)
        runs.append(_run_context(kernel, plan, n))
    files = {"main.cpp": render_template("host_main.cpp.j2", runs=runs, version=__version__, product=product,
                                         spec_file=spec_file or "<spec.py>"),
             "CMakeLists.txt": render_template("CMakeLists.txt.j2", product=product,
                                               project=(Path(spec_file).stem if spec_file else "ascgen_kernels"),
                                               sources=[f"{k.name}.cpp" for k in kernels], version=__version__)}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8", newline="\n")
        written.append(out / name)
    return written


def _run_context(kernel, plan, length: int) -> dict:
    buffers = []
    for p in kernel.params:
        if p.kind == "scalar":
            continue
        dt = DTYPES[p.dtype.name] if p.dtype.name in DTYPES else DTYPES["bfloat16"]
        rtol, atol = tolerance(dt.name)
        buffers.append({"name": p.name, "kind": p.kind, "size": dt.size, "decode": _kind(dt.name),
                        "rtol": repr(rtol), "atol": repr(atol)})
    args = []
    for p in kernel.params:
        if p.kind == "scalar":
            args.append(repr(float(p.default)) + "f" if np.dtype(p.dtype).kind == "f" else str(int(p.default)))
        else:
            args.append(f"dev_{p.name}")
    args.insert(kernel.length_index, "totalLength")
    return {"name": kernel.name, "length": length, "block_dim": kernel.block_dim, "buffers": buffers,
            "inputs": [b for b in buffers if b["kind"] == "input"],
            "outputs": [b for b in buffers if b["kind"] == "output"],
            "declaration": f"void {kernel.name}_do(uint32_t blockDim, void* stream, {', '.join(launcher_params(plan))});",
            "launch": f"{kernel.name}_do(blockDim, stream, {', '.join(args)});"}
