"""Property-based test (hypothesis) of the command line: random argument lists give an exit code (0, 1,
2) or argparse's usage exit, never a traceback. File arguments are names that need no compile (missing
files, folders, /dev/null, a failing spec), so each example is fast."""
import io
from contextlib import redirect_stderr, redirect_stdout

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascgen.cli import main

_COMMANDS = ["products", "emit", "test", "run", "check"]


def _argv(tmp):
    bad_spec = tmp / "bad_spec.py"
    bad_spec.write_text("import sys\nsys.exit(3)\n")
    files = st.sampled_from([str(tmp / "missing.cpp"), str(tmp), "/dev/null", str(bad_spec), "", "-", "\x01"])
    numbers = st.one_of(st.sampled_from(["-1", "0", "4e9", "nan", "inf", "-inf", "1e14", "99999999999999999999",
                                         "0x10", "", "1.5"]), st.integers(-10, 10).map(str))
    arg_values = st.one_of(numbers, st.builds(lambda k, v: f"{k}:{v}",
                                              st.sampled_from(["in", "out", "inout", "zeros", "bogus"]),
                                              st.one_of(numbers, files, st.just("/nonexistent/x.bin:16"))))
    options = st.one_of(
        st.tuples(st.sampled_from(["--product", "-p"]), st.sampled_from(["ascend910b", "nope", "", "ASCEND910_93"])),
        st.tuples(st.sampled_from(["--length", "--block-dim", "--time-limit", "--seed"]), numbers),
        st.tuples(st.just("--arg"), arg_values),
        st.tuples(st.sampled_from(["-o", "--out", "--cwd", "-I"]), files),
        st.tuples(st.just("-D"), st.sampled_from(["X=5", "M", "1BAD", "A=", "=3", "S=a b"])),
        st.tuples(st.sampled_from(["--kernel", "--task-sync", "--kernel-type"]),
                  st.sampled_from(["add", "both", "aiv", "weird"])),
        st.tuples(st.sampled_from(["--host", "--isolated", "--races", "-q", "-v", "--help-me"])),
        st.tuples(st.text(max_size=6)),
    )
    return st.builds(lambda cmd, f, opts: [cmd, *f, *[w for o in opts for w in o]],
                     st.sampled_from(_COMMANDS), st.lists(files, max_size=2), st.lists(options, max_size=5))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_command_lines_exit_cleanly(tmp_path, data):
    argv = data.draw(_argv(tmp_path))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:          # argparse: usage error (2) or --help (0)
            code = exc.code
    assert code in (0, 1, 2), (argv, code, err.getvalue())
    assert "Traceback" not in err.getvalue(), (argv, err.getvalue())
