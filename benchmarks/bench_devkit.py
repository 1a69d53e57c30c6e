"""Benchmarks of the devkit backend (docs/devkit.md shows the numbers with the commands).

    python benchmarks/bench_devkit.py sweep [--backend builtin devkit] [--jobs 2] [--only SUBSTR] [--exclude SUBSTR...] [--json F]
                                            [--self-verify] [--repeat N]
    python benchmarks/bench_devkit.py compile          # cold / PCH / cached load of one kernel
    python benchmarks/bench_devkit.py hostlib          # the advanced API's host library: cold / warm
    python benchmarks/bench_devkit.py addrelu          # add+relu on 2**24 float32, both backends vs numpy
    python benchmarks/bench_devkit.py dma              # CPU time per smallest DataCopy on the devkit backend
    python benchmarks/bench_devkit.py table A.json B.json...   # sweeps' rows merged: side by side, totals per folder
    python benchmarks/bench_devkit.py addrelu --against OLD_CHECKOUT   # the same, before/after, side by side

sweep: every asc-devkit example that has scripts/verify_result.py, every scenario its gen_data.py offers,
driven as its README says (gen_data.py, the program via `ascgen run`, verify_result.py) on each backend.
Prints one row per run: pass/fail and the first blocking cause (the first error line). Needs
ASCGEN_ASC_DEVKIT. The example folders are copied to a temporary folder; nothing is written to the tree.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from timing import best_of_with_cpu  # noqa: E402 - benchmarks/timing.py, beside this script

RUN_TIMEOUT_S = 300       # per step of a run (gen_data.py, ascgen run, verify); sweep --timeout changes it


@dataclass
class Run:
    example: str            # folder relative to examples/
    scenario: int | None
    backend: str
    product: str
    result: str = ""        # pass | fail
    cause: str = ""
    seconds: float = 0.0


# ---- discovering the runs --------------------------------------------------------------------------

def _scenario_flag(gen: str):
    """(flag, values) of gen_data.py's scenario argument, or (None, [None])."""
    m = re.search(r"add_argument\(\s*['\"](-{1,2}\w*scenario\w*)['\"][^)]*?choices\s*=\s*(range\([^)]*\)|\[[^\]]*\]|\([^)]*\))",
                  gen, re.I | re.S)
    if not m:
        return None, [None]
    values = list(eval(m.group(2), {"range": range}))     # a literal range(...) or [...] from the script
    return m.group(1), values


def _cmake_allowed(cmake: str, values: list) -> list:
    """The values its CMakeLists accepts (`if(NOT SCENARIO_NUM MATCHES "^[1-4]$")` then FATAL_ERROR): a
    gen_data.py may offer more choices than the example has scenarios."""
    m = re.search(r'SCENARIO_NUM\s+MATCHES\s+"\^\[(\d)-(\d)\]\$"', cmake)
    if not m:
        return values
    lo, hi = int(m.group(1)), int(m.group(2))
    return [v for v in values if v is None or (isinstance(v, int) and lo <= v <= hi)]


def _readme_args(readme: str, script: str) -> list[str] | None:
    for line in readme.splitlines():
        if script in line and "python" in line:
            tail = line.split(script, 1)[1].split("#", 1)[0].strip().strip("`").strip()
            return tail.split() if tail else []
    return None


SHELL_VAR = re.compile(r"^\s*([A-Z][A-Z0-9_]*)=(\w+)[ \t]*(?:#(.*))?$", re.M)


def _expand(words, var, value):
    return [w.replace("${" + var + "}", str(value)).replace("$" + var, str(value)) for w in words]


def _readme_var(readme: str, gen: str):
    """(name, values) of a shell variable the README sets and passes to gen_data.py (`SCENARIO=1  # 0: ...,
    1: ...` then `gen_data.py --mode $SCENARIO`), or (None, [None]). The values swept: the choices
    gen_data.py gives that argument, else the values the README's comment lists ("0: ... 1: ..."), else
    the one it sets."""
    args = _readme_args(readme, "gen_data.py") or []
    for m in SHELL_VAR.finditer(readme):
        name, default, comment = m.group(1), m.group(2), m.group(3) or ""
        if not any(f"${name}" in a or "${" + name + "}" in a for a in args):
            continue
        flag = next((a.split("=", 1)[0] if "=" in a else args[i - 1] for i, a in enumerate(args)
                     if name in a and ("=" in a or (i > 0 and args[i - 1].startswith("-")))), None)
        if flag:
            c = re.search(r"add_argument\(\s*['\"]" + re.escape(flag) + r"['\"][^)]*?choices\s*=\s*(range\([^)]*\)|\[[^\]]*\]|\([^)]*\))",
                          gen, re.S)
            if c:
                return name, list(eval(c.group(1), {"range": range}))
        listed = re.findall(r"(?:^|\s)(\d+)\s*:", comment)
        return name, [int(v) for v in listed] if listed else [int(default) if default.isdigit() else default]
    return None, [None]


def _readme_defines(readme: str, var: str, value) -> list[str]:
    """The -D NAME=$VAR its cmake line passes, as ascgen run defines."""
    out = []
    for line in readme.splitlines():
        if "cmake" in line:
            for name in re.findall(r"-D(\w+)=\$\{?" + var + r"\b", line):
                if not name.startswith("CMAKE_") and f"{name}={value}" not in out:
                    out += ["-D", f"{name}={value}"]
    return out


def _readme_program_args(readme: str, var: str, value) -> list[str]:
    """What the README passes to the program (`./demo $TESTCASE`)."""
    for line in readme.splitlines():
        m = re.search(r"\./demo\b([^#`]*)", line)
        if m and m.group(1).strip():
            return _expand(m.group(1).split(), var, value)
    return []


SELF_PASS = re.compile(r"test pass", re.I)          # what a self-verifying example's main prints


def _self_verifying(tree: Path) -> list[Path]:
    """Examples without verify_result.py whose own main compares with the golden and prints a pass line
    (most of 04_advanced_api): their gen_data.py script and a source printing "test pass"."""
    found = []
    for gen in sorted((tree / "examples").rglob("scripts/gen_data.py")):
        folder = gen.parent.parent
        if (folder / "scripts" / "verify_result.py").is_file():
            continue
        if any(SELF_PASS.search(p.read_text(errors="replace")) for p in folder.iterdir() if p.suffix in (".asc", ".cpp")):
            found.append(folder / "scripts" / "gen_data.py")
    return found


def discover(tree: Path, only=None, self_verify: bool = False, exclude=()):
    scripts = sorted((tree / "examples").rglob("scripts/verify_result.py"))
    if self_verify:
        scripts = sorted(scripts + _self_verifying(tree))
    for verify in scripts:
        folder = verify.parent.parent
        rel = str(folder.relative_to(tree / "examples"))
        if (only and not any(o in rel for o in only)) or any(x in rel for x in exclude or ()):
            continue
        sources = sorted(p for p in folder.iterdir() if p.suffix in (".asc", ".cpp") and p.is_file())
        if not sources:
            continue
        gen_path = folder / "scripts" / "gen_data.py"
        gen = gen_path.read_text(errors="replace") if gen_path.is_file() else ""
        flag, values = _scenario_flag(gen)
        readme = next((p.read_text(errors="replace") for p in (folder / "README.md", folder / "README_en.md")
                       if p.is_file()), "")
        var, var_values = _readme_var(readme, gen)     # its shell variable feeds defines and program args too
        if flag is None:
            values = var_values
        cmake = (folder / "CMakeLists.txt").read_text(errors="replace") if (folder / "CMakeLists.txt").is_file() else ""
        values = _cmake_allowed(cmake, values)
        # dav-3510 only: the README builds for dav-3510 alone, or its product table names only Ascend 950
        arch3510 = (("dav-3510" in readme and "dav-2201" not in readme)
                    or ("Ascend 950" in readme and not re.search(r"Atlas A[23]|dav-2201", readme)))
        verify_text = verify.read_text(errors="replace") if verify.name == "verify_result.py" else None
        yield folder, rel, sources, flag, values, readme, "SCENARIO_NUM" in cmake, verify_text, arch3510, var


def _verify_args(readme: str, verify_text: str, flag, n, var=None) -> list[str]:
    args = _readme_args(readme, "verify_result.py")
    if args is None:
        args = ["output/output.bin", "output/golden.bin"]
    if var and any("$" + var in a or "${" + var + "}" in a for a in args):
        return _expand(args, var, n)        # as the README passes it (gather: a positional scenario)
    args = [a for a in args if not re.search(r"scenario", a, re.I)]
    if flag and re.search(re.escape(flag) + r"\b", verify_text):    # only a flag the script declares
        args.append(f"{flag}={n}")
    return args


def _first_cause(text: str) -> str:
    """The line that says why: a compiler `error:` line, the intrinsic a kernel needs, the typed error."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    missing = [re.sub(r"^(?:intrinsic|hook or global) ", "", s).split(" (needed by")[0] for s in lines
               if re.match(r"(?:intrinsic|hook or global) ", s)]
    if missing:       # the backend's missing-piece report: name every piece, not just the first
        return ("missing: " + ", ".join(missing))[:160]
    for pattern in (r"^intrinsic \w+", r"^(?:ascgen: )?ERROR: ", r"error: (?!compiling|preprocessing)", r"Error\b", r"not emulated|not implemented",
                    r"fail"):
        for s in lines:
            if re.search(pattern, s) and not s.endswith("failed:"):
                return re.sub(r"/tmp/ascgen-devkit-sweep-[^/]+/[^/]+/", "", s)[:160]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:160] if lines else ""


def _run(cmd, cwd, timeout=None):
    timeout = timeout or RUN_TIMEOUT_S
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"timed out after {timeout} s")


def cmake_text(folder: Path) -> str:
    path = folder / "CMakeLists.txt"
    return path.read_text(errors="replace") if path.is_file() else ""


_RUN_MODE_IF = re.compile(r'^\s*if\s*\(\s*CMAKE_ASC_RUN_MODE\s+STREQUAL\s+"(\w+)"\s*\)(.*?)^\s*endif\s*\(\s*\)',
                          re.M | re.S)
_DEFINITION = re.compile(r"target_compile_definitions\(\s*\w+\s+PRIVATE\s+(\w+(?:=[^\s)]*)?)\s*\)")


def cmake_cpu_defines(text: str) -> list[str]:
    """The one-line compile definitions a CMakeLists gives in the branch its `CMAKE_ASC_RUN_MODE` test takes
    for the cpu run mode (matmul_ibshareAB: CYCLENUMS=1 off the NPU); ascgen run is the cpu run mode."""
    out = []
    for mode, body in _RUN_MODE_IF.findall(text):
        branches = re.split(r"^\s*else\s*\(\s*\)", body, maxsplit=1, flags=re.M) + [""]
        out += _DEFINITION.findall(branches[0] if mode == "cpu" else branches[1])
    return out


def cmake_cache_default(text: str, name: str) -> str | None:
    """A `set(NAME "value" CACHE ...)` default: what a plain cmake configure uses when -DNAME is not given."""
    m = re.search(rf'^\s*set\(\s*{name}\s+"?([^"\s)]+)"?\s+CACHE\b', text, re.M)
    return m.group(1) if m else None


_ONLY_3510 = r"仅(?:支持|在)?\s*(?:dav-3510|Ascend 950)"     # "only on dav-3510 / Ascend 950"


def readme_3510_scenarios(readme: str) -> set:
    """Scenarios the README marks as dav-3510 only (a heading `**场景3：...仅在 Ascend 950...**`, a table row
    `<tr><td>3</td>...（仅支持dav-3510）`, an option line `场景3仅支持dav-3510` or `2=...（仅Ascend 950...）`):
    built for dav-2201 they compute something else, so they run as ascend950."""
    out = set()
    for line in readme.splitlines():
        if not re.search(_ONLY_3510, line):
            continue
        m = re.search(r"场景\s*(\d+)", line) or re.match(r"\s*<tr><td>(\d+)</td>", line)
        if m:
            out.add(int(m.group(1)))
        out.update(int(k) for k in re.findall(r"(\d+)\s*=[^，,|=]*?（" + _ONLY_3510, line))
    return out


@lru_cache(maxsize=1)
def _arch3510_scenarios() -> set:
    """(folder, scenario) pairs whose source exists only under __NPU_ARCH__ == 3510 (the examples test knows
    them; on dav-2201 they compile to nothing and their output would be garbage, not an answer)."""
    try:
        from tests.library.test_devkit_examples import CASES
    except Exception:       # the tests are not shipped with an installed package
        return set()
    out = set()
    for c in CASES:
        m = re.search(r"\[(\d+)\]$", c.id)
        if c.product == "ascend950":
            out.add((c.folder.replace("examples/", "", 1), int(m.group(1)) if m else None))
    return out


def drive(item, backend: str, workdir: Path) -> Run:
    folder, rel, sources, flag, n, readme, defines_scenario, verify_text, arch3510, var = item
    only_3510 = arch3510 or n in readme_3510_scenarios(readme) or (rel, n) in _arch3510_scenarios()
    product = "ascend950" if only_3510 else "ascend910b"
    run = Run(rel, n, backend, product)
    start = time.perf_counter()
    root = workdir / f"{re.sub(r'[^A-Za-z0-9]+', '_', rel)}_{n}_{backend}"
    shutil.copytree(folder, root, ignore=shutil.ignore_patterns("figures", "*.png"))
    build = root / "build"
    (build / "input").mkdir(parents=True)
    (build / "output").mkdir()
    # the scenario flag, else what the README passes (antiquant: -DCMAKE_ASC_ARCHITECTURES=dav-2201)
    gen_args = [f"{flag}={n}"] if flag else (_readme_args(readme, "gen_data.py") or [])
    if var and not flag:    # a shell variable of the README ($SCENARIO, $TESTCASE) set to this run's value
        gen_args = _expand(gen_args, var, n)
    gen = _run([sys.executable, "../scripts/gen_data.py", *gen_args], build) if (root / "scripts/gen_data.py").is_file() else None
    if gen is not None and gen.returncode != 0:
        run.result, run.cause = "fail", "gen_data.py: " + _first_cause(gen.stderr or gen.stdout)
    else:
        cmd = [sys.executable, "-m", "ascgen", "run", *(str(root / s.name) for s in sources), "--product", product,
               "--cwd", str(build), "--backend", backend, "--time-limit", "120"]
        scenario = n if n is not None else cmake_cache_default(cmake_text(folder), "SCENARIO_NUM")
        if defines_scenario and scenario is not None:
            cmd += ["-D", f"SCENARIO_NUM={scenario}"]
        for definition in cmake_cpu_defines(cmake_text(folder)):
            cmd += ["-D", definition]
        if "-DASC_ARCHITECTURES=" in cmake_text(folder):      # what its CMakeLists passes to the host code
            cmd += ["-D", f"ASC_ARCHITECTURES={3510 if product == 'ascend950' else 2201}"]
        if var:
            cmd += _readme_defines(readme, var, n)
            program_args = _readme_program_args(readme, var, n)
            if program_args:
                cmd += ["--args", *program_args]
        proc = _run(cmd, build)
        if proc.returncode != 0:
            run.result, run.cause = "fail", _first_cause(proc.stderr + "\n" + proc.stdout)
        elif verify_text is None:         # the program verified itself
            ok = bool(SELF_PASS.search(proc.stdout)) and not re.search(r"test fail|failed", proc.stdout, re.I)
            run.result = "pass" if ok else "fail"
            run.cause = "" if ok else "WRONG ANSWER: " + _first_cause(proc.stdout)
        else:
            verify = _run([sys.executable, "../scripts/verify_result.py", *_verify_args(readme, verify_text, flag, n, var)],
                          build)
            ok = verify.returncode == 0 and "fail" not in verify.stdout.lower()
            run.result = "pass" if ok else "fail"
            crashed = "Traceback" in verify.stderr or "usage:" in verify.stderr
            label = "verify_result.py could not check: " if crashed else "WRONG ANSWER: "
            run.cause = "" if ok else label + _first_cause(verify.stdout + verify.stderr)
    shutil.rmtree(root, ignore_errors=True)
    run.seconds = time.perf_counter() - start
    return run


def sweep(args) -> int:
    from ascgen import config
    tree = config.asc_devkit()
    if tree is None:
        print(f"needs the asc-devkit tree: {config.ASC_DEVKIT_HINT}", file=sys.stderr)
        return 2
    global RUN_TIMEOUT_S
    RUN_TIMEOUT_S = args.timeout          # a loaded machine compiles the library's Matmul for minutes
    items = [(*it[:4], n, *it[5:]) for it in discover(Path(tree), args.only, args.self_verify, args.exclude) for n in it[4]]
    jobs = [(it, b) for it in items for b in args.backend]
    workdir = Path(tempfile.mkdtemp(prefix="ascgen-devkit-sweep-"))
    results: list[Run] = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        # --repeat: one job's runs one after another in the same folder (the build's cache key holds the
        # source's path, so every run after the first loads the cached build)
        for runs in pool.map(lambda job: [drive(job[0], job[1], workdir) for _ in range(args.repeat)], jobs):
            for r in runs:
                results.append(r)
                print(f"{r.result:4}  {r.backend:7}  {r.example}[{r.scenario}]  {r.seconds:5.1f}s  {r.cause}", flush=True)
            if args.json:           # after every job, so a sweep stopped part-way still leaves its rows
                Path(args.json).write_text(json.dumps([asdict(x) for x in results], indent=1))
    shutil.rmtree(workdir, ignore_errors=True)
    print()
    for b in args.backend:
        mine = [r for r in results if r.backend == b]
        passed = [r for r in mine if r.result == "pass"]
        wrong = [r for r in mine if r.cause.startswith("WRONG")]
        examples = {r.example for r in passed}
        print(f"{b}: {len(passed)} of {len(mine)} runs pass, covering {len(examples)} of "
              f"{len({r.example for r in mine})} examples; {len(wrong)} wrong answers")
    return 0


def merged_rows(files) -> dict:
    """(example, scenario, backend) -> row, over sweep JSON files in order: a later file's row replaces an
    earlier one (a re-run after a fix)."""
    rows = {}
    for f in files:
        for r in json.loads(Path(f).read_text()):
            rows[r["example"], r["scenario"], r["backend"]] = r
    return rows


def _folder(example: str) -> str:
    parts = example.split("/")
    return "/".join(parts[:3] if parts[0] == "01_simd_cpp_api" else parts[:2])


def _portable(cause: str) -> str:
    """A cause without this machine's paths: the tree as <tree>, an ascgen checkout as <ascgen>."""
    from ascgen import config
    tree = config.asc_devkit()
    if tree:
        cause = cause.replace(str(Path(tree).resolve()) + "/", "<tree>/").replace(str(tree).rstrip("/") + "/", "<tree>/")
    cause = re.sub(r"(?<![\w<>])/\S*?/(runtime/(?:devkit/)?include/)", r"<ascgen>/\1", cause)
    return re.sub(r"(?<![\w<>])/tmp/\S*?/", "<tmp>/", cause)


def table(args) -> int:
    """One markdown row per run with both backends side by side, then pass counts per folder and the runs
    the builtin backend passes that the devkit backend does not."""
    rows = merged_rows(args.files)
    runs = sorted({(e, s) for e, s, _ in rows}, key=lambda k: (k[0], -1 if k[1] is None else k[1]))
    print("| example [scenario] | builtin | devkit | first blocking cause (devkit, else builtin) |")
    print("|---|---|---|---|")
    for e, s in runs:
        b, d = rows.get((e, s, "builtin")), rows.get((e, s, "devkit"))
        cause = _portable(next((r["cause"] for r in (d, b) if r and r["result"] != "pass"), ""))
        print(f"| `{e}` [{s}] | {b['result'] if b else '-'} | {d['result'] if d else '-'} | {cause.replace('|', '/')} |")
    print("\n| folder | builtin | devkit | wrong answers (builtin / devkit) |\n|---|---|---|---|")
    folders = sorted({_folder(e) for e, _ in runs})
    for folder in folders + ["all"]:
        cells = []
        for backend in ("builtin", "devkit"):
            mine = [r for (e, _, b), r in rows.items() if b == backend and folder in ("all", _folder(e))]
            cells.append((sum(r["result"] == "pass" for r in mine), len(mine),
                          sum(r["cause"].startswith("WRONG") for r in mine)))
        print(f"| {folder} | {cells[0][0]} / {cells[0][1]} | {cells[1][0]} / {cells[1][1]} | "
              f"{cells[0][2]} / {cells[1][2]} |")
    behind = [(e, s) for e, s in runs if rows.get((e, s, "builtin"), {}).get("result") == "pass"
              and rows.get((e, s, "devkit"), {}).get("result") != "pass"]
    print(f"\nbuiltin passes, devkit does not ({len(behind)}):")
    for e, s in behind:
        print(f"  {e} [{s}]: {_portable(rows.get((e, s, 'devkit'), {}).get('cause', 'not run on devkit'))}")
    return 0


# ---- compile time and add+relu -------------------------------------------------------------------

ADD_RELU = r'''
#include "kernel_operator.h"
// z = relu(x + y) over n floats, tiles of 8192 per core (n a multiple of 8192 * blocks).
extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    constexpr uint32_t TILE = 8192;
    uint32_t per_core = n / AscendC::GetBlockNum();
    uint32_t base = AscendC::GetBlockIdx() * per_core;
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + base, per_core);
    yg.SetGlobalBuffer((__gm__ float*)y + base, per_core);
    zg.SetGlobalBuffer((__gm__ float*)z + base, per_core);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * TILE * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>(), b = a[TILE], c = a[2 * TILE];
    for (uint32_t off = 0; off < per_core; off += TILE) {
        AscendC::DataCopy(a, xg[off], TILE);
        AscendC::DataCopy(b, yg[off], TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(c, a, b, TILE);
        AscendC::Relu(c, c, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zg[off], c, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
'''


def _fresh_cache():
    d = Path(tempfile.mkdtemp(prefix="ascgen-bench-cache-"))
    os.environ["ASCGEN_CACHE_DIR"] = str(d)
    return d


def compile_times(args) -> int:
    """Cold (empty cache: PCH + module), PCH warm (a changed source), cached (same source again)."""
    code = (f"import time,sys; sys.path.insert(0,{str(REPO)!r}); from ascgen.runtime.loader import load; "
            "t=time.perf_counter(); load(sys.argv[1], 'ascend910b', backend=sys.argv[2]); "
            "print(time.perf_counter()-t)")
    cache = _fresh_cache()
    src = cache / "add_relu.cpp"
    rows = []
    for backend in ("builtin", "devkit"):
        env = dict(os.environ)
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()
        src.write_text(ADD_RELU)
        times = []
        for step in ("cold", "pch", "cached"):
            if step == "pch":
                src.write_text(ADD_RELU + "\n// edited\n")
            out = subprocess.run([sys.executable, "-c", code, str(src), backend], capture_output=True, text=True,
                                 env=env)
            if out.returncode != 0:
                print(out.stderr[-2000:], file=sys.stderr)
                return 1
            times.append(float(out.stdout.strip().splitlines()[-1]))
        rows.append((backend, *times))
    print("| backend | cold (empty cache) | warm PCH (edited source) | cached load |")
    print("|---|---|---|---|")
    for b, cold, pch, cached in rows:
        print(f"| {b} | {cold:.1f} s | {pch:.1f} s | {cached:.2f} s |")
    shutil.rmtree(cache, ignore_errors=True)
    return 0


def host_library(args) -> int:
    """The devkit host library (the tree's tiling sources, devkit_host.py): cold into an empty cache, then
    warm (everything cached). Wall time and the compilers' CPU time."""
    code = (f"import time,sys; sys.path.insert(0,{str(REPO)!r}); from ascgen import products; "
            "from ascgen.runtime.backends.devkit import toolchain as devkit, host as devkit_host; t=time.perf_counter(); "
            "devkit_host.library(devkit.tree(), products.get('ascend910b')); print(time.perf_counter()-t)")
    cache = _fresh_cache()
    rows = []
    for step in ("cold", "warm"):
        before = os.times()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
        after = os.times()
        if out.returncode != 0:
            print(out.stderr[-2000:], file=sys.stderr)
            return 1
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        rows.append((step, float(out.stdout.strip().splitlines()[-1]), cpu))
    print("| host library (ascend910b) | wall | CPU (compilers) |")
    print("|---|---|---|")
    for step, wall, cpu in rows:
        print(f"| {step} | {wall:.2f} s | {cpu:.1f} s |")
    shutil.rmtree(cache, ignore_errors=True)
    return 0


def add_relu(args) -> int:
    if args.against:
        return add_relu_against(args)
    if args.tree:        # measure another checkout's ascgen (its runtime, its CPU model) with this script
        tree = Path(args.tree).resolve()
        sys.path.insert(0, str(tree))
        import ascgen
        if tree not in Path(ascgen.__file__).resolve().parents:
            print(f"--tree {tree}: imported ascgen from {ascgen.__file__} instead", file=sys.stderr)
            return 1
    import numpy as np
    from ascgen.runtime.loader import load
    n = 1 << 24
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    want = np.maximum(x + y, 0)
    reps = args.reps
    t_np, c_np = best_of_with_cpu(lambda: np.maximum(np.add(x, y), 0), reps)
    print(f"numpy: {t_np * 1000:.1f} ms (CPU {c_np * 1000:.1f} ms)")
    for backend in ("builtin", "devkit"):
        mod = load(ADD_RELU, "ascend910b", backend=backend, filename="add_relu.cpp")
        z = np.zeros(n, np.float32)
        best, cpu = best_of_with_cpu(lambda: mod.launch("add_relu", args.blocks, x, y, z, np.uint32(n)), reps)
        exact = bool(np.array_equal(z, want))
        print(f"{backend}: {best * 1000:.1f} ms (CPU {cpu * 1000:.1f} ms) on {args.blocks} cores = "
              f"{best / t_np:.2f}x numpy (CPU {cpu / c_np:.2f}x); bit-exact vs numpy: {exact}")
    return 0


MANY_DMA = r'''
#include "kernel_operator.h"
// `iters` DataCopy of 32 bytes on one core: what each DMA costs beyond its bytes (library, core, call site).
extern "C" __global__ __aicore__ void many_dma(GM_ADDR x, uint32_t iters) {
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 512);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512 * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    for (uint32_t i = 0; i < iters; ++i) {
        AscendC::DataCopy(a[(i % 64) * 8], xg[(i % 64) * 8], 8);
    }
}
'''


def dma_cost(args) -> int:
    """CPU time (all threads) per DataCopy of 32 bytes: less sensitive to other load than wall time."""
    import numpy as np
    from ascgen.runtime.loader import load
    mod = load(MANY_DMA, "ascend910b", backend="devkit", filename="many_dma.cpp")
    x = np.zeros(512, np.float32)
    mod.launch("many_dma", 1, x, np.uint32(args.iters))         # first launch: module copies, page faults
    best = float("inf")
    for _ in range(args.reps):
        t = time.process_time()
        mod.launch("many_dma", 1, x, np.uint32(args.iters))
        best = min(best, time.process_time() - t)
    print(f"devkit: {best / args.iters * 1e9:.0f} ns CPU per 32-byte DataCopy (best of {args.reps}, "
          f"{args.iters} copies per launch)")
    return 0


_LINE = re.compile(r"^(numpy|builtin|devkit): ([\d.]+) ms \(CPU ([\d.]+) ms\)")


def add_relu_against(args) -> int:
    """This checkout and another (`--against DIR`, e.g. a worktree of an older commit) alternately, each in
    a fresh process running this script's `addrelu` on that checkout's ascgen, `--rounds` times. Prints the
    best time of each and the median of each process's own devkit / numpy ratio (numpy measured in the
    same process, so a busy moment slows both)."""
    trees = {"before": Path(args.against).resolve(), "after": REPO}
    best: dict = {}
    ratios: dict = {(label, kind): [] for label in trees for kind in ("wall", "cpu")}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            out = subprocess.run([sys.executable, __file__, "addrelu", "--reps", str(args.reps), "--blocks",
                                  str(args.blocks), "--tree", str(tree)], capture_output=True, text=True)
            if out.returncode != 0:
                print(out.stderr[-2000:], file=sys.stderr)
                return 1
            seen = {}
            for line in out.stdout.splitlines():
                m = _LINE.match(line)
                if m:
                    for kind, value in (("wall", m.group(2)), ("cpu", m.group(3))):
                        seen[m.group(1), kind] = float(value)
                        best[label, m.group(1), kind] = min(best.get((label, m.group(1), kind), 1e30), float(value))
            for kind in ("wall", "cpu"):
                ratios[label, kind].append(seen["devkit", kind] / seen["numpy", kind])
    print(f"add+relu, 2^24 float32, {args.blocks} cores; best of {args.reps} per process, {args.rounds} processes each")
    print("| checkout | numpy | builtin | devkit | devkit / numpy (median of the processes) |")
    print("|---|---|---|---|---|")
    for label in trees:
        for kind in ("wall", "cpu"):
            cells = " | ".join(f"{best[label, w, kind]:.1f} ms" for w in ("numpy", "builtin", "devkit"))
            r = sorted(ratios[label, kind])
            print(f"| {label} ({kind}) | {cells} | {r[len(r) // 2]:.2f}x |")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sweep")
    s.add_argument("--backend", nargs="+", default=["builtin", "devkit"], choices=["builtin", "devkit"])
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--only", nargs="+", help="only examples whose folder contains one of these texts")
    s.add_argument("--exclude", nargs="*", default=[], help="leave out examples whose folder contains any of these")
    s.add_argument("--json", help="also write the rows to this file")
    s.add_argument("--timeout", type=float, default=RUN_TIMEOUT_S, help="seconds per step of a run (default %(default)s)")
    s.add_argument("--self-verify", action="store_true",
                   help="also run examples without verify_result.py whose own main prints 'test pass' "
                        "(most of 04_advanced_api); such a run passes on its pass line")
    s.add_argument("--repeat", type=int, default=1,
                   help="run each example N times in a row (a stress loop: a verdict that depends on thread "
                        "timing shows as a pass rate below N; later runs load the cached build)")
    sub.add_parser("compile")
    sub.add_parser("hostlib")
    a = sub.add_parser("addrelu")
    a.add_argument("--blocks", type=int, default=8)
    a.add_argument("--reps", type=int, default=3)
    a.add_argument("--against", help="another checkout of ascgen (e.g. a worktree of the commit before a change): "
                                     "run both alternately and print the best of each side by side")
    a.add_argument("--rounds", type=int, default=3, help="with --against: how many times each checkout runs")
    a.add_argument("--tree", help=argparse.SUPPRESS)     # --against's child: the checkout whose ascgen to measure
    d = sub.add_parser("dma")
    d.add_argument("--iters", type=int, default=200000)
    d.add_argument("--reps", type=int, default=5)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+", help="sweep --json files; a later file's row replaces an earlier one")
    args = p.parse_args(argv)
    return {"sweep": sweep, "table": table, "compile": compile_times, "addrelu": add_relu, "hostlib": host_library,
            "dma": dma_cost}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
