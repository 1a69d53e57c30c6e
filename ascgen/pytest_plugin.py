"""The pytest plugin (entry point `pytest11`, loaded whenever ascgen is installed; `-p no:ascgen.pytest_plugin`
turns it off).

Fixtures, parametrised over the products and backends given on the command line:

    def test_scale(ascgen_load, ascgen_superkernel):
        mod = ascgen_load("kernels/scale.cpp")            # compiled once per session, product and backend
        ...
        report = ascgen_superkernel.add(mod, "scale", 8, x, y, n).run()

* `ascgen_product`: the Product under test, one test per `--ascgen-product P` (repeatable; default
  ascend910_93); `ascgen_backend`: "builtin" or "devkit", one test per `--ascgen-backend B`.
* `ascgen_load(source, **load_args)`: `ascgen.runtime.load` for that product and backend, cached per session.
* `ascgen_superkernel`: an empty `ascgen.runtime.SuperKernel` on that product, early start on.

`pytest --ascgen-spec SPEC.py` (repeatable, or the ini option `ascgen_specs`) collects every kernel of a
builder spec as one item per product and backend, `SPEC.py::KERNEL[PRODUCT-BACKEND]`, run as `ascgen test`
runs it (numpy reference, edge-case lengths). The ids are stable, so `pytest -n 2` (xdist) spreads them over
cores and `--deselect` / a sharding plugin splits them over CI machines.

`pytest --ascgen-ut PATH` (repeatable, or the ini option `ascgen_ut`; PATH an op folder, a category folder or
an operator repository, as for `ascgen ut`) collects the kernel unit tests of an operator repository: each
case a UT program's sources declare, for each soc its AddOpTestCase rule names, is one item,
`<rule's CMakeLists.txt>::Suite.Name[op@PRODUCT-BACKEND]` (backend default devkit; `--ascgen-product`
keeps only that product's programs). Collecting builds nothing; the first item of a program builds and
lists it (cached, as for `ascgen ut`), and each item runs its case alone in the program's scratch folder.
`passed-compared` / `passed-ran` pass; `wrong`, `fault` and `error` fail with their reason; `unsupported`
(a named missing piece) is a skip with the reason, shown by `-rs`.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import pytest

DEFAULT_BACKEND = "builtin"
UT_BACKEND = "devkit"          # operator UTs include the real library's headers


def pytest_addoption(parser) -> None:
    group = parser.getgroup("ascgen", "ascgen (Ascend C emulator)")
    group.addoption("--ascgen-product", action="append", default=None, metavar="P",
                    help="product the ascgen fixtures and spec items run on (repeatable; default ascend910_93)")
    # no `choices`: the backends come from ascgen.runtime.backends.REGISTRY, imported only when a test asks
    group.addoption("--ascgen-backend", action="append", default=None, metavar="B",
                    help="backend of the ascgen fixtures and spec items: builtin, devkit or any registered one "
                         "(repeatable; default builtin)")
    group.addoption("--ascgen-spec", action="append", default=[], metavar="SPEC.py",
                    help="collect the kernels of this builder spec as test items (repeatable)")
    parser.addini("ascgen_specs", "builder specs whose kernels are collected as test items", type="paths", default=[])
    group.addoption("--ascgen-ut", action="append", default=[], metavar="PATH",
                    help="collect the kernel UT cases of an operator repository's op, category or root folder as "
                         "test items (repeatable)")
    group.addoption("--ascgen-ut-time-limit", type=float, default=60.0, metavar="S",
                    help="wall-clock limit of each kernel launch of a UT case (default 60 s), as in ascgen ut")
    parser.addini("ascgen_ut", "operator repository folders whose kernel UT cases are collected as test items",
                  type="paths", default=[])


def _products(config) -> list[str]:
    from ascgen import products
    from ascgen.commands import DEFAULT_PRODUCT
    return [products.get(p).id for p in (config.getoption("ascgen_product") or [DEFAULT_PRODUCT])]


def _check_backends(config) -> None:
    """An unknown --ascgen-backend is a usage error before collection (the registry is imported only then)."""
    given = config.getoption("ascgen_backend") or []
    if given:
        from ascgen.runtime import backends
        unknown = [b for b in given if b not in backends.names()]
        if unknown:
            raise pytest.UsageError(f"--ascgen-backend {unknown[0]}: not a backend; use one of "
                                    + ", ".join(backends.names()))


def _backends(config, default: str = DEFAULT_BACKEND) -> list[str]:
    return list(dict.fromkeys(config.getoption("ascgen_backend") or [default]))


def _specs(config) -> set[Path]:
    given = [Path(p) for p in config.getoption("ascgen_spec")] + list(config.getini("ascgen_specs"))
    return {p.resolve() for p in given}


def _ut_paths(config) -> list[Path]:
    return [Path(p) for p in config.getoption("ascgen_ut")] + list(config.getini("ascgen_ut"))


def pytest_configure(config) -> None:
    _check_backends(config)
    config.addinivalue_line("markers", "ascgen_spec: a kernel of a builder spec run against numpy (ascgen test)")
    config.addinivalue_line("markers", "ascgen_ut: a kernel unit test case of an operator repository (ascgen ut)")
    collected = sorted(_specs(config)) + _ut_rule_files(config)
    # Files named by the ascgen options are collected even when no path argument reaches them; with no path
    # argument at all, only they are (not the testpaths the ini file names).
    given = config.getoption("ascgen_spec") or config.getoption("ascgen_ut")
    if collected and given and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = []
    for path in collected:
        if not any(path == Path(a).resolve() or Path(a).resolve() in path.parents
                   for a in (arg.split("::")[0] for arg in config.args)):
            config.args.append(str(path))


def pytest_generate_tests(metafunc) -> None:
    if "ascgen_product" in metafunc.fixturenames:
        metafunc.parametrize("ascgen_product", _products(metafunc.config), scope="session")
    if "ascgen_backend" in metafunc.fixturenames:
        metafunc.parametrize("ascgen_backend", _backends(metafunc.config), scope="session")


@pytest.fixture(scope="session")
def _ascgen_modules() -> dict:
    return {}


@pytest.fixture
def ascgen_load(ascgen_product, ascgen_backend, _ascgen_modules):
    """load(source, **kw): the Module of `source` for this test's product and backend (cached per session)."""
    from ascgen.runtime import load

    def get(source, **kw):
        key = (str(source), ascgen_product, ascgen_backend, repr(sorted(kw.items())))
        if key not in _ascgen_modules:
            _ascgen_modules[key] = load(source, ascgen_product, backend=ascgen_backend, **kw)
        return _ascgen_modules[key]
    return get


@pytest.fixture
def ascgen_superkernel(ascgen_product):
    """An empty SuperKernel on this test's product (early start on): add tasks, run, check the report."""
    from ascgen.runtime import SuperKernel
    return SuperKernel(ascgen_product, options="early-start=1")


# ---- builder specs as items -----------------------------------------------------------------------

def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".py" and file_path.resolve() in _specs(parent.config):
        return SpecFile.from_parent(parent, path=file_path)
    if file_path.name == "CMakeLists.txt" and file_path.resolve() in parent.config.stash.get(_UT_FILES, ()):
        return UtFile.from_parent(parent, path=file_path)
    return None


class SpecFile(pytest.File):
    def collect(self):
        from ascgen.builder import load_spec
        for kernel in load_spec(self.path):
            for product in _products(self.config):
                for backend in _backends(self.config):
                    item = SpecItem.from_parent(self, name=f"{kernel.name}[{product}-{backend}]", kernel=kernel,
                                                product=product, backend=backend)
                    item.add_marker("ascgen_spec")
                    yield item


class SpecFailed(Exception):
    """A spec kernel whose outputs differ from numpy (the table says where)."""


class SpecItem(pytest.Item):
    def __init__(self, *, kernel, product: str, backend: str, **kw):
        super().__init__(**kw)
        self.kernel, self.product, self.backend = kernel, product, backend

    def runtest(self) -> None:
        from ascgen.commands.test import check_kernel, format_table
        result = check_kernel(self.kernel, self.product, backend=self.backend)
        if not result.ok:
            raise SpecFailed(format_table([result]))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SpecFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.kernel.name} on {self.product} ({self.backend})"


# ---- operator repositories' kernel UT cases as items -----------------------------------------------

_UT_FILES = pytest.StashKey[list]()
_UT_PROGRAMS = pytest.StashKey[dict]()


def _ut_rule_files(config) -> list[Path]:
    """The CMakeLists.txt files holding kernel UT rules under the --ascgen-ut paths (checked usable first)."""
    paths = _ut_paths(config)
    if not paths:
        return []
    from ascgen import config as settings
    from ascgen.errors import SpecError
    from ascgen.ut import cmake
    gtest = settings.gtest_root()
    if gtest is None or settings.gtest_library(gtest) is None:
        raise pytest.UsageError(f"--ascgen-ut: googletest is not installed: {settings.GTEST_HINT}")
    if "devkit" in _backends(config, UT_BACKEND) and settings.asc_devkit() is None:
        raise pytest.UsageError(f"--ascgen-ut builds on the devkit backend: {settings.ASC_DEVKIT_HINT}")
    files = []
    for path in paths:
        try:
            found = cmake.rule_files(cmake.find_root(path.expanduser()), path.expanduser().resolve())
        except SpecError as exc:
            raise pytest.UsageError(f"--ascgen-ut {path}: {exc}") from None
        files += found
        if not found:
            raise pytest.UsageError(f"--ascgen-ut {path}: no kernel UT rules ({cmake.RULE_NAME} in a "
                                    "CMakeLists.txt) found")
    files = list(dict.fromkeys(f.resolve() for f in files))
    config.stash[_UT_FILES] = files
    config.stash[_UT_PROGRAMS] = {}
    config.add_cleanup(lambda: _close_programs(config))
    return files


class UtFile(pytest.File):
    """One CMakeLists.txt: an item per declared case of each of its rules' programs (nothing is built)."""

    def collect(self):
        from ascgen import products
        from ascgen.ut import cmake, targets
        root = cmake.find_root(self.path)
        conv = cmake.convention(root)
        wanted = [products.get(p).id for p in self.config.getoption("ascgen_product") or []]
        for rule in cmake.read_rules(root, self.path, conv):   # an unreadable rule: a collection error
            for want in wanted or [None]:
                for target in targets.targets(rule, conv, want):
                    for backend in _backends(self.config, UT_BACKEND):
                        for case in target.declared() or ["*"]:
                            item = UtItem.from_parent(self, name=f"{case}[{rule.op}@{target.product}-{backend}]",
                                                      target=target, case=case, backend=backend)
                            item.add_marker("ascgen_ut")
                            yield item


class UtFailed(Exception):
    """A UT case that is wrong, a fault or an error: its verdict lines."""


class _Program:
    """A UT program in this process: its scratch folder and its listed cases, built on first use."""

    def __init__(self, target, backend: str):
        from ascgen.ut import runner
        from ascgen.ut.scratch import Scratch, resolve_python
        self.target, self.backend = target, backend
        self.procs = runner.Processes()
        self.scratch = Scratch(target.rule, resolve_python(sys.executable))
        try:
            self.cases, self.status, self.reason, _ = runner.list_cases(target.plan, self.scratch, self.procs, backend)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.procs.kill_all()
        self.scratch.close()


def _program(config, target, backend: str) -> _Program:
    programs = config.stash[_UT_PROGRAMS]
    key = (target.rule.where, target.soc, backend)
    if key not in programs:
        programs[key] = _Program(target, backend)
    return programs[key]


def _close_programs(config) -> None:
    for program in config.stash.get(_UT_PROGRAMS, {}).values():
        program.close()


class UtItem(pytest.Item):
    def __init__(self, *, target, case: str, backend: str, **kw):
        super().__init__(**kw)
        self.target, self.case, self.backend = target, case, backend

    def runtest(self) -> None:
        from ascgen.ut import runner, targets
        from ascgen.ut.verdict import FAILING
        if self.target.plan is None:
            self._verdict([(self.case, self.target.status, self.target.reason)])
        program = _program(self.config, self.target, self.backend)
        if program.cases is None:
            self._verdict([(self.case, program.status, program.reason)])
        chosen = [self.case] if self.case == "*" else targets.instances(self.case, program.cases)
        if not chosen:
            raise pytest.skip.Exception(f"{self.case}: declared in the sources but not in the program's case list "
                                        "(disabled or compiled out)", _use_item_location=True)
        verdicts: list = []
        runner.run_cases(self.target.plan, chosen, program.scratch, program.procs,
                         self.config.getoption("ascgen_ut_time_limit"), self.backend, 1,
                         lambda test, status, reason, seconds: verdicts.append((test, status, reason)))
        self.user_properties += [("ascgen_ut_status", f"{test}: {status}") for test, status, _ in verdicts]
        if any(status in FAILING for _, status, _ in verdicts) or all(s == "unsupported" for _, s, _ in verdicts):
            self._verdict(verdicts)

    def _verdict(self, verdicts) -> NoReturn:
        """Fail (wrong, fault, error) or skip (unsupported only) with each case's status and reason."""
        from ascgen.ut.verdict import FAILING
        lines = "\n".join(f"{test}: {status}: {reason}" for test, status, reason in verdicts)
        if any(status in FAILING for _, status, _ in verdicts):
            raise UtFailed(lines)
        raise pytest.skip.Exception(lines, _use_item_location=True)     # -rs names the rule, not this line

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, UtFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        line = int(self.target.rule.where.rsplit(":", 1)[1]) - 1       # the rule's line (0-based, as pytest wants)
        return self.path, line, f"{self.case} of {self.target.rule.op} on {self.target.product} ({self.backend})"
