"""One CLI convention (issue 21 point 5): one default product, -q / -v before or after the subcommand,
--format json for scripts, help on stderr with exit 2 for a bare `ascgen`, `check -v` on a clean file."""
import json
import logging

import pytest

from ascgen import console
from ascgen.cli import build_parser, main
from ascgen.commands import DEFAULT_PRODUCT
from tests.paths import REPO, SK_BUGS

SPEC = str(REPO / "examples" / "add_relu.py")


def test_bare_ascgen_prints_help_on_stderr_and_exits_2(capsys):
    assert main([]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "usage: ascgen" in cap.err and "sk" in cap.err


@pytest.mark.parametrize("command", ["emit", "test", "run", "sk", "demo"])
def test_every_command_that_takes_a_product_defaults_to_the_same_one(command):
    args = {"emit": [SPEC], "test": [SPEC], "run": ["k.cpp"], "sk": ["k.cpp"], "demo": []}[command]
    parsed = build_parser(command).parse_args([command, *args])
    if command == "test":                # repeatable: unset means the default (commands/test.py)
        assert parsed.product is None
    else:
        assert parsed.product == DEFAULT_PRODUCT
    assert DEFAULT_PRODUCT == "ascend910_93"           # the first product where task sync takes effect


@pytest.mark.parametrize("argv", [["-q", "products"], ["products", "-q"], ["-v", "products"], ["products", "-v"]])
def test_quiet_and_verbose_before_or_after_the_subcommand(argv):
    parsed = build_parser("products").parse_args(argv)
    assert parsed.quiet == ("-q" in argv) and parsed.verbose == ("-v" in argv)


def test_global_quiet_is_not_reset_by_the_subcommand(capsys):
    assert main(["-q", "emit", SPEC, "-o", "/dev/null/x"]) == 2       # an error still shows ...
    assert logging.getLogger("ascgen").level == logging.WARNING         # ... but progress is off
    console.configure()


def test_check_verbose_says_what_it_checked_on_a_clean_file(capsys):
    assert main(["check", "-v", str(SK_BUGS / "good.cpp")]) == 0
    err = capsys.readouterr().err
    assert "good.cpp: 3 kernel(s) (scale, shift, prefetch_add)" in err and "0 error(s)" in err, err
    console.configure()


def test_test_and_run_speak_json(tmp_path, capsys):
    assert main(["test", SPEC, "--length", "64", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["failed"] == 0 and result["kernels"][0]["kernel"] == "add_relu"
    assert result["kernels"][0]["product"] == DEFAULT_PRODUCT and result["kernels"][0]["cases"][0]["length"] == 64
    code = main(["run", str(REPO / "tests" / "data" / "runtime_kernels" / "add_relu.cpp"), "--kernel", "add_relu",
                 "--block-dim", "2", "--arg", "zeros:1024", "--arg", "zeros:1024",
                 "--arg", f"out:{tmp_path / 'z.bin'}:1024", "--arg", "256", "--format", "json"])
    assert code == 0
    ran = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert ran["kernel"] == "add_relu" and ran["product"] == DEFAULT_PRODUCT and ran["wrote"] == [str(tmp_path / "z.bin")]
    assert ran["ms"] >= 0
