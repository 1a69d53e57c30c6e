"""Verdicts from recorded shim logs and run outcomes (ascgen/ut/verdict.py)."""
import json
from pathlib import Path

import pytest

from ascgen.ut import runner, verdict


def _records(tmp_path, *runs):
    log = tmp_path / "shim.jsonl"
    with open(log, "w") as f:
        for argv, status, out, err in runs:
            f.write(json.dumps({"argv": argv, "cwd": "/x", "status": status, "stdout": out, "stderr": err}) + "\n")
        f.write('{"argv": ["cut sho')                   # a record cut short by a kill is skipped
    return verdict.read_log(log)


OK = verdict.Outcome("ok")
GEN = (["gen_data.py", "float32"], 0, "", "")


@pytest.mark.parametrize("compare, expected", [
    ((["compare_data.py"], 0, "PASSED!\n", ""), "passed-compared"),
    ((["compare_data.py"], 0, "index: 3, output: 1, golden: 2\nFAILED!\n", ""), "wrong"),
    ((["compare_data.py"], 1, "PASSED!\n", ""), "wrong"),                    # exit status counts
    ((["compare_data.py"], 0, "compare result: False\n", ""), "wrong"),
    ((["compare_data.py"], 0, "compare result: True\n", ""), "passed-compared"),
    ((["verify.py"], 0, "Result: 3 PASSED, 0 FAILED\n", ""), "passed-compared"),
    ((["verify.py"], 0, "Result: 1 PASSED, 2 FAILED\n", ""), "wrong"),
    ((["compare_data.py"], 0, "done\n", ""), "error"),                       # no verdict is not a pass
    # a verdict inside the line (ops-math bitwise_not's style), from a script named a comparison
    ((["compare_data.py", "int16"], 0, "[op] int16 compare PASS (bitwise exact)\n", ""), "passed-compared"),
    ((["compare_data.py", "int16"], 0, "[op] int16 compare FAILED, mismatch=3/64\n", ""), "wrong"),
    ((["compare_data.py"], 0, "[op] PASS then [op] FAIL\n", ""), "wrong"),   # any fail outweighs a pass
    ((["compare_data.py"], 0, "the comparison did not pass\n", ""), "error"),  # prose is no verdict
    ((["verify.py"], 0, "[op] compare PASS\n", ""), "passed-ran"),          # not named a comparison: ignored
    # ops-nn turbo_quant_compress_latent's compare_data.py: "[SUCCESS] ..." or "[FAILED] ..." and exit 1
    ((["compare_data.py", "33"], 0, "[SUCCESS] 33x80 slot bytes match the golden exactly\n", ""), "passed-compared"),
    ((["compare_data.py", "33"], 1, "[FAILED] 2 norm mismatches\n", ""), "wrong"),
    ((["gen_data.py"], 0, "SUCCESS: data written\n", ""), "passed-ran"),       # not named a comparison: ignored
    ((["compare_data.py"], 1, "", "ModuleNotFoundError: No module named 'torch'\n"), "unsupported"),
])
def test_comparison_verdicts(tmp_path, compare, expected):
    status, reason = verdict.classify(OK, _records(tmp_path, GEN, compare))
    assert status == expected, reason
    if expected == "unsupported":
        assert "needs torch" in reason


def test_no_comparison_is_passed_ran_and_a_failed_data_script_an_error(tmp_path):
    assert verdict.classify(OK, _records(tmp_path, GEN))[0] == "passed-ran"
    assert verdict.classify(OK, [])[0] == "passed-ran"
    status, reason = verdict.classify(OK, _records(tmp_path, (["gen_data.py"], 2, "", "ValueError: bad shape\n")))
    assert status == "error" and "gen_data.py failed (exit 2): ValueError: bad shape" in reason


def test_a_fault_wins_and_a_gtest_failure_is_wrong(tmp_path):
    records = _records(tmp_path, GEN, (["compare_data.py"], 0, "PASSED!", ""))
    assert verdict.classify(verdict.Outcome(None, fault="memory error at k.cpp:3"), records) == \
        ("fault", "memory error at k.cpp:3")
    assert verdict.classify(verdict.Outcome("failed", failure="t.cpp:9: Expected 1"), records) == \
        ("wrong", "t.cpp:9: Expected 1")
    assert verdict.classify(verdict.Outcome(None, error="exit status 3"), [])[0] == "error"


def test_a_fault_after_a_data_script_that_needs_a_module_is_named_after_the_missing_module(tmp_path):
    # the script never wrote its files: the kernel ran on no data (ops-nn clipped_swiglu: SIGFPE)
    records = _records(tmp_path, (["gen_data.py"], 1, "", "ModuleNotFoundError: No module named 'torch'\n"))
    status, reason = verdict.classify(verdict.Outcome(None, fault="crashed with SIGFPE at k.hpp:169\nmore"), records)
    assert status == "unsupported"
    assert reason.startswith("data script gen_data.py needs torch")
    assert reason.endswith("the kernel then ran without that data: crashed with SIGFPE at k.hpp:169")


def test_a_case_that_skips_itself_is_unsupported_with_its_message(tmp_path):
    # ops-nn swiglu_group_grad: GTEST_SKIP() << "tikicpulib CPU simulator does not execute RegBase ..."
    out = ("[ RUN      ] S.t\n/a/t.cpp:64: Skipped\ntikicpulib CPU simulator does not execute RegBase\n\n"
           "[  SKIPPED ] S.t (0 ms)\n")
    o = runner.outcome("S.t", 0, out, "", 1.0)
    assert o.gtest == "skipped"
    assert verdict.classify(o, []) == \
        ("unsupported", "the test skips itself (GTEST_SKIP): /a/t.cpp:64: tikicpulib CPU simulator does not execute RegBase")


def test_run_outcomes_from_gtest_and_ascgen_output():
    out = "[ RUN      ] S.t\n/a/t.cpp:9: Failure\nExpected equality\n[  FAILED  ] S.t (0 ms)\n"
    o = runner.outcome("S.t", 1, out, "", 1.0)
    assert o.gtest == "failed" and o.failure.startswith("/a/t.cpp:9: Expected equality") and not o.fault
    o = runner.outcome("S.t", 1, "[ RUN      ] S.t\n", "ascgen: ====\nERROR: ascgen: hang: AIV0 waits\n"
                                                           "  in kernel \"k\" at k.cpp:4\nSUMMARY: x\n", 1.0)
    assert o.fault == 'hang: AIV0 waits; in kernel "k" at k.cpp:4'
    assert "killed" in runner.outcome("S.t", None, "", "", 1.0).fault
    assert runner.outcome("S.t", 0, "[       OK ] S.t (1 ms)\n", "", 1.0).gtest == "ok"


def test_build_failures_name_the_missing_piece():
    assert runner.build_failure("x.cpp:1:10: fatal error: acl/acl_base.h: No such file or directory") == \
        ("unsupported", "missing header acl/acl_base.h")
    assert runner.build_failure("t.cpp:5:3: error: \u2018ICPU_FOO\u2019 was not declared in this scope") == \
        ("unsupported", "'ICPU_FOO' not declared")
    assert runner.build_failure("ascgen: error: m.cpp: ... needs:\n  intrinsic get_coreid (needed by k.cpp:3)\n")[1] \
        .startswith("missing intrinsic get_coreid")
    assert runner.build_failure("ascgen: error: m.cpp: ... needs:\n  intrinsic vlds [(VReg<float, 4>, float*, Dist=20)] "
                                "(needed by F)\n  intrinsic vmula\n")[1] \
        .startswith("missing intrinsic vlds [(VReg<float, 4>, float*, Dist=20)], vmula")
    assert runner.build_failure("ascgen: error: compiling x failed:\n  t.cpp:2:1: error: expected ';'") == \
        ("error", "t.cpp:2:1: error: expected ';'")


def test_gtest_list_is_parsed():
    out = "Running main()\nSuite.\n  a\n  b  # GetParam() = 1\nOther/P.\n  c/0\n"
    assert runner.parse_list(out) == ["Suite.a", "Suite.b", "Other/P.c/0"]


def test_a_program_that_does_not_build_reports_each_declared_case(tmp_path):
    src = tmp_path / "test_x.cpp"
    src.write_text("TEST_F(XTest, a) {}\n// TEST(XTest, commented) {}\n  TEST(XTest, b)\n{}\nTEST_P(P, c) {}\n")
    assert runner.declared_cases([src]) == ["XTest.a", "XTest.b", "P.c"]


def test_build_failures_name_the_original_files_not_the_copy_tree():
    dst = Path("/cache/ut/tree/layer_norm-1/tbe/ascendc")
    maps = [(dst / "layer_norm", Path("/repo/norm/layer_norm/op_kernel")),
            (dst / "layer_norm_v3", Path("/repo/norm/layer_norm_v3/op_kernel"))]
    err = f"{dst}/layer_norm/../layer_norm_v3/arch35/x.h:43:15: error: 'T' does not name a type"
    assert runner.build_failure(runner.original_paths(err, maps)) == \
        ("error", "/repo/norm/layer_norm_v3/op_kernel/arch35/x.h:43:15: error: 'T' does not name a type")
    assert runner.original_paths(f"{dst}/other/y.h:1: note", maps) == f"{dst}/other/y.h:1: note"   # not a copy
