"""The case server: one process per UT program loads the built module once, then forks one child per
case, so a case costs a fork and its own run instead of a Python start and a module load (~3 s each).

    python -m ascgen.ut.server REQUEST.json      (written by runner.run_cases)

Each child starts from the same pristine process (no launch has run in the parent), changes to its own
working folder, points the shim at its own log, sends its output to its own files and calls the
program's `main` with `--gtest_filter=Suite.Name`; an ascgen fault is printed as `ascgen: <report>` and
exits 1, as `ascgen run` does. A child that crashes dies alone (the crash handler names the line); one
that outlives its limit is killed. The server prints one JSON line per finished case:
`{"test", "code", "stdout", "stderr"}` (code null: killed at the limit). Everything runs in the server's
process group, which the caller kills on Ctrl-C (the data scripts a case started included).
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from ascgen import errors

POLL_S = 0.05


def _load(request: dict):
    from ascgen.runtime.program import load_program, program_flags
    flags = program_flags(request["forced_includes"], request["link_libs"], request["lib_dirs"], crash_report=True,
                          defines=request["defines"], file_maps=[tuple(m) for m in request.get("file_maps", [])])
    module = load_program(request["sources"], request["product"], defines=request["defines"],
                          include_dirs=request["include_dirs"], extra_flags=flags, backend=request["backend"])
    module.install_crash_handler()
    return module


def _child(module, case: dict, time_limit: float) -> None:
    """In the forked child: run one case and leave with its exit code (never returns)."""
    code = 3
    try:
        os.chdir(case["cwd"])
        os.environ.update(case["env"])
        for fd, path in ((1, case["stdout"]), (2, case["stderr"])):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(f, fd)
            os.close(f)
        sys.stdout = os.fdopen(1, "w", closefd=False)
        sys.stderr = os.fdopen(2, "w", closefd=False)
        from ascgen.runtime.program import run_program
        try:
            code = run_program(module, case["argv"], time_limit_s=time_limit)
        except errors.KernelError as exc:
            print(f"ascgen: {exc}", file=sys.stderr)
            code = 1
        except errors.AscgenError as exc:
            print(f"ascgen: error: {exc}", file=sys.stderr)
            code = 2
    except BaseException as exc:        # noqa: BLE001 - a child must never return into the server's loop
        print(f"ascgen: error: the case runner failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 2
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _report(case: dict, code, seconds: float) -> None:
    def read(path):
        try:
            return Path(path).read_text(errors="replace")
        except OSError:
            return ""
    print(json.dumps({"test": case["test"], "code": code, "seconds": round(seconds, 3),
                      "stdout": read(case["stdout"]), "stderr": read(case["stderr"])}), flush=True)


def serve(request: dict) -> int:
    module = _load(request)
    todo = list(request["cases"])
    running: dict[int, tuple[dict, float, float]] = {}
    limit = request["case_limit"]
    while todo or running:
        while todo and len(running) < request["jobs"]:
            case = todo.pop(0)
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _child(module, case, request["time_limit"])
            now = time.monotonic()
            running[pid] = (case, now, now + limit)
        time.sleep(POLL_S)
        for pid, (case, start, deadline) in list(running.items()):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                del running[pid]
                _report(case, os.waitstatus_to_exitcode(status), time.monotonic() - start)
            elif time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                del running[pid]
                _report(case, None, time.monotonic() - start)
    return 0


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[0]).read_text())
    try:
        return serve(request)
    except errors.AscgenError as exc:   # the module does not load: every case gets this line
        print(f"ascgen: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
