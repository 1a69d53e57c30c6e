"""`ascgen check` on the seeded-bug corpus (tests/check/corpus/): every marked (line, rule) is reported
and nothing else, so a false positive fails as surely as a miss; each bug has a clean twin."""
from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

from ascgen.check import check_file
from tests.paths import CHECK_CORPUS

CORPUS = CHECK_CORPUS
SOURCES = sorted(CORPUS.glob("*.cpp"))


def expected(path: Path) -> collections.Counter:
    marks = collections.Counter()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        m = re.search(r"//\s*EXPECT:\s*(.+)$", line)
        if m:
            for rule in m.group(1).split():
                marks[(number, rule)] += 1
    return marks


def options(path: Path) -> dict:
    m = re.search(r"^// CHECK-ARGS:\s*--product\s+([\w.-]+)\s*$", path.read_text(), re.MULTILINE)
    return {"product": m.group(1)} if m else {}


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_corpus_verdict(path):
    result = check_file(path, **options(path))
    got = collections.Counter((d.line, d.rule) for d in result.diagnostics)
    assert got == expected(path), "\n".join(str(d) for d in result.diagnostics)


def test_corpus_has_bugs_and_twins():
    bugs = [p for p in SOURCES if expected(p)]
    twins = [p for p in SOURCES if p.stem.endswith("_ok")]
    assert len(bugs) >= 10 and len(twins) >= 6
    for twin in twins:
        assert not expected(twin), f"{twin.name} is a clean twin but has EXPECT markers"


@pytest.mark.parametrize("name, rule, severity", [
    ("gm_read_before_wait.cpp", "tasksync-gm-before-wait", "warning"),   # reads: host weights may be prefetched
    ("gm_write_after_set.cpp", "tasksync-gm-after-set", "error"),
    ("pipe_not_default.cpp", "tasksync-pipe", "warning"),
    ("wrong_pipe.cpp", "tasksync-pipe", "error"),
    ("force_no_superkernel.cpp", "tasksync-no-effect", "note"),
])
def test_severity(name, rule, severity):
    path = CORPUS / name
    found = {d.severity for d in check_file(path, **options(path)).diagnostics if d.rule == rule}
    assert found == {severity}


def test_messages_name_the_branch_and_the_access():
    tk = check_file(CORPUS / "tilingkey_missing_set.cpp")
    (d,) = tk.diagnostics
    assert "SetNextTaskStart is not reached on the path where" in d.message
    assert "`TILING_KEY_IS(2)` is true" in d.message
    assert any("TILING_KEY_IS(2)" in n.message for n in d.notes)
    assert any("called here on other paths" in n.message and n.line == 39 for n in d.notes)
    gm = check_file(CORPUS / "gm_write_after_set.cpp")
    (d,) = gm.diagnostics
    assert "GM write of `yGm` by AscendC::DataCopy(yGm[tiles * TILE], o, TILE)" in d.message
    assert d.notes[-1].line == 24 and "SetNextTaskStart" in d.notes[-1].message
    loop = check_file(CORPUS / "set_in_loop.cpp")
    (d,) = loop.diagnostics
    assert d.notes[0].line == 19 and "loop" in d.notes[0].message


def test_product_changes_only_product_rules():
    path = CORPUS / "force_no_superkernel.cpp"
    assert check_file(path).diagnostics == []                  # FORCE is fine where SK_BIND exists...
    on_a3 = check_file(path, product="ascend910_93").diagnostics
    assert [d.rule for d in on_a3] == ["tasksync-pipe"]        # ...but MTE3 as AIC_PIPE is not A3's default FIX


def test_side_findings_name_their_build():
    # Without --product: the 3510 side macros the code tests make two builds, each finding says which.
    result = check_file(CORPUS / "core_side_macros_3510.cpp")
    builds = {(d.line, d.message.rsplit("[", 1)[-1]) for d in result.diagnostics}
    assert builds == {(10, "AIV build (__DAV_C310_VEC__)]"), (15, "AIC build (__DAV_C310_CUBE__)]")}
