"""`ascgen ut`: run an operator repository's own kernel unit tests (googletest) on the devkit backend.

    ascgen ut ops-nn/activation/gelu --product ascend910b --format json
    ascgen ut ops-math --filter '*int32*' --jobs 2
    ascgen ut --host ops-nn/norm/add_rms_norm          # the op_host tiling UTs, against the ops host runtime

Each case gets one status (docs/ut.md): passed-compared, passed-ran, wrong, fault, unsupported, error.
Exit 0 when none is wrong, fault or error; 130 after Ctrl-C (the cases already run are printed).
"""
from __future__ import annotations

import fnmatch
import sys
import threading
import time

from ascgen import config, products
from ascgen.commands import DEFAULT_PRODUCT
from ascgen.errors import SpecError
from ascgen.runtime import backends, limits
from ascgen.ut import cmake, report, runner, targets
from ascgen.ut.scratch import Scratch, resolve_python
from ascgen.ut.verdict import FAILING


def add_arguments(parser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="an op folder, a category folder or an operator repository's root")
    parser.add_argument("--product", help="run only the rules for this product (default: every soc the rules name)")
    parser.add_argument("--filter", metavar="GLOB[:GLOB...]",
                        help="run only the cases whose Suite.Name matches one of the globs (':' separates them)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: one object per case: repository, op, file, product, test, status, reason, seconds")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="cases run at once (default 1)")
    parser.add_argument("--python", default=sys.executable, metavar="PY",
                        help="the Python the tests' data scripts run with (default: the one running ascgen)")
    parser.add_argument("--backend", choices=backends.names(), default="devkit",
                        help="the emulation backend (default devkit: the real asc-devkit library the kernels include)")
    parser.add_argument("--host", action="store_true",
                        help="run the op_host tiling UTs (tests/ut/op_host/test_*tiling*.cpp) instead of the kernel "
                             "UTs: built against the op's tiling sources and the host runtime of ascgen.ops")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="wall-clock limit per kernel launch in seconds (default 60); a case is killed at "
                             "twice this plus 30 s")


def _chosen(case: str, globs) -> bool:
    return not globs or any(fnmatch.fnmatchcase(case, g) for g in globs)


def _globs(text) -> list[str]:
    return [g for g in (text or "").split(":") if g]


def _declared_verdict(target: targets.Target, status: str, reason: str, globs, emit) -> None:
    """A target with no program to list: each case its sources declare gets the one verdict."""
    names = target.declared() or ["*"]
    for name in [n for n in names if n == "*" or _chosen(n, globs)]:
        emit(runner.Case(target.rule.repository.name, target.rule.op, target.file, target.product, name, status,
                         reason, 0.0))


def _program_cases(target: targets.Target, args, procs, emit) -> None:
    """Build one UT program, then run each of its cases; every case found becomes one Case."""
    p = target.plan
    assert p is not None, "a target without a plan has no program"
    scratch = Scratch(p.rule, args.python)
    repo, file = p.rule.repository.name, target.file
    try:
        cases, status, reason, _ = runner.list_cases(p, scratch, procs, args.backend)
        globs = _globs(args.filter)
        if cases is None:
            _declared_verdict(target, status, reason, globs, emit)
            return
        cases = [c for c in cases if _chosen(c, globs)]

        def done(test, status, reason, seconds):
            if procs.stopping:          # killed by Ctrl-C: not a verdict
                raise KeyboardInterrupt
            emit(runner.Case(repo, p.rule.op, file, p.product, test, status, reason, seconds))
        try:
            runner.run_cases(p, cases, scratch, procs, args.time_limit, args.backend, args.jobs, done)
        except KeyboardInterrupt:
            procs.kill_all()
            raise
    finally:
        scratch.close()


def run(args) -> int:
    if args.jobs < 1:
        raise SpecError(f"--jobs must be a positive integer; got {args.jobs}")
    args.time_limit = limits.time_limit(args.time_limit, "--time-limit")
    args.python = resolve_python(args.python)
    wanted = products.get(args.product).id if args.product else None
    gtest = config.gtest_root()
    if gtest is None or config.gtest_library(gtest) is None:
        raise SpecError(f"googletest is not installed: {config.GTEST_HINT}")
    if args.backend == "devkit" and config.asc_devkit() is None:
        raise SpecError(f"ascgen ut builds on the devkit backend: {config.ASC_DEVKIT_HINT}")
    if args.host:
        return _run_host(args, wanted)
    rules, problems = cmake.discover(args.paths)
    for problem in problems:
        print(f"ascgen: error: {problem}", file=sys.stderr)
    if not rules and not problems:
        raise SpecError(f"{', '.join(args.paths)}: no kernel UT rules ({cmake.RULE_NAME} in a CMakeLists.txt) found")
    done: list = []
    lock = threading.Lock()

    def emit(case):
        with lock:
            done.append(case)
            report.emit(case, args.format)
        return case
    procs = runner.Processes()
    try:
        for rule in rules:
            for target in targets.targets(rule, cmake.convention(rule.repository), wanted):
                if target.plan is None:
                    _declared_verdict(target, target.status, target.reason, _globs(args.filter), emit)
                else:
                    _program_cases(target, args, procs, emit)
    except KeyboardInterrupt:
        procs.kill_all()
        report.print_summary(done, interrupted=True)
        return 130
    report.print_summary(done)
    if not done and not problems:
        chosen = " and ".join(f for f in (args.product and f"--product {args.product}",
                                          args.filter and f"--filter {args.filter}") if f)
        raise SpecError(f"no case matched{' ' + chosen if chosen else ''} under {', '.join(args.paths)}")
    return 1 if problems or any(c.status in FAILING for c in done) else 0


def _run_host(args, wanted) -> int:
    """`--host`: each op's tiling UT program per product (ascgen/ops/host_ut.py), one verdict per case."""
    from ascgen.ops import host_ut
    found = host_ut.op_dirs(args.paths)
    if not found:
        raise SpecError(f"{', '.join(args.paths)}: no op_host tiling UTs ({host_ut.UT_SUBDIR}/{host_ut.TEST_GLOB}) found")
    done: list = []
    lock = threading.Lock()
    globs = _globs(args.filter)
    procs = runner.Processes()
    try:
        for root, op_dir in found:
            for target in host_ut.targets(root, op_dir, wanted, products.get(DEFAULT_PRODUCT).id):
                def finished(test, status, reason, seconds, target=target):
                    if procs.stopping:
                        raise KeyboardInterrupt
                    case = runner.Case(root.name, target.op, target.file, target.product, test, status, reason, seconds)
                    with lock:
                        done.append(case)
                        report.emit(case, args.format)
                host_ut.run_target(target, procs, args.time_limit, args.jobs, lambda c: _chosen(c, globs), finished)
    except KeyboardInterrupt:
        procs.kill_all()
        report.print_summary(done, interrupted=True)
        return 130
    report.print_summary(done)
    if not done:
        chosen = " and ".join(f for f in (args.product and f"--product {args.product}",
                                          args.filter and f"--filter {args.filter}") if f)
        raise SpecError(f"no host UT case matched{' ' + chosen if chosen else ''} under {', '.join(args.paths)}")
    return 1 if any(c.status in FAILING for c in done) else 0
