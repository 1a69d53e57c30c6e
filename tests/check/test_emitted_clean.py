"""The static checker agrees with the generator: `ascgen check` finds no error and no warning in any
generated source, plain or --host (FORCE=true, SK_BIND twin), and analyses every kernel entry."""
from __future__ import annotations

import warnings

import pytest

from ascgen.check import check_file
from ascgen.builder import load_spec
from ascgen.codegen.emit import emit_files
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from tests.paths import REPO

ROOT = REPO
PRODUCTS = ("ascend910_93", "ascend910b", "ascend950", "ascend310p")


@pytest.mark.parametrize("product", PRODUCTS)
def test_generated_sources_pass_ascgen_check(product):
    for source in sorted((ROOT / "generated" / product).glob("*.cpp")):
        result = check_file(source, product=product)
        bad = [str(d) for d in result.diagnostics if d.severity in ("error", "warning")]
        assert result.failure is None and not bad, f"{source.name}: {result.failure or bad}"
        assert result.kernels == [source.stem]


def test_host_sources_pass_ascgen_check(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        paths = emit_files(load_spec(ROOT / "examples" / "multi_out.py"), "ascend910_93", tmp_path, host=True)
    for source in [p for p in paths if p.suffix == ".cpp" and p.name != "main.cpp"]:
        result = check_file(source, product="ascend910_93")
        bad = [str(d) for d in result.diagnostics if d.severity in ("error", "warning")]
        assert result.failure is None and not bad, f"{source.name}: {result.failure or bad}"


def test_sk_bind_cap_of_the_emitter_is_checked_and_agrees(tmp_path):
    # The checker's cap bits are the emitter's; the emitted SK_BIND passes (above), a wrong cap does not.
    from ascgen.check import api
    from ascgen.codegen import tasksync
    assert api.SK_CAP_BITS == {api.WAIT: tasksync.SK_CAP_WAIT, api.SET: tasksync.SK_CAP_SET}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        paths = emit_files(load_spec(ROOT / "examples" / "add_relu.py"), "ascend910_93", tmp_path, host=True)
    source = next(p for p in paths if p.name == "add_relu.cpp")
    text = source.read_text()
    assert "SK_BIND(add_relu, 3," in text
    source.write_text(text.replace("SK_BIND(add_relu, 3,", "SK_BIND(add_relu, 1,"))
    found = [d for d in check_file(source, product="ascend910_93").errors if d.rule == "sk-bind-bits"]
    assert len(found) == 1 and "SetNextTaskStart" in found[0].message and "use cap 3" in found[0].message


def test_the_checker_does_flag_a_misplaced_call_in_generated_code(tmp_path):
    # the twin: the same file with SetNextTaskStart moved into the tile loop must not pass
    text = (ROOT / "generated" / "ascend910_93" / "add_relu.cpp").read_text()
    set_line = next(l for l in text.splitlines(keepends=True) if "SetNextTaskStart" in l)
    text = text.replace(set_line, "", 1)
    anchor = next(l for l in text.splitlines(keepends=True) if "CopyOutZ(i);" in l)
    bad = tmp_path / "add_relu.cpp"
    bad.write_text(text.replace(anchor, anchor + set_line, 1))
    assert check_file(bad, product="ascend910_93").errors


def test_prefetch_and_early_set_are_recorded_decisions_for_the_checker(tmp_path):
    import ascgen
    from ascgen.codegen.tasksync import TaskSyncPolicy
    kernel = next(k for k in load_spec(ROOT / "examples" / "multi_out.py") if k.name == "multi_out")
    for what, policy in {"prefetch": TaskSyncPolicy(prefetch_inputs=frozenset({"y"})),
                         "early": TaskSyncPolicy(set_early=True)}.items():
        source = tmp_path / what / "multi_out.cpp"
        source.parent.mkdir()
        source.write_text(ascgen.emit(kernel, "ascend910_93", policy=policy))
        result = check_file(source, product="ascend910_93")
        assert not [d for d in result.diagnostics if d.severity in ("error", "warning")], what
        assert result.suppressed, f"{what}: the allow comment should have silenced a finding"
