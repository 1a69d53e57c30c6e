"""`ascgen ut --host`: an operator repository's op_host tiling UTs, built against the ops host runtime.

Each op folder's `tests/ut/op_host/test_*tiling*.cpp` (the repositories' add_modules_ut_sources globs
`test_*_tiling.cpp` there and in the folder of the build's target, `arch35/`...) is built, per product, into one
googletest program with the op's own tiling sources (host_build.tiling_sources, as `ascgen.ops` builds them),
the repository's test helpers (`tests/ut/common/tiling_case_executor.cpp`... : plan.helper_sources, the kernel
UTs' rule), metadef's op-implementation space registry and ascgen's main (runtime/ops/host/src/
tiling_ut_main.cpp), linked with the cached host runtime of `ascgen.ops` (the same archive, the same key).

Which product a test runs for: a test in a subfolder runs for the product that folder is the target folder of
(the repository's `get_target_dir` lists in cmake/ when it has them, else `arch<NN>` is the product whose
__NPU_ARCH__ starts with NN); a test directly in op_host/ runs for --product, else for the default product when
the op's CMakeLists supports it (SUPPORT_COMPUTE_UNIT), else for its first supported product. The UT build's
flags are kept: `-fno-access-control` (tests read private members), `LOG_CPP`, and `BUILD_SOC_VERSION=<product>`
(the configured compute unit the helpers turn into the platform's SoC name).

Each case runs as its own process (`<program> --gtest_filter=Suite.Name`, runner.Processes: a crash or a hang
ends that case only) and gets a status from runner.outcome / verdict.classify as a kernel case does.
"""
from __future__ import annotations

import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ascgen import config, products
from ascgen.errors import AscgenError, CompileError, OpTilingError, SpecError, UnsupportedProductError
from ascgen.ops import host_build
from ascgen.ut import cmake, plan as plans, runner, verdict

UT_SUBDIR = Path("tests") / "ut" / "op_host"
TEST_GLOB = "test_*tiling*.cpp"
MAIN = "ops/host/src/tiling_ut_main.cpp"       # under runtime/
PROGRAM = "tiling_ut"
# metadef's op-implementation space registry (the test helpers look the tiling function up through it): public
# sources, outside the host runtime archive, which the tiling runners do not need. Its plug-in loading
# (AddSoToRegistry: OpImplRegistryHolderManager, OppSoDesc, file_utils) reaches much of CANN's closed OS layer
# (mmpa); a UT never loads a plug-in, so the program is linked with --gc-sections, which drops those paths
# instead of ascgen standing in for mmpa.
# metadef's shape-range context builder, which the ops-nn helper infer_shaperange_context_faker.cpp calls, joins
# them the same way (the host runtime builds the other context builders).
FRAMEWORK_SOURCES = ("base/registry/op_impl_space_registry_v2.cc", "base/registry/op_impl_space_registry_v2_impl.cc",
                     "base/context_builder/op_infer_shape_range_context_builder.cc")
# The UT build's compile options (cmake/ut.cmake of ops-nn and ops-math); CANN's _GLIBCXX_USE_CXX11_ABI=0 is
# left out: it matches CANN's prebuilt libraries, and here every piece is compiled from source.
FLAGS = ("-fno-access-control", "-DLOG_CPP")
# The header folders the UT build adds beside the op's own: metadef's context builders
# (${ASCEND_DIR}/include/base/context_builder, installed from this source folder).
METADEF_UT_DIRS = ("inc/external/base/context_builder",)
STAND_IN = "ascgen devkit host:"               # how ascgen's platform stand-in names what it does not model


@dataclass(frozen=True)
class HostTarget:
    """One op's tiling UT program for one product: the test sources it builds."""
    repository: Path
    op_dir: Path
    product: str
    tests: tuple[Path, ...]

    @property
    def op(self) -> str:
        return self.op_dir.name

    @property
    def file(self) -> str:
        return ",".join(t.relative_to(self.repository).as_posix() for t in self.tests)

    def declared(self) -> list[str]:
        return runner.declared_cases(self.tests)


# ---- discovery -------------------------------------------------------------------------------------------

def op_dirs(paths) -> list[tuple[Path, Path]]:
    """(repository root, op folder) of every op under the paths with op_host tiling UTs."""
    found: list[tuple[Path, Path]] = []
    for given in paths:
        given = Path(given).expanduser()
        if not given.exists():
            raise SpecError(f"{given}: no such file or folder")
        root = cmake.find_root(given)
        start = given.resolve() if given.is_dir() else given.resolve().parent
        candidates = [start] if (start / UT_SUBDIR).is_dir() else \
            [p.parents[2] for p in sorted(start.rglob(str(UT_SUBDIR)))]
        for op_dir in candidates:
            rel = op_dir.relative_to(root).parts
            if any(part.startswith(("build", ".")) for part in rel) or op_dir == root:
                continue
            if any((op_dir / UT_SUBDIR).rglob(TEST_GLOB)) and (root, op_dir) not in found:
                found.append((root, op_dir))
    return found


def folder_products(root: Path, folder: str) -> list[str]:
    """The products a target folder of op_host (`arch35`...) is built for: the repository's get_target_dir
    lists when they name it, else `arch<NN>`: the products whose __NPU_ARCH__ starts with NN, else a folder
    named as a product."""
    named = [p for soc in plans.target_socs(root, folder) if (p := _product(soc))]
    if named:
        return list(dict.fromkeys(named))
    arch = re.fullmatch(r"arch(\d\d)", folder)
    if arch:
        return [p.id for p in products.all() if str(p.npu_arch).startswith(arch.group(1))]
    product = _product(folder)
    return [product] if product else []


def _product(name: str) -> str | None:
    try:
        return products.get(name).id
    except UnsupportedProductError:
        return None


def _top_product(op_dir: Path, wanted: str | None, default: str) -> str:
    if wanted:
        return wanted
    supported = [p for u in host_build.supported_units(op_dir) if (p := _product(u))]
    return default if not supported or default in supported else supported[0]


def targets(root: Path, op_dir: Path, wanted: str | None, default: str) -> list[HostTarget]:
    """The op's tiling UT programs: one per product its tests are for (only `wanted`'s when given)."""
    ut = op_dir / UT_SUBDIR
    by_product: dict[str, list[Path]] = {}
    top = sorted(ut.glob(TEST_GLOB))
    if top:
        by_product.setdefault(_top_product(op_dir, wanted, default), []).extend(top)
    for sub in sorted(p for p in ut.iterdir() if p.is_dir()):
        tests = sorted(sub.glob(TEST_GLOB))
        choices = folder_products(root, sub.name)
        if not tests or not choices or (wanted and wanted not in choices):
            continue
        product = wanted or (default if default in choices else choices[0])
        by_product.setdefault(product, []).extend(tests)
    return [HostTarget(root, op_dir, p, tuple(t)) for p, t in by_product.items()]


# ---- the program -----------------------------------------------------------------------------------------

def ut_dirs(root: Path) -> list[Path]:
    """The repository's test helper folders: tests/ut/common and its subfolders (both repositories' UT_COMMON_INC)."""
    common = root / "tests" / "ut" / "common"
    return [common, *sorted(p for p in common.rglob("*") if p.is_dir())] if common.is_dir() else []


def build(target: HostTarget) -> Path:
    """The UT program of a target, built once into the cache (host_build's objects and runtime archive)."""
    product = products.get(target.product)
    metadef = config.cann_repository("metadef")
    if metadef is None:
        raise SpecError("ascgen ut --host needs the public CANN repository 'metadef': set ASCGEN_CANN_SOURCES")
    helpers_dirs = ut_dirs(target.repository)
    helpers = plans.helper_sources(list(target.tests), [d.resolve() for d in helpers_dirs],
                                   [target.repository.resolve() / "tests"])
    sources = [*host_build.tiling_sources(target.op_dir.resolve(), product), *target.tests, *helpers]
    gtest = config.gtest_root()
    lib = config.gtest_library(gtest) if gtest else None
    extra_dirs = [*helpers_dirs, *(metadef / d for d in METADEF_UT_DIRS),
                  *([gtest / "include"] if gtest and gtest != Path("/usr") else [])]
    libs = ["-Wl,--gc-sections", *([f"-L{lib}"] if lib else []), "-lgtest", "-lpthread"]
    exe = host_build.program(target.op_dir.resolve(), product, sources, MAIN, PROGRAM, "op_host tiling UT",
                             extra_dirs=extra_dirs, extra_flags=[*FLAGS, f"-DBUILD_SOC_VERSION={product.id}"],
                             libs=libs, framework=[metadef / s for s in FRAMEWORK_SOURCES])
    return exe.path


_UNDEFINED = re.compile(r"needs \d+ symbol\(s\) that neither")


def build_failure(exc: AscgenError) -> tuple[str, str]:
    """(status, reason) of a program that did not build: a closed header or symbol is `unsupported`, named."""
    text = str(exc)
    if isinstance(exc, OpTilingError) or _UNDEFINED.search(text):
        return "unsupported", text.splitlines()[0][:600]
    if isinstance(exc, CompileError):
        return runner.build_failure(text)
    return "error", text.splitlines()[0][:600]


# ---- running ---------------------------------------------------------------------------------------------

def run_target(target: HostTarget, procs: runner.Processes, time_limit: float, jobs: int, chosen, done) -> None:
    """Build and list the program, then run each chosen case alone; `done(test, status, reason, seconds)`."""
    try:
        exe = build(target)
    except (AscgenError, OSError) as exc:
        status, reason = build_failure(exc) if isinstance(exc, AscgenError) else ("error", str(exc))
        for name in [n for n in target.declared() if chosen(n)] or (["*"] if not target.declared() else []):
            done(name, status, reason, 0.0)
        return
    with tempfile.TemporaryDirectory(prefix="ascgen-ut-host-") as tmp:
        folder = Path(tmp)
        code, out, err = procs.run([str(exe), "--gtest_list_tests"], cwd=folder, env=None, timeout=60.0)
        cases = runner.parse_list(out) if code == 0 else []
        if not cases:
            reason = "the program lists no gtest cases" if code == 0 else \
                f"listing the cases failed (exit {code}): {_last(err or out)}"
            for name in [n for n in target.declared() if chosen(n)]:
                done(name, "error", reason, 0.0)
            return

        def one(index_test):
            index, test = index_test
            cwd = folder / f"case-{index}"
            cwd.mkdir()
            start = time.monotonic()
            code, out, err = procs.run([str(exe), f"--gtest_filter={test}", "--gtest_color=no"], cwd=cwd, env=None,
                                       timeout=runner.case_limit(time_limit))
            status, reason = classify(test, code, out, err, time_limit)
            done(test, status, reason, time.monotonic() - start)
        pool = ThreadPoolExecutor(max_workers=jobs)
        try:
            list(pool.map(one, enumerate(c for c in cases if chosen(c))))
        except KeyboardInterrupt:
            procs.kill_all()            # the running cases die, the queued ones do not start
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def classify(test: str, code, out: str, err: str, time_limit: float) -> tuple[str, str]:
    """The kernel UTs' verdict of one run (runner.outcome, verdict.classify); a host test's own checks are
    gtest assertions, so a case gtest passed is `passed-ran`; a failure that is ascgen's platform stand-in
    refusing a value it does not model is `unsupported`, named."""
    status, reason = verdict.classify(runner.outcome(test, code, out, err, time_limit), [])
    if status == "passed-ran":
        return status, "gtest passed the case (the test's own EXPECT/ASSERT checks)"
    refusal = next((ln.strip() for ln in (out + err).splitlines() if STAND_IN in ln), "")
    if status in ("wrong", "error") and refusal:
        return "unsupported", refusal[:600]
    return status, reason


def _last(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:400] if lines else "no output"
