"""Runs one golden of an operator repository (tests/assets/golden.py) in its own Python process.

    python -B golden_worker.py FOLDER

A standalone script: it runs with the Python the user names (`ascgen ops test --python`), which may have
torch where ascgen's has none, so it imports nothing of ascgen. FOLDER holds `request.json` (the golden file,
the op name, the inputs' files, attributes, the keyword arguments the goldens expect) and one raw file per
input; the worker writes `answer.json` and one raw file per output there. Arrays travel as raw bytes with
their dtype name and shape: bfloat16 and the float8 types are ml_dtypes', which need not pickle alike
between two Pythons.

The two conventions of the repositories' goldens:
* `__golden__ = {"kernel": {"<op>": "<function>"}}`: a module function;
* `__spec__ = {"<op>": "<Class>"}`: the class's `golden` function (called on the class), its `tolerance`.
Either is called as golden(*inputs in definition order, **attributes, **kwargs); it returns an array, a
tensor, or a list / tuple of them (torch tensors are converted here).
"""
import importlib.util
import json
import sys
import traceback
from pathlib import Path

import numpy as np

_ML_DTYPES = ("bfloat16", "float8_e5m2", "float8_e4m3fn", "int4")
_TOLERANCE_NAMES = ("_TOL_KERNEL", "_KERNEL_TOLERANCE", "_TOL", "_TOLERANCE")


def _dtype(name):
    if name in _ML_DTYPES:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def _to_numpy(value):
    """An output as a numpy array: a torch tensor through its bits where numpy has no such type (bfloat16)."""
    if type(value).__module__.startswith("torch"):
        import torch  # type: ignore[import-not-found]  # the golden's Python has it when a tensor came back
        tensor = value.detach().cpu().contiguous()
        if tensor.dtype == torch.bfloat16:
            return tensor.view(torch.int16).numpy().view(_dtype("bfloat16"))
        return tensor.numpy()
    if type(value).__module__.startswith("tensorflow"):
        return value.numpy()
    return np.asarray(value)


def _golden(module, op):
    """(the golden function, the tolerance table the golden declares or None)."""
    table = getattr(module, "__golden__", None)
    spec = getattr(module, "__spec__", None)
    if isinstance(table, dict) and op in (table.get("kernel") or {}):
        name = table["kernel"][op]
        tolerance = next((getattr(module, n) for n in _TOLERANCE_NAMES if isinstance(getattr(module, n, None), dict)),
                         None)
        return getattr(module, name), tolerance
    if isinstance(spec, dict) and op in spec:
        cls = getattr(module, spec[op])
        return cls.golden, getattr(cls, "tolerance", None)
    known = sorted((table or {}).get("kernel", {}) if isinstance(table, dict) else spec if isinstance(spec, dict) else [])
    raise LookupError(f"declares no golden for {op!r} (__golden__['kernel'] or __spec__; it names: "
                      f"{', '.join(known) or 'nothing'})")


def _standards(tolerance):
    """{dtype name: standard name}: only what the comparison reads."""
    if not isinstance(tolerance, dict):
        return {}
    return {str(k): str(v.get("standard")) for k, v in tolerance.items() if isinstance(v, dict) and "standard" in v}


def main(folder):
    request = json.loads((folder / "request.json").read_text())
    answer = folder / "answer.json"
    try:
        spec = importlib.util.spec_from_file_location("ascgen_golden", request["golden"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        function, tolerance = _golden(module, request["op"])
        inputs = [None if t is None else
                  np.frombuffer((folder / t["file"]).read_bytes(), _dtype(t["dtype"])).reshape(t["shape"]).copy()
                  for t in request["inputs"]]
        result = function(*inputs, **request["attrs"], **request["kwargs"])
        outputs = list(result) if isinstance(result, (list, tuple)) else [result]
        written = []
        for i, value in enumerate(outputs):
            array = np.ascontiguousarray(_to_numpy(value))
            (folder / f"output{i}.bin").write_bytes(array.tobytes())
            written.append({"file": f"output{i}.bin", "dtype": array.dtype.name, "shape": list(array.shape)})
        answer.write_text(json.dumps({"status": "ok", "outputs": written, "standards": _standards(tolerance)}))
    except ModuleNotFoundError as e:
        answer.write_text(json.dumps({"status": "missing_module", "module": e.name or str(e),
                                      "message": traceback.format_exc(limit=-3)}))
    except Exception:       # the golden's own failure, reported with its traceback
        answer.write_text(json.dumps({"status": "error", "message": traceback.format_exc(limit=-4)}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
