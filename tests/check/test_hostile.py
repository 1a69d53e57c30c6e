"""`ascgen check` on hostile input (issue 25, point 7): each input is refused with one clear line (exit 2)
or analysed correctly, never a traceback, an internal error or a false finding."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse

import pytest

from ascgen import config
from ascgen.check import budget, check_file
from ascgen.check import format as check_format
from ascgen.errors import AscgenError
from tests.check import sarif_schema
from tests.paths import REPO

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {{
    AscendC::WaitPreTaskEnd();
{body}
    AscendC::SetNextTaskStart();
}}
"""
EARLY_RETURN = KERNEL.format(body="    if (x) return;")      # SetNextTaskStart missed: line 4


def _cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(REPO), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    return subprocess.run([sys.executable, "-m", "ascgen", "check", *args], capture_output=True, cwd=cwd,
                          timeout=120, env=env)


def _nested(depth: int) -> str:
    return KERNEL.format(body="if (x) {\n" * depth + "    return;\n" + "}\n" * depth)


def test_deep_nesting_is_one_clear_line_and_exit_2(tmp_path):
    (tmp_path / "nested.cpp").write_text(_nested(1000))
    run = _cli("nested.cpp", cwd=tmp_path)
    err = run.stderr.decode()
    assert run.returncode == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err and "RecursionError" not in err, err
    assert "nested.cpp:" in err and "brackets nested 1001 deep" in err and "not analysed" in err


def test_nesting_up_to_the_limit_is_analysed(tmp_path):
    # The function's brace and the innermost `if`'s parentheses count: this source reaches the limit.
    source = tmp_path / "deep_ok.cpp"
    depth = budget.MAX_NESTING - 1
    source.write_text(_nested(depth))
    assert budget.max_nesting(source.read_text())[0] == budget.MAX_NESTING
    result = check_file(source)
    assert [(d.line, d.rule) for d in result.errors] == [(4 + depth, "tasksync-once-per-path")]


def test_file_name_that_is_not_utf8(tmp_path):
    name = os.fsdecode(b"bad\xff kernel.cpp")
    (tmp_path / name).write_text(EARLY_RETURN)
    result = check_file(str(tmp_path / name))
    assert [(d.file, d.line) for d in result.errors] == [(str(tmp_path / name), 4)]
    run = _cli(b"bad\xff kernel.cpp", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert run.stdout.decode().startswith("bad\\xff kernel.cpp:4:12: error: SetNextTaskStart is not reached")


def test_quoted_include_next_to_a_file_name_that_is_not_utf8(tmp_path):
    (tmp_path / "helper.h").write_text("__aicore__ inline void Done() { AscendC::SetNextTaskStart(); }\n")
    name = os.fsdecode(b"k\xfe.cpp")
    (tmp_path / name).write_text(EARLY_RETURN.replace("AscendC::SetNextTaskStart();", "Done();")
                                 .replace('"kernel_operator.h"', '"kernel_operator.h"\n#include "helper.h"'))
    result = check_file(str(tmp_path / name))
    assert [(d.file, d.line) for d in result.errors] == [(str(tmp_path / name), 5)]
    assert not result.skipped


def test_file_named_like_an_option(tmp_path, monkeypatch):
    (tmp_path / "-x.cpp").write_text(EARLY_RETURN)
    monkeypatch.chdir(tmp_path)
    result = check_file("-x.cpp")
    assert [(d.file, d.line) for d in result.errors] == [("-x.cpp", 4)]


def test_brackets_clang_cannot_parse_are_not_a_finding(tmp_path):
    # 300 nested parentheses: clang stops at 256 (a fatal error) and drops the rest of the body, which
    # used to give a false "never calls SetNextTaskStart".
    source = tmp_path / "brackets.cpp"
    source.write_text(KERNEL.format(body="    int v = " + "(" * 300 + "1" + ")" * 300 + ";"))
    with pytest.raises(AscgenError, match=r"brackets.cpp:4: brackets nested 301 deep .* not analysed"):
        check_file(source)


def test_a_fatal_clang_error_is_not_analysed(tmp_path):
    # Past a fatal error clang stops instantiating templates: the AST misses code, so no verdict.
    source = tmp_path / "recursion.cpp"
    source.write_text(KERNEL.format(body="    int v = R<0>::v;").replace(
        "extern", "template <int N> struct R { static constexpr int v = R<N + 1>::v; };\nextern"))
    with pytest.raises(AscgenError, match=r"recursion.cpp:2: clang gave up here \(recursive template "
                                          r"instantiation exceeded .*\).* not analysed"):
        check_file(source)


def test_giant_source_is_refused_up_front(tmp_path):
    source = tmp_path / "giant.cpp"
    source.write_text(KERNEL.format(body="    int a = 0;\n" * ((24 << 20) // 15)))   # about 24 MB
    with pytest.raises(AscgenError, match=r"giant.cpp: the source and its own headers hold 2\d\.\d MiB, more "
                                          r"than the 8 MiB .*ASCGEN_CHECK_MAX_SOURCE_MB"):
        check_file(source)


def test_time_budget_stops_the_analysis(tmp_path, monkeypatch):
    source = tmp_path / "long.cpp"
    source.write_text(KERNEL.format(body="    if (x) { x = x + 1; }\n" * 400))
    monkeypatch.setattr(config, "check_time_limit", lambda: 0)
    with pytest.raises(AscgenError, match=r"long.cpp: the path analysis took more than 0 CPU seconds "
                                          r"\(ASCGEN_CHECK_TIME_LIMIT"):
        check_file(source)


def test_bad_budget_setting_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("ASCGEN_CHECK_MAX_SOURCE_MB", "lots")
    with pytest.raises(AscgenError, match="ASCGEN_CHECK_MAX_SOURCE_MB='lots' is not a positive whole number"):
        config.check_max_source_bytes()


def test_sarif_uris_are_percent_encoded_and_valid(tmp_path):
    names = ["my kernel #1 100%.cpp", os.fsdecode(b"bad\xff.cpp")]
    for name in names:
        (tmp_path / name).write_text(EARLY_RETURN)
    run = _cli(*names, "--format", "sarif", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    doc = json.loads(run.stdout)
    assert sarif_schema.problems(doc) == []
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for result in doc["runs"][0]["results"] for loc in result["locations"]}
    assert uris == {"my%20kernel%20%231%20100%25.cpp", "bad%FF.cpp"}
    assert {os.fsdecode(urllib.parse.unquote_to_bytes(u)) for u in uris} == set(names)


def test_the_sarif_validator_rejects_what_the_schema_rejects():
    def log(uri, **result):
        return {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [{"id": "r"}]}},
                                              "results": [{"ruleId": "r", "message": {"text": "m"}, **result,
                                                           "locations": [{"physicalLocation": {
                                                               "artifactLocation": {"uri": uri},
                                                               "region": {"startLine": 1}}}]}]}]}
    assert sarif_schema.problems(log("a/b%20c.cpp", level="error", ruleIndex=0)) == []
    assert sarif_schema.problems(log("file:///tmp/x%23.cpp")) == []
    assert "URI reference" in sarif_schema.problems(log("my kernel.cpp"))[0]
    assert "URI reference" in sarif_schema.problems(log("100%.cpp"))[0]
    assert "is not one of" in sarif_schema.problems(log("a.cpp", level="fatal"))[0]
    assert "ruleIndex" in sarif_schema.problems(log("a.cpp", ruleIndex=3))[0]


def test_display_names_are_printable():
    assert check_format.display(os.fsdecode(b"a\xffb.cpp")) == "a\\xffb.cpp"
    assert check_format.display("plain.cpp") == "plain.cpp"
