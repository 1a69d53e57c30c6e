"""An operator repository's golden (tests/assets/golden.py), run for a set of inputs, in its own process.

The golden runs under a Python the caller names (`ascgen ops test --python`, resolved as `ascgen ut` resolves
its own: ut/scratch.resolve_python), through golden_worker.py, a script importing nothing of ascgen. Arrays
go through files in a scratch folder of the system's temporary directory, never the user's checkout (the
worker runs with -B: no __pycache__ beside golden.py either). What the golden gets, besides the inputs in
the definition's order and the attributes by name (the definition's defaults filled in), are the keyword
arguments the repositories' goldens document ("**kwargs: {input,output}_{dtypes,ori_shapes,formats,ori_formats},
full_soc_version, short_soc_version, testcase_name"):

* `input_dtypes`, `output_dtypes`: numpy names ("float16", "bfloat16", "bool"), None for an input left out;
* `input_ori_shapes`, `output_ori_shapes`: lists of dimensions (the shapes run: ND tensors, no storage shape);
* `input_formats`, `input_ori_formats`, `output_formats`, `output_ori_formats`: "ND"...;
* `full_soc_version` (the product's first SoC, "Ascend910B1"), `short_soc_version` ("Ascend910B"),
  `testcase_name`.

A golden needing a module its Python lacks (torch, tensorflow) is a GoldenUnsupported naming the module; one
that raises is a GoldenError with its traceback's end: neither is a kernel failure.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ascgen.errors import SpecError
from ascgen.ops import dtypes
from ascgen.ut.scratch import resolve_python

GOLDEN = Path("tests") / "assets" / "golden.py"
WORKER = Path(__file__).with_name("golden_worker.py")
TIME_LIMIT_S = 300.0


class GoldenError(SpecError):
    """The op has no golden, or its golden failed: nothing to compare against (not a kernel failure)."""


class GoldenUnsupported(GoldenError):
    """The golden needs a module the chosen Python does not have."""

    def __init__(self, message: str, module: str):
        super().__init__(message)
        self.module = module


@dataclass
class GoldenResult:
    outputs: list[np.ndarray]
    standards: dict[str, str] = field(default_factory=dict)   # dtype name -> the golden's standard ("binary_equal"...)


def golden_file(op_dir: Path) -> Path:
    """The op's golden.py; a GoldenError naming where it was looked for when there is none."""
    path = Path(op_dir) / GOLDEN
    if not path.is_file():
        raise GoldenError(f"{Path(op_dir).name}: no golden to compare with ({path} does not exist; the operator "
                          "repositories keep an op's golden there)")
    return path


def keyword_arguments(product, definition, ins, outs, testcase_name: str) -> dict:
    """The keyword arguments the goldens document (module docstring), for TensorSpecs `ins` / `outs`."""
    def describe(prefix: str, specs) -> dict:
        return {f"{prefix}_dtypes": [None if t is None else _numpy_name(t.dtype) for t in specs],
                f"{prefix}_ori_shapes": [None if t is None else list(t.shape) for t in specs],
                f"{prefix}_formats": [None if t is None else t.format.removeprefix("FORMAT_") for t in specs],
                f"{prefix}_ori_formats": [None if t is None else t.format.removeprefix("FORMAT_") for t in specs]}
    return {**describe("input", ins), **describe("output", outs), "full_soc_version": product.soc_versions[0],
            "short_soc_version": product.short_soc, "testcase_name": testcase_name}


def run_golden(op_dir: Path, op_name: str, inputs: list, attrs: dict, kwargs: dict, python: str | None = None,
               time_limit_s: float = TIME_LIMIT_S) -> GoldenResult:
    """The golden's outputs for numpy `inputs` (None: an optional input left out)."""
    path = golden_file(op_dir)
    exe = resolve_python(python or sys.executable)
    folder = Path(tempfile.mkdtemp(prefix=f"ascgen-golden-{op_name}-"))
    try:
        described: list[dict | None] = []
        for i, array in enumerate(inputs):
            if array is None:
                described.append(None)
                continue
            array = np.ascontiguousarray(array)
            (folder / f"input{i}.bin").write_bytes(array.tobytes())
            described.append({"file": f"input{i}.bin", "dtype": array.dtype.name, "shape": list(array.shape)})
        request = {"golden": str(path), "op": op_name, "inputs": described, "attrs": attrs, "kwargs": kwargs}
        (folder / "request.json").write_text(json.dumps(request))
        proc = _run(exe, folder, path, time_limit_s)
        answer_file = folder / "answer.json"
        if not answer_file.is_file():
            raise GoldenError(f"the golden {path} did not answer under {exe} (exit code {proc.returncode}):\n"
                              + (proc.stderr or proc.stdout)[-2000:])
        return _result(json.loads(answer_file.read_text()), folder, path, exe)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run(exe: str, folder: Path, path: Path, time_limit_s: float) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([exe, "-B", str(WORKER), str(folder)], cwd=folder, capture_output=True, text=True,
                              timeout=time_limit_s, errors="replace",
                              env=_environment(path.parent))
    except subprocess.TimeoutExpired:
        raise GoldenError(f"the golden {path} was still running after {time_limit_s:.0f} s; it was killed") from None


def _environment(golden_dir: Path) -> dict:
    """The caller's environment, the golden's folder first on the module path (a golden may import its
    neighbours), and no bytecode written anywhere."""
    paths = [str(golden_dir), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "PYTHONDONTWRITEBYTECODE": "1"}


def _result(answer: dict, folder: Path, path: Path, exe: str) -> GoldenResult:
    status = answer.get("status")
    if status == "missing_module":
        module = str(answer.get("module"))
        raise GoldenUnsupported(f"the golden {path} needs the Python module {module!r}, which {exe} does not have: "
                                f"install it there, or pass --python with a Python that has it", module)
    if status != "ok":
        raise GoldenError(f"the golden {path} raised an exception (not a kernel failure):\n"
                          + str(answer.get("message", "")).rstrip())
    outputs = []
    for t in answer["outputs"]:
        dtype = dtypes.numpy_of(dtypes.enum_of(t["dtype"], f"golden output {t['file']}"), f"golden {path}")
        outputs.append(np.frombuffer((folder / t["file"]).read_bytes(), dtype).reshape(t["shape"]).copy())
    return GoldenResult(outputs, dict(answer.get("standards") or {}))


def _numpy_name(enum: str) -> str:
    row = dtypes.BY_ENUM.get(enum)
    return row.numpy if row is not None and row.numpy else enum
