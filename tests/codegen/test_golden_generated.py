"""generated/<product>/<kernel>.cpp is what `ascgen emit` writes for the examples: regenerate and compare
byte for byte (ASCGEN_UPDATE_GOLDEN=1 rewrites the files instead). A refactor must produce zero diff."""
from __future__ import annotations

import difflib
import warnings

import pytest

from ascgen import config
from ascgen.builder import load_spec
from ascgen.codegen.emit import emit_files
from ascgen.errors import SpecError
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning
from tests.paths import REPO

ROOT = REPO
PRODUCTS = ("ascend910_93", "ascend910b", "ascend950", "ascend310p")
# Example kernels a product cannot run, and the start of the SpecError that must say why (no file is generated).
_NO_PAD = "ascend310p has no DataCopyPad, so rows are copied in whole 32-byte units"
REFUSED = {("bf16_leaky", "ascend310p"): "input 'x' at bf16_leaky.py:6: bfloat16 is not offered on ascend310p",
           ("softmax", "ascend310p"): f"kernel 'softmax' at softmax.py:5: {_NO_PAD}",
           ("log_softmax", "ascend310p"): f"kernel 'log_softmax' at softmax.py:11: {_NO_PAD}",
           ("layernorm", "ascend310p"): f"kernel 'layernorm' at norms.py:5: {_NO_PAD}",
           ("row_stats", "ascend310p"): f"kernel 'row_stats' at row_stats.py:5: {_NO_PAD}",
           ("matmul_relu", "ascend310p"): "kernel 'matmul_relu' at matmul.py:7: Matmul is emitted as a MIX kernel",
           ("matmul_bf16", "ascend310p"): "kernel 'matmul_bf16' at matmul.py:15: Matmul is emitted as a MIX kernel",
           ("matmul_int8", "ascend310p"): "kernel 'matmul_int8' at matmul.py:22: Matmul is emitted as a MIX kernel"}


@pytest.mark.parametrize("product", PRODUCTS)
def test_generated_matches_emit(product, tmp_path):
    golden_dir = ROOT / "generated" / product
    fresh = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        for spec in sorted((ROOT / "examples").glob("*.py")):
            for kernel in load_spec(spec):
                refused = REFUSED.get((kernel.name, product))
                if refused:
                    with pytest.raises(SpecError) as err:
                        emit_files([kernel], product, tmp_path, spec_path=spec)
                    assert str(err.value).startswith(refused)
                    continue
                for path in emit_files([kernel], product, tmp_path, spec_path=spec):
                    fresh[path.name] = path.read_text()
    if config.update_golden():
        golden_dir.mkdir(parents=True, exist_ok=True)
        for old in golden_dir.glob("*.cpp"):
            if old.name not in fresh:
                old.unlink()
        for name, text in fresh.items():
            (golden_dir / name).write_text(text, newline="\n")
    stale = sorted({p.name for p in golden_dir.glob("*.cpp")} - set(fresh))
    assert not stale, f"generated/{product} has files no example emits: {stale} (ASCGEN_UPDATE_GOLDEN=1 to fix)"
    for name, text in sorted(fresh.items()):
        golden = golden_dir / name
        assert golden.exists(), f"generated/{product}/{name} is missing; run with ASCGEN_UPDATE_GOLDEN=1"
        old = golden.read_text()
        if old != text:
            diff = "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                f"generated/{product}/{name}", "emitted", n=1))
            pytest.fail(f"generated/{product}/{name} differs from what emit writes now "
                        f"(ASCGEN_UPDATE_GOLDEN=1 to accept):\n{diff[:3000]}")


def _block(readme: str, heading: str, lang: str) -> list[str]:
    section = readme.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    return section.split(f"```{lang}\n", 1)[1].split("```", 1)[0].splitlines()


def test_readme_excerpts_are_copied_from_the_example_and_generated():
    readme = (ROOT / "README.md").read_text()
    example = (ROOT / "examples" / "add_relu.py").read_text().splitlines()
    assert [l for l in _block(readme, "Builder example", "python") if l] == [l for l in example[1:] if l]
    generated = (ROOT / "generated" / "ascend910_93" / "add_relu.cpp").read_text().splitlines()
    position = 0
    for line in _block(readme, "Emitted Ascend C", "cpp"):
        if line == "...":
            continue
        assert line in generated[position:], f"README line not in generated/ascend910_93/add_relu.cpp (in order): {line}"
        position = generated.index(line, position) + 1


@pytest.mark.parametrize("heading, example_file, golden", [("2-D kernels", "softmax.py", "softmax.cpp"),
                                                          ("Matmul", "matmul.py", "matmul_relu.cpp")])
def test_builder_doc_excerpts_are_copied_from_the_example_and_generated(heading, example_file, golden):
    doc = (ROOT / "docs" / "builder.md").read_text()
    section = doc.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    python = section.split("```python\n", 1)[1].split("```", 1)[0].splitlines()
    example = (ROOT / "examples" / example_file).read_text().splitlines()
    for line in python[1:]:                      # after the import line, the example's lines verbatim
        assert line.split("  #")[0].rstrip() in [l.split("  #")[0].rstrip() for l in example], line
    generated = (ROOT / "generated" / "ascend910_93" / golden).read_text().splitlines()
    position = 0
    for line in section.split("```cpp\n", 1)[1].split("```", 1)[0].splitlines():
        if line == "...":
            continue
        assert line in generated[position:], f"docs/builder.md line not in generated {golden} (in order): {line}"
        position = generated.index(line, position) + 1
