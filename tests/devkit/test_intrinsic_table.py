"""The intrinsic table (ascgen/runtime/backends/devkit/intrinsics.py) is the truth about the devkit model's headers:

* the files generated from it (missing.h, dav3510/others.h, docs/intrinsics.md) are what it gives today;
* on every arch, the family headers define exactly the names the table calls implemented or partial, in the
  families it names, and the generated headers declare exactly its partial and named-missing ones: a header
  that defines a name the table does not list fails, and so does a row nothing defines or declares;
* a build that reaches every declared name of an arch reports exactly those names (the totals the docs give);
* the known-answer coverage mapping (intrinsic_coverage.json, measured by benchmarks/intrinsic_coverage.py)
  names only implemented rows and existing tests.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from ascgen import resources
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import intrinsics as table, toolchain as devkit
from tests.devkit import header_scan
from tests.paths import REPO

COVERAGE_FILE = Path(__file__).with_name("intrinsic_coverage.json")
DECLARING = {"P": {"missing.h"}, "M": {"missing.h"}, "F": {"dav3510/others.h"}}   # cell -> generated header
GENERATED = {"missing.h", "dav3510/others.h"}
NOT_LISTED = {"dav3510/simt.h"}       # the SIMT stand-ins: not CCE intrinsics (see the table's docstring)


def coverage() -> dict:
    return json.loads(COVERAGE_FILE.read_text()) if COVERAGE_FILE.is_file() else {}


def test_the_generated_files_are_what_the_table_gives():
    stale = [str(p.relative_to(REPO)) for p, text in table.generated(coverage()).items()
             if not p.is_file() or p.read_text() != text]
    assert not stale, (f"stale: {', '.join(stale)}; run python -c 'import json; from ascgen.runtime.backends.devkit import "
                       f"intrinsics as t; t.write_all(json.load(open(\"{COVERAGE_FILE.relative_to(REPO)}\")))'")


def _expected(row, arch) -> tuple[bool, set[str]]:
    """(defined by a family header, the generated headers declaring it) for one cell."""
    cell = row.on(arch)
    return cell in "IPF", DECLARING.get(cell, set())


@pytest.fixture(scope="module")
def scans() -> dict:
    return {arch: header_scan.scan(arch) for arch in table.ARCHES}


def test_the_headers_define_and_declare_what_the_table_says(scans):
    rows = {r.name: r for r in table.ROWS}
    wrong, families = [], {r.name: set() for r in table.ROWS}
    for arch, found in scans.items():
        for name, where in found.items():
            defs = where.get("def", set()) - NOT_LISTED
            decls = where.get("decl", set()) & GENERATED
            if not defs and not decls:
                continue
            if name not in rows:
                wrong.append(f"{arch}: {sorted(defs | decls)} define or declare {name}, which the table does not list")
                continue
            defined, declaring = _expected(rows[name], arch)
            if bool(defs) != defined or decls != declaring:
                wrong.append(f"{arch}: {name} is {rows[name].on(arch)!r} in the table, but defined in {sorted(defs)}"
                             f" and declared in {sorted(decls)}")
            families[name] |= {d.removesuffix(".h") for d in defs}
        for row in table.ROWS:
            if row.on(arch) != "-" and row.name not in found:
                wrong.append(f"{arch}: {row.name} is {row.on(arch)!r} in the table, but nothing defines or declares it")
    for row in table.ROWS:
        if families[row.name] and families[row.name] != set(row.families):
            wrong.append(f"{row.name}: defined in {sorted(families[row.name])}, the table says {row.families}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("arch", table.ARCHES)
def test_a_build_reaching_every_declared_name_reports_exactly_those(arch, tmp_path):
    declared = sorted(r.name for r in table.ROWS if r.on(arch) in table.DECLARED)
    src = tmp_path / "probe.cpp"
    src.write_text('#include "stub_def.h"\nextern "C" void ascgen_probe() {\n'
                   + "".join(f"    (void){n}();\n" for n in declared) + "}\n")
    so = tmp_path / "probe.so"
    cmd = [build.find_compiler(), "-std=c++17", "-O0", "-g0", "-w", "-fPIC", "-shared", f"-D__NPU_ARCH__={arch}",
           "-DASCENDC_CPU_DEBUG=1", f"-I{header_scan.model_root()}", *(f"-I{d}" for d in resources.include_dirs()),
           f"-I{resources.common_dir()}", str(src), "-o", str(so)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = devkit.missing_report(so)
    named = set(re.findall(r"^  intrinsic (\w+)", report or "", re.M))
    assert named == set(declared), f"reported, not in the table: {sorted(named - set(declared))}; " \
                                   f"in the table, not reported: {sorted(set(declared) - named)}"
    t = table.totals(arch)
    assert len(named) == t["partial"] + t["named-missing"]


def test_the_report_names_table_intrinsics_and_nothing_else():
    assert devkit._intrinsic("ascgen_devkit::Missing get_pc<>()") == "get_pc"
    assert devkit._intrinsic("vlds(...)") == "vlds"                               # a dav_3510 other form
    assert devkit._intrinsic("ascgen_devkit::Missing ascgen_devkit::unimpl::vcvt<int>(int)") == "vcvt"
    assert devkit._intrinsic("ascgen_devkit::Missing simt_WarpOp<float>(float)") == "simt_WarpOp"
    assert devkit._intrinsic("ascgen_devkit::Missing::operator int<int>() const") is None
    assert devkit._intrinsic("void AscendC::Helper<int>(int)") is None            # a library function
    assert devkit._intrinsic("copy_gm_to_ubuf(void*, void*, unsigned char)") is None   # implemented only


def test_the_coverage_mapping_names_implemented_rows_and_existing_tests():
    mapping = coverage()
    if not mapping:
        pytest.skip(f"no coverage measured yet ({COVERAGE_FILE.name})")
    rows = {r.name: r for r in table.ROWS}
    for name, tests in mapping.items():
        if name.startswith("_"):
            continue
        assert name in rows and set(rows[name].cells.values()) & set("IPF"), name
        for test in tests:
            path, _, func = test.partition("::")
            assert (REPO / path).is_file() and re.search(rf"def {re.escape(func.split('[')[0])}\b",
                                                         (REPO / path).read_text()), test
