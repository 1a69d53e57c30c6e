"""Isolated mode: run a launch (or a whole `ascgen run` program) in a worker process.

A kernel that dereferences a wild pointer kills the process it runs in; in isolated mode that process is
a worker, and the parent raises KernelCrashError naming the kernel, the core and the source line. The
worker builds its module with line tables (-g1) and installs a signal handler (runtime/include/ascgen/
host_crash.h) that prints the faulting core and instruction offset; the parent maps the offset to
file:line with addr2line. Arrays are sent to the worker and the results copied back in place, so
`Module.launch(..., isolated=True)` behaves like an in-process launch. A kernel that neither finishes nor
calls any API (a bare infinite loop) cannot be stopped inside a process: the parent kills the worker
at the time limit and raises KernelTimeoutError.
"""
from __future__ import annotations

import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ascgen import errors, resources
from ascgen.runtime.build import relocate
from ascgen.errors import KernelCrashError, KernelSite, KernelTimeoutError

if TYPE_CHECKING:
    from ascgen.runtime.core import RunResult

CRASH_FLAGS = ("-g1",)              # line tables only: enough for addr2line, cheap to compile
WORKER_GRACE_S = 5.0                # past the time limit before the parent kills a silent worker
_CRASH_LINE = re.compile(r"^ASCGEN-CRASH (.*)$", re.M)


# ---- the parent side --------------------------------------------------------------------------------

def _crash_fields(stderr: str) -> dict | None:
    m = _CRASH_LINE.search(stderr)
    if not m:
        return None
    return dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)


def _source_line(module_path: str, offset: str) -> tuple[str | None, int | None, str]:
    """(file, line, "file:line in function") of an instruction offset, via addr2line."""
    tool = shutil.which("addr2line")
    if not tool or not module_path or not offset:
        return None, None, ""
    try:
        out = subprocess.run([tool, "-C", "-f", "-i", "-e", module_path, offset],
                             capture_output=True, text=True, timeout=30).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None, None, ""
    # With -i the innermost inlined frame comes first: that is the user's statement.
    for func, loc in zip(out[0::2], out[1::2]):
        m = re.match(r"(.+):(\d+)", loc.strip())
        if m and m.group(1) != "??" and int(m.group(2)) > 0:
            return m.group(1), int(m.group(2)), f"{m.group(1)}:{m.group(2)} in {func.strip()}"
    return None, None, ""


_SIGNAL_HINTS: dict[int, str] = {
    signal.SIGSEGV: "an invalid memory access (a null or wild pointer, or a write past a raw GM pointer)",
    signal.SIGBUS: "a misaligned or unmapped memory access",
    signal.SIGFPE: "an arithmetic fault (integer division by zero?)",
    signal.SIGILL: "an illegal instruction (__builtin_trap or a corrupted stack)",
    signal.SIGABRT: "abort() (a failed assert or a C++ exception that escaped)",
}


STACK_OVERFLOW_SPAN = 64 * 1024     # a fault this close to the stack pointer is the stack's guard page


def _user_file(file: str | None) -> bool:
    """A file of the user's (exists, and is not one of the emulated headers)."""
    runtime = os.path.abspath(resources.runtime_dir())
    return file is not None and os.path.isfile(file) and not os.path.abspath(file).startswith(runtime + os.sep)


def _crash_location(fields: dict, root: Path | None) -> tuple[str | None, int | None, str]:
    """The user's line: the faulting instruction if it is in user code, else the innermost frame of the
    kernel's module that maps to a user file (abort() faults inside libc; its caller is the user's).
    `root`: a relocatable module's source folder, which its line tables leave out (build/relocate.py)."""
    candidates = [(fields.get("module", ""), fields.get("offset", ""))]
    frames_module, _, offsets = fields.get("frames", "").rpartition(":")
    candidates += [(frames_module, off) for off in offsets.split(",") if off]
    fallback: tuple[str | None, int | None, str] = (None, None, "")
    for module_path, offset in candidates:
        file, line, where = _source_line(module_path, offset)
        if file is not None:
            named, file = file, relocate.resolved(file, root)
            where = where.replace(named, file, 1)
        if _user_file(file):
            return file, line, where
        if where and not fallback[2]:
            fallback = (file, line, where)
    return fallback


def _stack_overflow(sig: int, fields: dict) -> bool:
    try:
        addr, sp = int(fields.get("addr", ""), 16), int(fields.get("sp", ""), 16)
    except ValueError:
        return False
    return sig in (signal.SIGSEGV, signal.SIGBUS) and sp > 0 and abs(addr - sp) <= STACK_OVERFLOW_SPAN


def crash_error(returncode: int, stderr: str, kernel: str | None, source_root: Path | None = None) -> KernelCrashError:
    sig = -returncode
    try:
        sig_name = signal.Signals(sig).name
    except ValueError:
        sig_name = f"signal {sig}"
    fields = _crash_fields(stderr) or {}
    kernel = fields.get("kernel") or kernel
    core = fields.get("core")
    file, line, where = _crash_location(fields, source_root)
    what = _SIGNAL_HINTS.get(sig, "a fatal signal")
    overflow = _stack_overflow(sig, fields)
    if overflow:
        what = "a stack overflow (unbounded or too deep recursion?)"
    addr = fields.get("addr")
    parts = [f"kernel {kernel!r}" if kernel else "the program", f"crashed with {sig_name}"]
    if core:
        parts.append(f"on {core}")
    if where:
        parts.append(f"at {where}")
    message = " ".join(parts) + f": {what}" + (f"; faulting address {addr}" if addr and not overflow and sig != signal.SIGABRT else "") + "."
    if not overflow and sig != signal.SIGABRT and (addr in ("0x0", "0x8", "0x10") or (addr and int(addr, 16) < 4096)):
        message += " The address is near 0: a null pointer was dereferenced."
    message += " The isolated worker died; this process is unaffected."
    return KernelCrashError(message, KernelSite(kernel=kernel, core=core, file=file, line=line),
                            {"signal": sig_name, "stack_overflow": overflow, **fields})


def _wait(proc: subprocess.Popen, started: Path, time_limit_s: float, kernel: str | None):
    """Wait for the worker; kill it past the time limit (counted from when its launch started)."""
    deadline = None
    while True:
        try:
            proc.wait(timeout=0.05)
            return
        except subprocess.TimeoutExpired:
            pass
        if deadline is None and started.exists():
            deadline = time.monotonic() + time_limit_s + WORKER_GRACE_S
        if deadline is not None and time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise KernelTimeoutError(
                f"kernel {kernel!r} was still running {time_limit_s + WORKER_GRACE_S:.0f} s after its launch "
                "started in the isolated worker, without calling any Ascend C API the runtime could stop it "
                "in (an infinite loop?); the worker was killed.",
                KernelSite(kernel=kernel))


def _rebuild_error(payload: dict) -> Exception:
    cls = getattr(errors, payload["type"], None)
    if not (isinstance(cls, type) and issubclass(cls, errors.AscgenError)):
        return errors.KernelAssertError(f"{payload['type']}: {payload['message']}")
    if issubclass(cls, errors.KernelError) and cls is not errors.RaceError:
        return cls(payload["message"], KernelSite(**payload.get("site", {})), payload.get("details", {}))
    return cls(payload["message"])


def worker_env() -> dict:
    """The environment of a worker process: this ascgen importable first (PYTHONPATH)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def launch(module, name: str, block_dim: int, args, *, kernel_type=None, time_limit_s: float = 60.0,
           tiling_key=None) -> RunResult:
    """Module.launch(..., isolated=True): run in a worker; arrays are updated in place on success."""
    request = {
        "text": module.text, "source": module.source, "path": str(module.path) if module.path else None,
        "product": module.product.id, "defines": module.user_defines, "include_dirs": [str(d) for d in module.include_dirs],
        "kernel_type": kernel_type or module.kernel_type_override, "name": name, "block_dim": block_dim,
        "args": list(args), "time_limit_s": time_limit_s, "tiling_key": tiling_key,
        "backend": module.backend.name,     # the worker must build the same backend's module
    }
    with tempfile.TemporaryDirectory(prefix="ascgen-isolated-") as tmp:
        req, res, started = Path(tmp) / "request.pkl", Path(tmp) / "result.pkl", Path(tmp) / "started"
        req.write_bytes(pickle.dumps(request))
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        # Files, not pipes: a chatty worker must never block on a full pipe while we wait for it.
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "ascgen.runtime.isolate_worker", str(req), str(res),
                                     str(started)], stdout=out, stderr=err, env=worker_env())
            try:
                _wait(proc, started, time_limit_s, name)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        text_err = err_path.read_text(errors="replace")
        text_out = out_path.read_text(errors="replace")
        if text_out:
            sys.stdout.write(text_out)
        if proc.returncode < 0:
            raise crash_error(proc.returncode, text_err, name, module.source_root)
        if not res.exists():
            raise errors.KernelAssertError(f"the isolated worker for {name!r} exited with code {proc.returncode} "
                                           f"without a result:\n{text_err.strip()[-2000:]}", KernelSite(kernel=name))
        result = pickle.loads(res.read_bytes())
    if "error" in result:
        raise _rebuild_error(result["error"])
    _copy_back(module, name, args, result["arrays"])
    return result["result"]


def _copy_back(module, name: str, args, arrays) -> None:
    """Write the worker's arrays into the caller's; a read-only array is compared instead, and a change
    is the KernelMemoryError of an in-process launch (binding.check_untouched)."""
    from ascgen.runtime import binding
    params = [p for p, _ in module._kernel_info(name).params]
    readonly = []
    for i, (original, updated) in enumerate(zip(args, arrays)):
        if not isinstance(original, np.ndarray) or updated is None:
            continue
        if original.flags.writeable:
            np.copyto(original, updated)
        else:
            readonly.append((params[i] if i < len(params) else f"arg{i}", original, updated))
    binding.check_untouched(name, readonly)


def run_cli_isolated(argv: list[str]) -> int:
    """`ascgen run --isolated`: the same command in a worker; a crash becomes a report, not a dead shell."""
    cmd = [sys.executable, "-m", "ascgen", *argv[:1], "--crash-report", *argv[1:]]
    proc = subprocess.run(cmd, stderr=subprocess.PIPE, env=worker_env())
    text = proc.stderr.decode(errors="replace")
    shown = _CRASH_LINE.sub("", text).strip()
    if shown:
        print(shown, file=sys.stderr)
    if proc.returncode < 0:
        print(f"ascgen: {crash_error(proc.returncode, text, None)}", file=sys.stderr)
        return 1
    return proc.returncode
