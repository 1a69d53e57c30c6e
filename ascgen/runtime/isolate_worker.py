"""The child side of isolated mode (`launch(..., isolated=True)`): run as
`python -m ascgen.runtime.isolate_worker REQUEST RESULT STARTED`, it loads the module, runs one launch and
pickles the result or the typed error back. A crash here kills only this process; isolate.py, in the
parent, turns its exit status into KernelCrashError."""
from __future__ import annotations

import pickle
import re
import sys
from pathlib import Path

import numpy as np

from ascgen import errors
from ascgen.runtime.isolate import CRASH_FLAGS
from ascgen.runtime.module import Module


def _picklable(value):
    try:
        pickle.dumps(value)
        return value
    except Exception:               # noqa: BLE001 - structured details are optional
        return {}


# The core's in-process wording for cores it cannot stop; in a worker they end with the worker.
_IN_PROCESS_WORDING = (
    (re.compile(r"they keep running in the background\. Use isolated mode for such kernels\."),
     "they end with the isolated worker."),
    (re.compile(r"they keep running in the background"), "they end with the isolated worker"),
    (re.compile(r"run kernels that may loop without calling any API in isolated mode[^\n]*"),
     "look for a loop that never ends on the cores listed (the launch already ran isolated; its worker "
     "is ended)"),
)


def as_isolated(message: str) -> str:
    for pattern, text in _IN_PROCESS_WORDING:
        message = pattern.sub(text, message)
    return message


def _worker(req_path: str, res_path: str, started_path: str) -> int:
    request = pickle.loads(Path(req_path).read_bytes())
    payload: dict
    try:
        path = Path(request["path"]) if request["path"] else None
        module = Module(request["text"], request["source"], path, request["product"],
                        defines=request["defines"], include_dirs=request["include_dirs"],
                        kernel_type=request["kernel_type"], extra_flags=CRASH_FLAGS,
                        instances=[request["name"]] if "<" in request["name"] else (), backend=request["backend"])
        module.install_crash_handler()
        args = request["args"]
        Path(started_path).touch()
        result = module.launch(request["name"], request["block_dim"], *args, time_limit_s=request["time_limit_s"],
                               tiling_key=request.get("tiling_key"))
        # core.RunResult holds only plain data (text, lists of dicts, numbers), so it pickles as it is and
        # an isolated launch returns the same type as an in-process one.
        payload = {"result": result,
                   "arrays": [a if isinstance(a, np.ndarray) else None for a in args]}
    except errors.AscgenError as exc:
        site = getattr(exc, "site", None)
        payload = {"error": {"type": type(exc).__name__, "message": as_isolated(str(exc)),
                             "site": dict(site.__dict__) if site else {},
                             "details": _picklable(getattr(exc, "details", {}))}}
    Path(res_path).write_bytes(pickle.dumps(payload))
    return 0


if __name__ == "__main__":
    sys.exit(_worker(*sys.argv[1:4]))
