"""Run `ascgen check` over real Ascend C kernels from public repositories and time each file.

The sources are not part of ascgen: they are read at run time from a source tree (a plain folder, or a
git repository read with `git show`), written to a temporary directory with their folder (so the
example's own headers resolve) and checked with the product given. Nothing from them is committed.

    python benchmarks/bench_check.py                       # asc-devkit examples (all kernel sources)
    python benchmarks/bench_check.py --repo DIR --glob 'src/**/*.cpp' --limit 40
    ASCGEN_ASC_DEVKIT=<asc-devkit tree> python benchmarks/bench_check.py

Prints one line per file and build configuration (time, kernels, errors/warnings/notes, skipped items,
or the failure) and a summary: files, configurations, crashes (an internal error of the checker, or any
other exception: bugs; must be 0), could-not-analyse count, findings per rule, max and median time.

Build configurations: `--config NAME=MACRO[,MACRO...]` (repeatable) checks every file once per
configuration with those -D macros on top of the common -D ones, the way an operator's build compiles
one binary per feature set (e.g. `--config bf16=GMM_QUANT_BF16 --config a8w4=GMM_ANTI_QUANT_A8W4_MSD`).

`--show RULE` (repeatable) prints every finding of that rule with its notes, for reading them by hand.

`--every-instance` analyses template kernels once per instantiation their tiling-key template selects
even when the operator has no task-sync call (by default only then), and prints the instantiation counts:
the cost and robustness of the per-instantiation analysis on operators that do not use task sync yet.

Public repositories it was run on (pass a checkout or an extracted snapshot with --repo; the script
never fetches anything):

    hicann/ops-transformer  c29bc1069d3252c641e2aa059ec88f392d3f05ac  --glob '*/op_kernel/*.cpp'
    hicann/ops-nn           e5c3fa9327ea95ba26d06227e746923580d10921  --glob '*/op_kernel/*.cpp'
    asc-devkit (ASCGEN_ASC_DEVKIT)                                     --glob 'examples/*.asc' (default)

ops-nn and ops-math snapshots (ASCGEN_CANN_SOURCES/ops-nn, .../ops-math), every op_kernel entry with the
macros their kernel build passes to every kernel (the per-op DTYPE_* macros are not derived):

    python benchmarks/bench_check.py --repo <ops-nn> --glob '*/op_kernel/*.cpp' -D AICORE_EXCEPTION_RESTART \
        -D DISABLE_COMPILE_V1 -D ENABLE_CV_COMM_VIA_SSBUF=true -D FORCE_TILING_CONST_PROPAGATION
"""
from __future__ import annotations

import argparse
import fnmatch
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from ascgen import check, config
from ascgen.check.checker import CheckInternalError
from ascgen.errors import AscgenError


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def is_plain(repo: str) -> bool:
    """A plain folder (an extracted snapshot), not a bare git repository."""
    return not (Path(repo) / "HEAD").is_file()


def all_files(repo: str) -> list[str]:
    if is_plain(repo):
        return sorted(str(p.relative_to(repo)) for p in Path(repo).rglob("*") if p.is_file())
    return git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()


def read(repo: str, name: str) -> bytes:
    if is_plain(repo):
        return (Path(repo) / name).read_bytes()
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{name}"], capture_output=True, check=True).stdout


def list_files(repo: str, pattern: str) -> list[str]:
    return [n for n in all_files(repo) if fnmatch.fnmatch(n, pattern)]


def extract(repo: str, names: list[str], dest: Path) -> None:
    """Write each named file and the headers of its folder under dest, and the host side of its op
    folder (`op_host/` beside the kernel's folder: the tiling the SuperKernel rules read)."""
    wanted = set(names)
    all_names = all_files(repo)
    folders = {os.path.dirname(n) for n in names}
    wanted |= {n for n in all_names if n.endswith((".h", ".hpp"))
               and any(n.startswith(folder + "/") for folder in folders)}      # the folder and below
    hosts = set()
    for folder in folders:
        for _ in range(4):                    # opfolder.MAX_DEPTH: the op folder is an ancestor
            folder = os.path.dirname(folder)
            hosts.add(os.path.join(folder, "op_host") + "/")
    wanted |= {n for n in all_names if n.endswith((".cpp", ".h", ".hpp"))
               and any(n.startswith(host) for host in hosts)}
    for name in sorted(wanted):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(read(repo, name))


def pch_count() -> int:
    folder = config.cache_dir() / "check"
    return len(list(folder.glob("*.pch"))) if folder.is_dir() else 0


def warm_up(folder: Path, args) -> None:
    """Precompile the library for this product and macro set before timing (a one-time cost per set)."""
    probe = folder / "__warm_up__.cpp"
    probe.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
    start = time.perf_counter()
    check.check_file(probe, product=args.product, defines=args.defines)
    print(f"warm-up (precompiling the emulated library if needed): {time.perf_counter() - start:.2f}s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=str(config.asc_devkit() or ""),
                        help="source tree (default: the ASCGEN_ASC_DEVKIT setting)")
    parser.add_argument("--glob", default="examples/*.asc")
    parser.add_argument("--product", default="ascend910_93")
    parser.add_argument("--limit", type=int, default=0, help="only the N longest files")
    parser.add_argument("--exclude", default="*/tests/*", help="skip paths matching this (unit-test drivers)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VAL",
                        help="macros the operator's build would define (__CCE_AICORE__=220, DTYPE_X=half...)")
    parser.add_argument("--min-lines", type=int, default=0, help="only files with at least this many lines")
    parser.add_argument("--config", action="append", default=[], metavar="NAME=MACRO[,MACRO...]",
                        help="a build configuration: check every file once more with these -D macros")
    parser.add_argument("--show", action="append", default=[], metavar="RULE",
                        help="also print every finding of this rule (repeatable), for reading them by hand")
    parser.add_argument("--every-instance", action="store_true",
                        help="analyse template kernels once per selected instantiation even without task "
                             "sync (what the per-instantiation analysis would cost everywhere)")
    args = parser.parse_args()
    configs = [("default", [])] + [(c.split("=", 1)[0], c.split("=", 1)[1].split(",")) for c in args.config]
    if not os.path.isdir(args.repo):
        print(f"no source tree at {args.repo!r}: {config.ASC_DEVKIT_HINT}, or pass --repo")
        return 2
    names = [n for n in list_files(args.repo, args.glob) if not fnmatch.fnmatch(n, args.exclude)]
    times, cpus, crashes, failures, rows, findings = [], [], 0, 0, [], {}
    counts, refused = [], 0            # instantiations per kernel analysed one by one; kernels with too many
    with tempfile.TemporaryDirectory() as tmp:
        extract(args.repo, names, Path(tmp))
        selected = []
        for name in names:
            lines = (Path(tmp) / name).read_text(errors="replace").count("\n")
            if lines >= args.min_lines:
                selected.append((name, lines))
        if args.limit:
            selected = sorted(selected, key=lambda x: -x[1])[:args.limit]
        warm_up(Path(tmp), args)
        for (name, lines), (config_name, macros) in [(f, c) for f in selected for c in configs]:
            path = Path(tmp) / name
            defines = [*args.defines, *macros]
            pchs = pch_count()
            start, cpu_start = time.perf_counter(), time.process_time()
            try:
                result = check.check_file(path, product=args.product, defines=defines,
                                          every_instance=args.every_instance)
                elapsed = time.perf_counter() - start
                counts += [len(labels) for labels in result.instances.values()]
                refused += sum(s.what.startswith("instantiations of ") for s in result.skipped)
                sev = [d.severity for d in result.diagnostics]
                rule_counts = {}
                for d in result.diagnostics:
                    rule_counts[d.rule] = rule_counts.get(d.rule, 0) + 1
                    findings[(d.rule, d.severity)] = findings.get((d.rule, d.severity), 0) + 1
                for d in result.diagnostics:
                    if d.rule in args.show:
                        print(f"  finding: {os.path.relpath(d.file, tmp)}:{d.line}: {d.severity}: {d.message} "
                              f"[{d.rule}]" + "".join(f"\n    note: {os.path.relpath(n.file, tmp)}:{n.line}: "
                                                      f"{n.message}" for n in d.notes), flush=True)
                outcome = (f"{len(result.kernels)} kernel(s), {sev.count('error')}E {sev.count('warning')}W "
                           f"{sev.count('note')}N, {len(result.skipped)} skipped"
                           + (f" {rule_counts}" if rule_counts else "")
                           + (f" instantiations {[len(v) for v in result.instances.values()]}"
                              if result.instances else ""))
            except CheckInternalError as exc:
                elapsed = time.perf_counter() - start
                crashes += 1
                outcome = f"CRASH {exc}"
            except AscgenError as exc:
                elapsed = time.perf_counter() - start
                failures += 1
                outcome = f"not analysed: {str(exc).split(': ', 1)[-1][:90]}"
            except Exception:  # noqa: BLE001 - a crash is what this benchmark looks for
                elapsed = time.perf_counter() - start
                crashes += 1
                outcome = "CRASH " + traceback.format_exc().strip().splitlines()[-1]
            if len(configs) > 1:
                outcome = f"[{config_name}] {outcome}"
            cpu = time.process_time() - cpu_start
            if pch_count() != pchs:
                # The emulated headers changed under us (other work in the tree) and the precompiled
                # library was rebuilt during this file: say so, and time it again warm.
                outcome += f" [library re-precompiled: cold {elapsed:.2f}s]"
                start, cpu_start = time.perf_counter(), time.process_time()
                try:
                    check.check_file(path, product=args.product, defines=defines)
                except Exception:  # noqa: BLE001 - already classified above
                    pass
                elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            times.append(elapsed)
            cpus.append(cpu)
            rows.append((name, lines, elapsed, outcome))
            print(f"{elapsed:6.2f}s (cpu {cpu:5.2f}s) {lines:5d} lines  {name}: {outcome}", flush=True)
    if times:
        for (rule, severity), count in sorted(findings.items()):
            print(f"  {count:5d} {severity:7s} {rule}")
        print(f"\n{len(selected)} files x {len(configs)} configuration(s) = {len(times)} checks, "
              f"{crashes} crash(es), {failures} not analysed, "
              f"max {max(times):.2f}s (cpu {max(cpus):.2f}s), median {statistics.median(times):.2f}s, "
              f"total {sum(times):.1f}s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        if counts or refused:
            print(f"kernels analysed per instantiation: {len(counts)} ({sum(counts)} instantiations, median "
                  f"{statistics.median(counts) if counts else 0}, max {max(counts, default=0)}); analysed once "
                  f"because they select more than the bound: {refused}")
    return 1 if crashes or (times and max(times) > 2.0) else 0


if __name__ == "__main__":
    sys.exit(main())
