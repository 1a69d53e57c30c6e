"""Issue 9 class 5: bad command-line input is one `ascgen: error:` line and exit 2, never a traceback,
a silent success or a silently dropped value."""
import pytest

from ascgen.cli import main
from tests.paths import REPO, RUNTIME_KERNELS

ADD_RELU = str(RUNTIME_KERNELS / "add_relu.cpp")
SPEC = str(REPO / "examples" / "add_relu.py")
RUN = ["run", ADD_RELU, "--kernel", "add_relu", "--block-dim", "2"]
GOOD_ARGS = ["--arg", "zeros:1024", "--arg", "zeros:1024", "--arg", "zeros:1024", "--arg", "256"]


def fails(argv, capsys, *expected):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("compiling ")]  # progress
    assert "Traceback" not in err and len(lines) == 1 and lines[0].startswith("ascgen: error:"), err
    for text in expected:
        assert text in err, err
    return err


@pytest.mark.parametrize("target", ["file", "/dev/null"])
def test_emit_out_must_be_a_writable_folder(tmp_path, capsys, target):
    if target == "file":
        out = tmp_path / "existing.cpp"
        out.write_text("keep me")
    else:
        out = target
    fails(["emit", SPEC, "--product", "ascend910b", "-o", str(out)], capsys, str(out))
    if target == "file":
        assert out.read_text() == "keep me"


def test_emit_into_an_unwritable_place_is_refused(tmp_path, capsys):
    """A folder under a file cannot be created by anyone (root included, unlike a chmod 500 folder)."""
    blocker = tmp_path / "f"
    blocker.write_text("")
    fails(["emit", SPEC, "--product", "ascend910b", "-o", str(blocker / "out")], capsys, "not writable")


@pytest.mark.parametrize("arg, text", [("zeros:1e14", "not a whole number"),
                                       ("zeros:100000000000000", "GiB"),
                                       ("zeros:-5", "not a whole number"),
                                       ("out:/nonexistent/x.bin:16", "/nonexistent"),
                                       ("in:/nonexistent/x.bin", "No such file")])
def test_bad_buffer_arguments(capsys, arg, text):
    fails([*RUN, "--arg", arg, "--arg", "zeros:1024", "--arg", "zeros:1024", "--arg", "256"], capsys, arg, text)


def test_extra_arg_is_reported_not_dropped(capsys):
    fails([*RUN, *GOOD_ARGS, "--arg", "7"], capsys, "takes 4 argument(s)", "got 5")


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_time_limit_must_be_finite_and_positive(capsys, value):
    fails([*RUN, *GOOD_ARGS, "--time-limit", value], capsys, "--time-limit")


@pytest.mark.parametrize("length", ["-1", "4000000000"])
def test_test_length_out_of_range(capsys, length):
    fails(["test", SPEC, "--length", length], capsys, f"--length {length}")


def test_spec_calling_sys_exit_is_an_error_not_a_silent_exit(tmp_path, capsys):
    spec = tmp_path / "quits.py"
    spec.write_text("import sys\nsys.exit(3)\n")
    fails(["emit", str(spec), "--product", "ascend910b", "-o", str(tmp_path / "out")], capsys, "quits.py:2",
          "sys.exit(3)")


@pytest.mark.parametrize("macro", ["X", "M", "A", "B", "S", "T"])
def test_user_macros_do_not_reach_the_emulated_headers(capsys, macro):
    assert main([*RUN, *GOOD_ARGS, "-D", f"{macro}=5"]) == 0, capsys.readouterr().err


def test_source_name_with_quote_and_backslash(tmp_path, capsys):
    folder = tmp_path / 'we"ird\\dir'
    folder.mkdir()
    source = folder / 'a"b\\c.cpp'
    source.write_text((RUNTIME_KERNELS / "add_relu.cpp").read_text())
    assert main(["run", str(source), "--kernel", "add_relu", "--block-dim", "2", *GOOD_ARGS]) == 0, \
        capsys.readouterr().err


def test_macro_value_with_a_newline_is_refused(capsys):
    fails([*RUN, *GOOD_ARGS, "-D", "X=1\n#include <nothing>"], capsys, "several lines")
