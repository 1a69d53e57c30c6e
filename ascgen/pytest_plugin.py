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
"""
from __future__ import annotations

from pathlib import Path

import pytest

DEFAULT_BACKEND = "builtin"


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


def _backends(config) -> list[str]:
    return list(dict.fromkeys(config.getoption("ascgen_backend") or [DEFAULT_BACKEND]))


def _specs(config) -> set[Path]:
    given = [Path(p) for p in config.getoption("ascgen_spec")] + list(config.getini("ascgen_specs"))
    return {p.resolve() for p in given}


def pytest_configure(config) -> None:
    _check_backends(config)
    config.addinivalue_line("markers", "ascgen_spec: a kernel of a builder spec run against numpy (ascgen test)")
    # Specs named on the command line are collected even when no path argument reaches them; with no path
    # argument at all, only they are (not the testpaths the ini file names).
    specs = _specs(config)
    if specs and config.getoption("ascgen_spec") and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = []
    for spec in sorted(specs):
        if not any(spec == Path(a).resolve() or Path(a).resolve() in spec.parents
                   for a in (arg.split("::")[0] for arg in config.args)):
            config.args.append(str(spec))


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
