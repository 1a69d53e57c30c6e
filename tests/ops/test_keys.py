"""Tiling-key coverage (ascgen/ops/keys.py, key_coverage.py): the keys a kernel handles, read from its source
preprocessed as the op build does, against synthetic sources whose answer is known; a seeded bug (an op
folder copied with one TILING_KEY_IS branch deleted) reported with the shape that produced the key; one real
op end to end through the CLI."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascgen import cli, products, resources
from ascgen.ops import key_coverage, keys, load, tpl
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import toolchain
from ascgen.runtime.module import arch_defines
from tests.ops.test_host_tiling import _cann

PRODUCT = "ascend910b"


def _read(tmp_path: Path, body: str, **defines) -> keys.KernelKeys:
    """A kernel source on the devkit build's include path and macros for PRODUCT (the library's key macros header alone: fast)."""
    _cann()
    source = tmp_path / "k.cpp"
    source.write_text('#include "utils/kernel_utils_macros.h"\ntypedef unsigned char* GM_ADDR;\n#define KEY_FLOAT (1000 + 2)\n' + body)
    prod = products.get(PRODUCT)
    include_dirs = [*toolchain.include_dirs(toolchain.tree()), *resources.include_dirs(), resources.common_dir()]
    return keys.read_source(source, include_dirs, {**arch_defines(prod), **toolchain.defines(prod),
                                                   "__ASCENDC_INCLUDE_INTERNAL_HEADERS__": 1, **defines})


BRANCHES = """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    if (TILING_KEY_IS(1)) {
        x[0] = 1;
    } else if (TILING_KEY_IS(KEY_FLOAT)) {      // a macro: its number
        x[0] = 2;
#if defined(WITH_BF16)
    } else if (TILING_KEY_LIST(3, 4)) {
        x[0] = 3;
#endif
    }
}
"""


def test_tiling_key_is_branches_under_if_are_the_binarys(tmp_path):
    plain = _read(tmp_path, BRANCHES)
    assert sorted(plain.named) == [1, 1002] and plain.dispatch == "keys" and plain.else_all is None
    assert plain.handles(1002) is True and plain.handles(3) is False
    assert plain.named[1].file.endswith("k.cpp") and plain.named[1].line == 6
    assert "the kernel would leave its outputs untouched" in plain.why_not(3)
    with_bf16 = _read(tmp_path, BRANCHES, WITH_BF16=1)
    assert sorted(with_bf16.named) == [1, 3, 4, 1002] and with_bf16.handles(4) is True


def test_a_body_whose_key_tests_are_all_compiled_out_handles_no_key(tmp_path):
    # ops-nn heaviside on a product without __CCE_AICORE__ 220 / 310: the whole dispatch is under that #if
    body = """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
#if defined(WITH_BODY)
    if (TILING_KEY_IS(1)) { x[0] = 1; }
#endif
}"""
    out = _read(tmp_path, body)
    assert out.dispatch == "compiled-out" and out.handles(1) is False and out.compiled_out[0].line == 7
    assert "in an #if branch this binary does not take" in out.why_not(1)
    assert _read(tmp_path, body, WITH_BODY=1).handles(1) is True


def test_a_final_else_takes_every_other_key_unless_it_only_returns(tmp_path):
    chain = """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    if (TILING_KEY_IS(1)) { x[0] = 1; }
    else if (TILING_KEY_IS(2)) { x[0] = 2; }
    else { ELSE_BODY }
}
"""
    taking = _read(tmp_path, chain.replace("ELSE_BODY", "x[0] = 9;"))
    assert taking.else_all is not None and taking.else_all.line == 8
    assert taking.handles(77) is True and taking.handled_keys() is None
    returning = _read(tmp_path, chain.replace("ELSE_BODY", "return;"))
    assert returning.else_all is None and returning.handles(77) is False
    nested = _read(tmp_path, chain.replace("ELSE_BODY", "if (TILING_KEY_IS(5)) { x[0] = 5; }"))
    assert nested.else_all is None and sorted(nested.named) == [1, 2, 5] and nested.handles(77) is False


def test_no_dispatch_is_any_key_and_an_unread_use_is_unknown_not_unhandled(tmp_path):
    none = _read(tmp_path, 'extern "C" __global__ __aicore__ void k(GM_ADDR x) { x[0] = 1; }')
    assert none.dispatch == "none" and none.handles(12345) is True and "any key" in none.describe()
    switch = _read(tmp_path, """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    if (TILING_KEY_IS(1)) { x[0] = 1; }
    switch (TILING_KEY_VAR) { case 7: x[0] = 7; break; }
}""")
    assert switch.handles(1) is True and switch.handles(7) is None and "switch" in switch.unread[0]


def test_register_tiling_for_tilingkey_is_read_in_the_precompile_mode(tmp_path):
    registered = _read(tmp_path, """
struct S { int a; };
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 300002", S);
    x[0] = 1;
}""")
    assert registered.dispatch == "registered" and sorted(registered.registered) == [300002]
    assert registered.handles(300002) is True and registered.handles(1) is False


def test_a_template_kernel_handles_the_instances_ascendc_tpl_sel_selects(tmp_path):
    _cann()
    header = tmp_path / "k_tiling_key.h"
    header.write_text("""#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(K, ASCENDC_TPL_UINT_DECL(mode, 2, ASCENDC_TPL_UI_LIST, 0, 3, 7),
                      ASCENDC_TPL_BOOL_DECL(flag, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 0, 3),
                                     ASCENDC_TPL_BOOL_SEL(flag, 0)),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 7),
                                     ASCENDC_TPL_BOOL_SEL(flag, 1)));
""")
    prod = products.get(PRODUCT)
    template = tpl.read_template(header, build.find_preprocessor(), toolchain.include_dirs(toolchain.tree()), toolchain.defines(prod))
    reading = keys.KernelKeys("k.cpp", template=template)
    # mode is bits 0-1 (the index of 0, 3, 7), flag bit 2: <0,false>=0, <3,false>=1, <7,true>=2|4
    assert reading.handled_keys() == [0, 1, 6]
    assert reading.handles(1) is True and reading.handles(5) is False         # <3, true>: not selected
    assert "no ASCENDC_TPL_ARGS_SEL" in reading.why_not(5)
    assert reading.handles(3) is False and "index 3 for mode" in reading.why_not(3)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    """ops-math laid out again in a temporary folder (links), is_inf copied with its TILING_KEY_IS(2) branch
    (float) deleted. One per module: its kernel tree is replayed once (a new path is cold)."""
    repo = _cann() / "ops-math"
    copy = tmp_path_factory.mktemp("seeded") / "ops-math"
    copy.mkdir()
    for entry in repo.iterdir():
        if entry.name != "math":
            (copy / entry.name).symlink_to(entry)
    (copy / "math").mkdir()
    op = copy / "math" / "is_inf"
    op.mkdir()
    for entry in (repo / "math" / "is_inf").iterdir():    # op_host linked: its tiling runner is the cached one
        if entry.name != "op_kernel":
            (op / entry.name).symlink_to(entry)
    shutil.copytree(repo / "math" / "is_inf" / "op_kernel", op / "op_kernel")
    source = op / "op_kernel" / "is_inf.cpp"
    text = source.read_text()
    start = text.index("} else if (TILING_KEY_IS(2)) {")
    end = text.index("#if", start)
    source.write_text(text[:start] + text[end:])
    return op


def test_a_produced_key_with_no_branch_is_reported_with_its_shape(seeded):
    op = load(seeded, product=PRODUCT)
    requests = [key_coverage.Request.of([((37, 129), dt)], [((37, 129), "bool")]) for dt in ("float16", "float32")]
    result = key_coverage.coverage(op, requests)
    assert sorted(result.produced) == [1, 2] and not result.ok
    [uncovered] = result.uncovered
    assert uncovered.key == 2
    assert "IsInf on ascend910b: tiling key 2, produced for x 37x129 DT_FLOAT" in uncovered.message
    assert "its key tests name 1, 3" in uncovered.message
    assert result.never_produced() == [3]


def test_the_cli_checks_a_real_op_and_exits_1_on_an_uncovered_key(seeded, capsys):
    real = _cann() / "ops-math/math/is_inf"
    args = ["ops", "keys", "--product", PRODUCT, "--dtype", "float16", "--shapes", "8x256:8x256/bool",
            "1:1/bool", "37x129:37x129/float32"]
    assert cli.main([args[0], args[1], str(real), *args[2:]]) == 0          # a float32 output: the op rejects it
    out = capsys.readouterr()
    assert "keys produced [1]" in out.out and "uncovered none" in out.out and "1 rejected by the op" in out.out
    assert cli.main(["ops", "keys", str(seeded), "--product", PRODUCT, "--dtype", "float32",
                     "--shapes", "8x256:8x256/bool"]) == 1
    err = capsys.readouterr().err
    assert "IsInf on ascend910b: tiling key 2, produced for x 8x256 DT_FLOAT" in err
