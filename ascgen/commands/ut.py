"""`ascgen ut`: run an operator repository's own kernel unit tests (googletest) on the devkit backend.

    ascgen ut ops-nn/activation/gelu --product ascend910b --format json
    ascgen ut ops-math --filter '*int32*' --jobs 2

Each case gets one status (docs/ut.md): passed-compared, passed-ran, wrong, fault, unsupported, error.
Exit 0 when none is wrong, fault or error; 130 after Ctrl-C (the cases already run are printed).
"""
from __future__ import annotations

import fnmatch
import sys
import threading
import time
from pathlib import Path

from ascgen import config, products
from ascgen.errors import SpecError
from ascgen.runtime import backends, limits
from ascgen.ut import cmake, plan as plans, report, runner
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
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="wall-clock limit per kernel launch in seconds (default 60); a case is killed at "
                             "twice this plus 30 s")


def _file_of(p: plans.Plan) -> str:
    files = [t.relative_to(p.rule.repository).as_posix() for t in p.tests]
    return files[0] if len(files) == 1 else ",".join(files)


def _chosen(case: str, globs) -> bool:
    return not globs or any(fnmatch.fnmatchcase(case, g) for g in globs)


def _program_cases(p, args, procs, emit) -> list:
    """Build one UT program, then run each of its cases; every case found becomes one Case."""
    scratch = Scratch(p.rule, args.python)
    repo, file = p.rule.repository.name, _file_of(p)
    try:
        cases, status, reason, seconds = runner.list_cases(p, scratch, procs, args.backend)
        globs = _globs(args.filter)
        if cases is None:               # each case the sources declare gets the build's verdict
            names = [c for c in runner.declared_cases(p.tests) if _chosen(c, globs)] or ["*"]
            return [emit(runner.Case(repo, p.rule.op, file, p.product, n, status, reason, 0.0)) for n in names]
        cases = [c for c in cases if _chosen(c, globs)]

        def done(test, status, reason, seconds):
            if procs.stopping:          # killed by Ctrl-C: not a verdict
                raise KeyboardInterrupt
            results.append(emit(runner.Case(repo, p.rule.op, file, p.product, test, status, reason, seconds)))
        results: list = []
        try:
            runner.run_cases(p, cases, scratch, procs, args.time_limit, args.backend, args.jobs, done)
        except KeyboardInterrupt:
            procs.kill_all()
            raise
        return results
    finally:
        scratch.close()


def _product(soc, conv) -> str:
    """The product of a soc; the soc itself when it is no product (reported as unsupported)."""
    try:
        return plans.product_of(soc, conv)
    except plans.Unsupported:
        return soc


def _soc_of(product: str, conv) -> str:
    """A soc name for a product, preferring the repository's own full names (cmake/ lists)."""
    for full in conv.full_soc.values():
        if _product(full, conv) == product:
            return full
    return products.get(product).soc_versions[0]


def _globs(text) -> list[str]:
    return [g for g in (text or "").split(":") if g]


def _unplanned(rule, soc, conv, exc, filter_text, emit) -> None:
    """A rule that cannot become a program: each case its sources declare gets the reason."""
    status = "unsupported" if isinstance(exc, plans.Unsupported) else "error"
    product = _product(soc, conv)
    try:
        tests = plans.test_sources(rule, soc)
    except (OSError, SpecError):
        tests = []
    file = ",".join(t.relative_to(rule.repository).as_posix() for t in tests) or \
        Path(rule.where).relative_to(rule.repository).as_posix()
    reason = str(exc)
    if conv.optional_name and soc == rule.op:
        reason += (f" ({rule.where}: the op name starts with 'ascend', so this repository's {cmake.RULE_NAME} "
                   "takes it for the socs; its own build skips this rule too)")
    globs = _globs(filter_text)
    names = runner.declared_cases(tests) or ["*"]
    for name in [n for n in names if n == "*" or _chosen(n, globs)]:
        emit(runner.Case(rule.repository.name, rule.op, file, product, name, status, reason, 0.0))


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
            conv = cmake.convention(rule.repository)
            for soc in rule.socs:
                if soc.startswith("${"):       # the soc the build is configured with (${ASCEND_COMPUTE_UNIT})
                    if not wanted:
                        _unplanned(rule, soc, conv, plans.Unsupported(
                            f"the rule's socs are {soc}, the soc a build is configured for; pass --product P "
                            "to run it for one"), args.filter, emit)
                        continue
                    soc = _soc_of(wanted, conv)
                if wanted and _product(soc, conv) != wanted:
                    continue
                try:
                    p = plans.plan(rule, soc, conv)
                except (plans.Unsupported, SpecError) as exc:
                    _unplanned(rule, soc, conv, exc, args.filter, emit)
                    continue
                _program_cases(p, args, procs, emit)
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
