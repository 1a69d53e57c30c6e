"""Running a UT program: build it (and list its cases) once, then run each case alone.

Every run is `python -m ascgen run <gtest main> <tests> <kernel> --backend devkit ... --args
--gtest_filter=Suite.Name` in its own process group, in a fresh working folder of the scratch tree
(scratch.py): a crash, a hang or a fault ends that case only. The first run (`--gtest_list_tests`) builds
the program; the cases reuse the cached module (the same sources and flags). `--gtest_catch_exceptions=0`
lets an ascgen fault thrown through a test body reach ascgen's report instead of gtest's catch-all.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ascgen import config
from ascgen.runtime.isolate import crash_error, worker_env
from ascgen.ut import verdict
from ascgen.ut.plan import Plan, main_source
from ascgen.ut.scratch import SHIM_LOG, Scratch

GRACE_S = 10.0                          # past twice the time limit: Python start, module load, data scripts


@dataclass
class Case:
    repository: str
    op: str
    file: str
    product: str
    test: str
    status: str
    reason: str
    seconds: float

    def as_json(self) -> dict:
        return dict(self.__dict__, seconds=round(self.seconds, 3))


class Processes:
    """The live child processes, so Ctrl-C (or a time limit) kills each whole process group."""

    def __init__(self):
        self._live: set = set()
        self._lock = threading.Lock()
        self.stopping = False

    def run(self, cmd, *, cwd, env, timeout) -> tuple[int | None, str, str]:
        """(return code or None at the time limit, stdout, stderr)."""
        if self.stopping:
            raise KeyboardInterrupt
        out_path, err_path = Path(cwd) / ".ascgen-stdout", Path(cwd) / ".ascgen-stderr"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            self._register(proc)
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                code = None
            finally:
                kill_group(proc)
                with self._lock:
                    self._live.discard(proc)
        return code, out_path.read_text(errors="replace"), err_path.read_text(errors="replace")

    def stream(self, cmd, *, cwd, env, each) -> tuple[int, str]:
        """Run `cmd`, calling `each(line)` for every stdout line as it comes; (return code, stderr)."""
        if self.stopping:
            raise KeyboardInterrupt
        err_path = Path(cwd) / ".ascgen-server-stderr"
        with open(err_path, "wb") as err:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=err,
                                    stdin=subprocess.DEVNULL, start_new_session=True, text=True)
            self._register(proc)
            try:
                for line in proc.stdout or ():          # stdout=PIPE: always a stream
                    each(line)
                code = proc.wait()
            finally:
                kill_group(proc)        # and whatever its cases left running
                with self._lock:
                    self._live.discard(proc)
        return code, err_path.read_text(errors="replace")

    def _register(self, proc: subprocess.Popen) -> None:
        """Track a started process; one started while kill_all ran (another thread's case, launched as Ctrl-C
        came) is killed at once: kill_all sets `stopping` before it takes the lock, so either it sees the
        process or the process sees `stopping`."""
        with self._lock:
            self._live.add(proc)
            stopping = self.stopping
        if stopping:
            kill_group(proc)

    def kill_all(self) -> None:
        self.stopping = True
        with self._lock:
            for proc in list(self._live):
                kill_group(proc)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)     # the program and what its system() calls started
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def command(plan: Plan, program_args: list[str], time_limit: float, backend: str = "devkit") -> list[str]:
    gtest = config.gtest_root()
    cmd = [sys.executable, "-m", "ascgen", "run", str(main_source()), *map(str, plan.tests), *map(str, plan.kernels),
           "--backend", backend, "--product", plan.product, "--time-limit", str(time_limit), "--crash-report", "-q"]
    for d in plan.include_dirs:
        cmd += ["-I", str(d)]
    if gtest and gtest != Path("/usr"):
        cmd += ["-I", str(gtest / "include")]
    for name, value in plan.defines.items():
        cmd += ["-D", name if value is None else f"{name}={value}"]
    for f in plan.forced_includes:
        cmd += ["--include", str(f)]
    for copy, original in plan.file_maps:
        cmd += ["--file-prefix-map", f"{copy}={original}"]
    lib = config.gtest_library(gtest) if gtest else None
    if lib and lib != Path("/usr/lib/x86_64-linux-gnu"):
        cmd += ["-L", str(lib)]
    cmd += ["-l", "gtest", "--args", *program_args]
    return cmd


# ---- building and listing ----------------------------------------------------------------------------

_Q = "['\u2018\u2019]"                   # g++ quotes names with ' or, in a UTF-8 locale, with curly quotes
_MISSING_HEADER = re.compile(r"fatal error: ([^:\s]+): No such file or directory")
_NOT_MEMBER = re.compile(rf"error: {_Q}([^'\u2019]+){_Q} is not a member of {_Q}([^'\u2019]+){_Q}")
_NOT_DECLARED = re.compile(rf"error: {_Q}([^'\u2019]+){_Q} (?:was not declared in this scope|has not been declared)")
_INTRINSIC = re.compile(r"^\s+intrinsic (\w+(?: \[[^\]\n]*\])?)", re.M)   # the name, and its missing forms
_FIRST_ERROR = re.compile(r"^\s*\S+:\d+(?::\d+)?: (?:fatal )?error: .*$", re.M)


def original_paths(text: str, file_maps) -> str:
    """`text` with the paths into a kernel copy tree (plan.copy_maps) named by the originals: -ffile-prefix-map
    maps __FILE__ and debug information, not the compiler's diagnostics, which name the file as it was opened
    (`.../tbe/ascendc/layer_norm/../layer_norm_v3/arch35/x.h`)."""
    for root in {str(copy.parent) for copy, _ in file_maps}:      # the copy tree's folder of op kernels
        text = re.sub(rf"{re.escape(root)}/[^\s:'\"]+", lambda m: _mapped(m.group(0), file_maps), text)
    return text


def _mapped(path: str, file_maps) -> str:
    normal = os.path.normpath(path)
    for copy, original in file_maps:
        if normal == str(copy) or normal.startswith(f"{copy}/"):
            return str(original) + normal[len(str(copy)):]
    return path


def build_failure(stderr: str) -> tuple[str, str]:
    """(status, reason) of a program that did not build: a named missing piece is `unsupported`."""
    names = _INTRINSIC.findall(stderr)
    if names:
        return "unsupported", f"missing intrinsic {', '.join(dict.fromkeys(names))} (the devkit backend's CPU model)"
    m = re.search(r"^\s+hook or global (.+)$", stderr, re.M)
    if m:
        return "unsupported", f"undefined symbol {m.group(1).strip()}"
    m = _MISSING_HEADER.search(stderr)
    if m:
        return "unsupported", f"missing header {m.group(1)}"
    m = _NOT_MEMBER.search(stderr)
    if m:
        return "unsupported", f"'{m.group(1)}' is not a member of '{m.group(2)}'"
    m = _NOT_DECLARED.search(stderr)
    if m:
        return "unsupported", f"'{m.group(1)}' not declared"
    m = _FIRST_ERROR.search(stderr) or re.search(r"^ascgen: error: (.*)$", stderr, re.M)
    return "error", (m.group(0).strip() if m else _last(stderr) or "the build failed")[:400]


def _last(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1].strip() if lines else ""


def parse_list(stdout: str) -> list[str]:
    """Suite.Name of every case `--gtest_list_tests` printed."""
    tests, suite = [], None
    for line in stdout.splitlines():
        if re.match(r"^[A-Za-z_][\w/]*\.\s*(#.*)?$", line):
            suite = line.split("#")[0].strip()
        elif suite and re.match(r"^  [A-Za-z_][\w/]*\s*(#.*)?$", line):
            tests.append(suite + line.split("#")[0].strip())
        elif line.strip() and not line.startswith(" "):
            suite = None if not line.rstrip().endswith(".") else suite
    return tests


_TEST_MACRO = re.compile(r"^\s*TEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)


def declared_cases(tests) -> list[str]:
    """Suite.Name of every TEST / TEST_F / TEST_P written in the sources (comments skipped): the cases a
    program that does not build would have run (a TEST_P counts once)."""
    from ascgen.source.signature import strip_comments
    names = []
    for path in tests:
        names += [f"{a}.{b}" for a, b in _TEST_MACRO.findall(strip_comments(path.read_text(errors="replace")))]
    return list(dict.fromkeys(names))


def list_cases(plan: Plan, scratch: Scratch, procs: Processes, backend: str = "devkit") -> tuple[list[str] | None, str, str, float]:
    """(cases, status, reason, seconds): cases None when the program did not build or list."""
    cwd, log = scratch.case_dir()
    start = time.monotonic()
    code, out, err = procs.run(command(plan, ["--gtest_list_tests"], 60.0, backend), cwd=cwd, env=_env(scratch, log),
                               timeout=config.ut_build_limit())
    seconds = time.monotonic() - start
    if code is None:
        return None, "error", f"the build did not finish in {config.ut_build_limit()} s (ASCGEN_UT_BUILD_LIMIT)", seconds
    if code < 0:
        return None, "fault", str(crash_error(code, err, None)), seconds
    if code != 0:
        status, reason = build_failure(original_paths(err, plan.file_maps))
        return None, status, reason, seconds
    cases = parse_list(out)
    if not cases:
        return None, "error", "the program lists no gtest cases", seconds
    return cases, "", "", seconds


def _env(scratch: Scratch, log: Path) -> dict:
    env = scratch.env(log)
    env["PYTHONPATH"] = worker_env()["PYTHONPATH"]
    return env


# ---- one case ----------------------------------------------------------------------------------------

CASE_ARGS = ("--gtest_catch_exceptions=0", "--gtest_color=no")


def case_limit(time_limit: float) -> float:
    """When a case is killed: twice its launch limit plus the start of its data scripts."""
    return time_limit * 2 + GRACE_S


def run_cases(plan: Plan, tests: list[str], scratch: Scratch, procs: Processes, time_limit: float, backend: str,
              jobs: int, done) -> None:
    """Run every case through one case server (server.py); `done(test, status, reason, seconds)` is called
    as each finishes. A server that dies leaves its remaining cases as `error` with its last line."""
    gtest = config.gtest_root()
    lib = config.gtest_library(gtest) if gtest else None
    include_dirs = [*map(str, plan.include_dirs), *([str(gtest / "include")] if gtest and gtest != Path("/usr") else [])]
    cases, logs = [], {}
    for test in tests:
        cwd, log = scratch.case_dir()
        logs[test] = log
        cases.append({"test": test, "cwd": str(cwd), "argv": [f"--gtest_filter={test}", *CASE_ARGS],
                      "env": {"PATH": scratch.env(log)["PATH"], SHIM_LOG: str(log)},
                      "stdout": str(cwd / ".ascgen-stdout"), "stderr": str(cwd / ".ascgen-stderr")})
    request = {"sources": [str(main_source()), *map(str, plan.tests), *map(str, plan.kernels)],
               "product": plan.product, "defines": plan.defines, "include_dirs": include_dirs,
               "forced_includes": [str(f) for f in plan.forced_includes], "link_libs": ["gtest"],
               "file_maps": [[str(c), str(o)] for c, o in plan.file_maps],
               "lib_dirs": [str(lib)] if lib and lib != Path("/usr/lib/x86_64-linux-gnu") else [],
               "backend": backend, "cases": cases, "jobs": jobs, "time_limit": time_limit,
               "case_limit": case_limit(time_limit)}
    path = scratch.folder / "server.json"
    path.write_text(json.dumps(request))
    left = set(tests)
    code, err = procs.stream([sys.executable, "-m", "ascgen.ut.server", str(path)], cwd=scratch.folder,
                             env=worker_env(), each=lambda line: _served(line, logs, time_limit, left, done))
    for test in tests:
        if test in left:
            first = re.search(r"^ascgen: error: (.*)$", err, re.M)
            done(test, "error", "the case server stopped (exit " + str(code) + "): " +
                 (first.group(1) if first else _last(err) or "no output")[:400], 0.0)


def _served(line: str, logs: dict, time_limit: float, left: set, done) -> None:
    try:
        r = json.loads(line)
    except ValueError:
        return                          # the program's own output before a fork: not a result
    if not isinstance(r, dict) or r.get("test") not in left:
        return
    left.discard(r["test"])
    status, reason = verdict.classify(outcome(r["test"], r["code"], r["stdout"], r["stderr"], time_limit),
                                      verdict.read_log(logs[r["test"]]))
    done(r["test"], status, reason, r.get("seconds", 0.0))


def one_line(report: str) -> str:
    """ascgen's report in one line: its message and where (the frame lines and hints dropped)."""
    lines = [ln.strip() for ln in report.splitlines() if ln.strip() and not set(ln.strip()) <= {"="}]
    lines = [re.sub(r"^(ERROR: )?ascgen: ", "", ln) for ln in lines if not ln.startswith(("SUMMARY:", "Hint:"))]
    return "; ".join(lines[:2])[:600]


def outcome(test: str, code: int | None, out: str, err: str, time_limit: float) -> verdict.Outcome:
    """The Outcome of one run from its exit code and output."""
    name = re.escape(test)
    gtest = "ok" if re.search(rf"^\[\s+OK \] {name}\b", out, re.M) else \
        "failed" if re.search(rf"^\[\s+FAILED\s+\] {name}\b", out, re.M) else \
        "skipped" if re.search(rf"^\[\s+SKIPPED\s+\] {name}\b", out, re.M) else None
    failure = ""
    # "unknown file": gtest's place for a C++ exception thrown in the test body; up to 5 lines: an EXPECT_EQ's
    # message ends with the expected value's "Which is: ..."; "Skipped": a GTEST_SKIP's place and message
    m = re.search(r"^(.+:\d+|unknown file): (?:Failure|Skipped)\n(.*(?:\n(?!\[).*){0,4})", out, re.M)
    if m:
        failure = f"{m.group(1)}: " + " ".join(s.strip() for s in m.group(2).splitlines() if s.strip())
    if code is None:
        return verdict.Outcome(gtest, failure, fault=f"{test} did not finish within {case_limit(time_limit):.0f} s "
                               "and was killed (a hang outside the kernels, or a data script that never ends)")
    if code < 0:
        return verdict.Outcome(gtest, failure, fault=str(crash_error(code, err, None)))
    report = re.search(r"^ascgen: (?!error: )(.*(?:\n(?!ascgen: ).*)*)", err, re.M)
    if code == 1 and report:
        return verdict.Outcome(gtest, failure, fault=one_line(report.group(1)))
    first = re.search(r"^ascgen: error: (.*)$", err, re.M)
    return verdict.Outcome(gtest, failure, error=(first.group(1) if first else _last(err) or
                                                  f"exit status {code}")[:400] if code else "")
