"""`ascgen sk` (issue 21 point 1): a kernel from the command line as a SuperKernel task between generated
neighbours. Each seeded bug gets its verdict, its line and exit 1; the clean kernel exits 0; and the
numbers the kernel computes are still right (the neighbours rewrite the inputs with the same bytes)."""
import json

import numpy as np
import pytest

from ascgen.cli import main
from tests.paths import SK_BUGS, TESTS

N = 4608                           # 8 cores x 576 floats: 2 tiles and a tail each
SK_CLI = TESTS / "data" / "sk_cli"


@pytest.fixture
def files(tmp_path):
    x = (np.arange(N, dtype=np.float32) % 97) - 40.0
    x.tofile(tmp_path / "x.bin")
    return x, tmp_path


def sk(source, kernel, tmp_path, *extra):
    argv = ["sk", str(source), "--kernel", kernel, "--block-dim", "8", "--arg", f"in:{tmp_path / 'x.bin'}",
            "--arg", f"out:{tmp_path / 'y.bin'}:{4 * N}", "--arg", str(N), *extra]
    return main(argv)


def test_clean_kernel_exits_0_and_computes_the_right_numbers(files, capsys):
    x, tmp = files
    assert sk(SK_BUGS / "good.cpp", "scale", tmp, "--svg", str(tmp / "t.svg")) == 0
    out = capsys.readouterr().out
    assert "verdict: clean" in out and "ascgen_sk_producer" in out and "ascgen_sk_consumer" in out, out
    assert "modeled time (3 tasks" in out, out
    np.testing.assert_array_equal(np.fromfile(tmp / "y.bin", dtype=np.float32), 2 * x)
    assert (tmp / "t.svg").read_text().startswith("<svg")


def test_set_in_the_tile_loop_is_a_count_mismatch_with_its_line(files, capsys):
    assert sk(SK_BUGS / "set_every_tile.cpp", "scale_each", files[1]) == 1
    cap = capsys.readouterr()
    assert "SUMMARY: ascgen: sync-count set_every_tile.cpp:33" in cap.err, cap.err
    assert "verdict: count mismatch" in cap.out


def test_gm_write_after_the_set_races_with_the_generated_consumer(files, capsys):
    assert sk(SK_BUGS / "set_before_tail.cpp", "scale_tail", files[1]) == 1
    out = capsys.readouterr().out
    assert "SUMMARY: ascgen: RAW race y set_before_tail.cpp:20 -> ascgen-sk-consumer.cpp:" in out, out
    assert "move SetNextTaskStart (set_before_tail.cpp:41) after line 20" in out, out
    assert "verdict: race" in out


def test_read_before_the_wait_races_with_the_generated_producer(files, capsys):
    assert sk(SK_BUGS / "wait_after_first_read.cpp", "shift_early", files[1]) == 1
    out = capsys.readouterr().out
    assert "RAW race y ascgen-sk-producer.cpp:" in out and "-> wait_after_first_read.cpp:22 (consumer prologue)" in out, out


def test_wait_missing_on_one_core_is_reported_with_the_core_and_json(files, capsys):
    assert sk(SK_CLI / "wait_skipped_on_core0.cpp", "scale_nowait0", files[1], "--format", "json") == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["verdict"] == "count mismatch" and verdict["error"]["type"] == "SyncCountError"
    assert 'finished on AIV0 without calling WaitPreTaskEnd' in verdict["error"]["message"]
    assert verdict["tasks"] == ["ascgen_sk_producer", "scale_nowait0", "ascgen_sk_consumer"]


def test_alone_the_misplaced_set_cannot_race(files, capsys):
    """Without neighbours nothing overlaps the tail: the generated consumer is what finds the bug."""
    assert sk(SK_BUGS / "set_before_tail.cpp", "scale_tail", files[1], "--alone") == 0
    assert "verdict: clean" in capsys.readouterr().out


def test_own_chain_binds_arguments_by_name(files, capsys):
    x, tmp = files
    chain = f"{SK_BUGS / 'good.cpp'}:scale:8,{SK_BUGS / 'wait_after_first_read.cpp'}:shift_early:4"
    code = main(["sk", "--tasks", chain, "--arg", f"x=in:{tmp / 'x.bin'}", "--arg", f"y=zeros:{4 * N}",
                 "--arg", f"z=out:{tmp / 'z.bin'}:{4 * N}", "--arg", f"totalLength={N}"])
    out = capsys.readouterr().out
    assert code == 1 and "RAW race y good.cpp:33 -> wait_after_first_read.cpp:22" in out, out


def test_chain_needs_named_arguments(files, capsys):
    code = main(["sk", "--tasks", f"{SK_BUGS / 'good.cpp'}:scale:8", "--arg", "zeros:64"])
    assert code == 2 and "--arg NAME=VALUE" in capsys.readouterr().err


def test_run_races_on_one_task_points_to_sk(files, capsys):
    x, tmp = files
    code = main(["run", str(SK_BUGS / "good.cpp"), "--kernel", "scale", "--block-dim", "8", "--races",
                 "--arg", f"in:{tmp / 'x.bin'}", "--arg", f"out:{tmp / 'y.bin'}:{4 * N}", "--arg", str(N)])
    err = capsys.readouterr().err
    assert code == 0 and "cannot show a cross-task race" in err and "ascgen sk good.cpp" in err, err


def test_bad_input_is_one_error_and_exit_2(capsys):
    assert main(["sk"]) == 2
    assert "give a source file and --kernel NAME" in capsys.readouterr().err
    assert main(["sk", str(SK_BUGS / "good.cpp"), "--kernel", "scale"]) == 2
    assert "--block-dim" in capsys.readouterr().err
    assert main(["sk", str(SK_BUGS / "good.cpp"), "--kernel", "scale", "--block-dim", "8", "--product", "ascend310p"]) == 2
    assert "has no SuperKernel" in capsys.readouterr().err


def test_host_data_is_left_to_the_kernel_and_null_is_a_null_pointer(files, capsys):
    """host:PATH is GM data no task writes (tiling, weights): the producer does not rewrite it, so reading it
    before the wait is no race; `null` binds a null GM pointer (an optional input the kernel skips)."""
    x, tmp = files
    argv = ["sk", str(SK_BUGS / "wait_after_first_read.cpp"), "--kernel", "shift_early", "--block-dim", "8",
            "--arg", f"host:{tmp / 'x.bin'}", "--arg", f"out:{tmp / 'y.bin'}:{4 * N}", "--arg", str(N)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "ascgen_sk_producer" not in out and "verdict: clean" in out, out
    from ascgen.commands.run import _kernel_args
    assert _kernel_args(["null", "7"], []) == [None, 7]
