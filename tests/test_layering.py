"""The package layering, read from every import statement in ascgen/ (function-level ones included).

Layers, lowest first; a module may import its own package and the packages its layer allows:

    foundation  ascgen, errors, products, config, console, resources     nothing above it
    source      C++ source facts (signatures, kernel types, launches)    foundation
    builder     the Python DSL and its numpy reference                   foundation
    runtime     build, load, launch, SuperKernel, reports               foundation, source
    check       the static checker                                       foundation, source
    codegen     plan, placement, render, builder SuperKernels            foundation, builder, runtime
    ut          operator repositories' CMake conventions, kernel UTs     foundation, source, runtime
    ops         production operators: op_host tiling and kernel, unchanged  foundation, source, runtime, ut
                (an op's kernel builds with the tree and include path its repository's CMake gives, ut/)
    commands    cli, __main__, one module per subcommand                 anything
    pytest_plugin  fixtures and spec items for pytest                    anything but itself

And no import cycle between modules at all.
"""
import ast
from pathlib import Path

import pytest

from tests.paths import REPO

PACKAGE = REPO / "ascgen"
FOUNDATION = {"ascgen", "ascgen.errors", "ascgen.products", "ascgen.config", "ascgen.console", "ascgen.resources"}
ALLOWED = {
    "foundation": set(),
    "source": {"foundation"},
    "builder": {"foundation"},
    "runtime": {"foundation", "source"},
    "check": {"foundation", "source"},
    "codegen": {"foundation", "builder", "runtime"},
    "ut": {"foundation", "source", "runtime"},
    "ops": {"foundation", "source", "runtime", "ut"},
    "commands": {"foundation", "source", "builder", "runtime", "check", "codegen", "ut", "ops", "commands"},
    "pytest_plugin": {"foundation", "source", "builder", "runtime", "check", "codegen", "ut", "ops", "commands"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    if module in FOUNDATION:
        return "foundation"
    if module in ("ascgen.cli", "ascgen.__main__"):
        return "commands"
    return module.split(".")[1]


def imports(path: Path) -> set[str]:
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    return imports_in(path.read_text(), package)


def imports_in(text: str, package: str) -> set[str]:
    """The ascgen modules a source imports (`from ascgen.x import y` counts y when it is a module);
    `package` resolves relative imports."""
    tree = ast.parse(text)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "ascgen"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] != "ascgen":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    return found


FILES = sorted(PACKAGE.rglob("*.py"))
MODULES = {module_name(p) for p in FILES}
GRAPH = {module_name(p): imports(p) - {module_name(p)} for p in FILES}


def test_every_package_is_a_known_layer():
    assert {layer(m) for m in MODULES} <= set(ALLOWED)


def violations(module: str, deps: set[str]) -> list[str]:
    own = layer(module)
    return sorted(f"{dep} ({layer(dep)})" for dep in deps if layer(dep) != own and layer(dep) not in ALLOWED[own])


def cycles(graph: dict) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_layers(module):
    wrong = violations(module, GRAPH[module])
    assert not wrong, f"{module} ({layer(module)} layer) imports above or beside its layer: {', '.join(wrong)}"


def test_no_import_cycles():
    assert not cycles(GRAPH), f"import cycles: {cycles(GRAPH)}"


def test_planted_violations_are_found():
    """The reader and both rules work: a function-level upward import, a relative one, and a cycle."""
    upward = imports_in("def f():\n    from ascgen.codegen.plan import plan_kernel\n", "ascgen.runtime")
    assert violations("ascgen.runtime.module", upward) == ["ascgen.codegen.plan (codegen)"]
    relative = imports_in("from ..builder import kernel\n", "ascgen.check")
    assert violations("ascgen.check.paths", relative) == ["ascgen.builder.kernel (builder)"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
