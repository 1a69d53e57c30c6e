"""`ascgen check` on the command line: output formats and exit codes (0 clean, 1 error, 2 not analysed)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.paths import CHECK_CORPUS, REPO

CORPUS = CHECK_CORPUS
BUG = CORPUS / "early_return.cpp"
CLEAN = CORPUS / "early_return_ok.cpp"
WARN_ONLY = CORPUS / "gm_read_before_wait.cpp"


REPO = REPO


def ascgen(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "ascgen", "check", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120, env=env)


def test_clean_source_exits_0_silently():
    run = ascgen(CLEAN)
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""


def test_error_exits_1_with_compiler_style_lines():
    run = ascgen(BUG)
    assert run.returncode == 1
    first = run.stdout.splitlines()[0]
    assert re.fullmatch(rf"{re.escape(str(BUG))}:20:13: error: SetNextTaskStart is not reached on the path "
                        r"where .* \[tasksync-once-per-path\]", first), first
    assert any(re.match(rf"{re.escape(str(BUG))}:19:9: note: ", line) for line in run.stdout.splitlines())
    assert run.stdout.splitlines()[-1] == "1 error(s), 0 warning(s)"


def test_warnings_alone_exit_0():
    run = ascgen(WARN_ONLY)
    assert run.returncode == 0
    assert "warning:" in run.stdout and "[tasksync-gm-before-wait]" in run.stdout


def test_json_format():
    run = ascgen(BUG, CLEAN, "--format", "json")
    assert run.returncode == 1
    doc = json.loads(run.stdout)
    assert set(doc) == {"diagnostics", "skipped"}
    (d,) = doc["diagnostics"]
    assert {k: d[k] for k in ("file", "line", "column", "severity", "rule")} == {
        "file": str(BUG), "line": 20, "column": 13, "severity": "error", "rule": "tasksync-once-per-path"}
    assert d["message"].startswith("SetNextTaskStart is not reached")
    assert d["notes"] and all({"file", "line", "column", "message"} <= set(n) for n in d["notes"])


def test_sarif_format(tmp_path):
    run = ascgen(BUG, "--format", "sarif", cwd=CORPUS)
    assert run.returncode == 1
    doc = json.loads(run.stdout)
    assert doc["version"] == "2.1.0" and "sarif-2.1.0" in doc["$schema"]
    (sarif_run,) = doc["runs"]
    rules = [r["id"] for r in sarif_run["tool"]["driver"]["rules"]]
    (result,) = sarif_run["results"]
    assert result["ruleId"] == "tasksync-once-per-path" and result["level"] == "error"
    assert rules[result["ruleIndex"]] == result["ruleId"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": BUG.name, "uriBaseId": "SRCROOT"}
    assert location["region"] == {"startLine": 20, "startColumn": 13}
    assert result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 19
    assert sarif_run["invocations"][0]["executionSuccessful"] is True


def test_missing_file_exits_2_with_the_reason(tmp_path):
    run = ascgen(tmp_path / "nope.cpp")
    assert run.returncode == 2
    assert "could not analyse" in run.stderr and "nope.cpp: no such file" in run.stderr


def test_no_kernel_entry_exits_2_even_beside_an_error(tmp_path):
    host = tmp_path / "host.cpp"
    host.write_text("int main() { return 0; }\n")
    run = ascgen(BUG, host)
    assert run.returncode == 2                     # a file not analysed is never mistaken for a finding
    assert "no kernel entry found" in run.stderr
    assert "[tasksync-once-per-path]" in run.stdout  # the other file is still reported


def test_unknown_product_is_one_line_exit_2():
    run = ascgen(CLEAN, "--product", "ascend999")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "unknown product 'ascend999'" in run.stderr


def test_defines_and_include_dirs_reach_the_parser(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sync_helpers.h").write_text(
        "#pragma once\n__aicore__ inline void Arrive() { AscendC::SetNextTaskStart(); }\n")
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "sync_helpers.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
                   '    AscendC::WaitPreTaskEnd();\n'
                   '#if EXTRA_ARRIVE\n    Arrive();\n#endif\n    Arrive();\n}\n')
    assert ascgen(src, "-I", tmp_path / "inc").returncode == 0
    twice = ascgen(src, "-I", tmp_path / "inc", "-D", "EXTRA_ARRIVE=1")
    assert twice.returncode == 1 and "executed more than once" in twice.stdout
    assert "sync_helpers.h:2:" in twice.stdout     # the helper's call, in the header, is named


def test_a_folder_checks_the_sources_under_it(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bug.cpp").write_text(BUG.read_text())
    (tmp_path / "clean.asc").write_text(CLEAN.read_text())
    (tmp_path / "notes.txt").write_text("not a source")
    run = ascgen(tmp_path, "--format", "json")
    assert run.returncode == 1
    files = {Path(d["file"]).name for d in json.loads(run.stdout)["diagnostics"]}
    assert files == {"bug.cpp"}
    (tmp_path / "empty").mkdir()
    assert ascgen(tmp_path / "empty").returncode == 2


def test_an_empty_source_argument_is_an_error_not_a_check_of_the_current_folder(tmp_path):
    """`ascgen check "$UNSET"`: Path("") is ".", which used to check every source below the current folder
    (about 40 s in the repository root) and give a verdict on files nobody named."""
    (tmp_path / "k.cpp").write_text(BUG.read_text())       # a finding, were the folder checked
    run = ascgen("", cwd=tmp_path)
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "an empty SOURCE argument" in run.stderr and run.stdout == "", run.stderr
