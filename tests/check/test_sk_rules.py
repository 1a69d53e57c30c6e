"""The SuperKernel-readiness rules (ascgen/check/sk_rules.py) on the op folders of the corpus
(tests/check/corpus/ops/: op_host beside op_kernel, as operator repositories lay them out), and the
conditions under which each rule applies: the product, the library's own DCCI macro, the host side."""
from __future__ import annotations

import collections
import shutil

import pytest

from ascgen.check import check_file
from tests.check.test_corpus import expected, options
from tests.paths import CHECK_CORPUS

OPS = sorted((CHECK_CORPUS / "ops").glob("*/op_kernel/*.cpp"))


@pytest.mark.parametrize("path", OPS, ids=[p.parent.parent.name for p in OPS])
def test_op_folder_verdict(path):
    result = check_file(path, **options(path))
    got = collections.Counter((d.line, d.rule) for d in result.diagnostics)
    assert got == expected(path), "\n".join(str(d) for d in result.diagnostics)


def test_every_op_bug_has_a_twin():
    bugs = {p.parent.parent.name for p in OPS if expected(p)}
    assert bugs == {"key_uncovered", "tpl_uncovered", "block_dim_partial"}
    assert all(not expected(p) for p in OPS if p.parent.parent.name not in bugs)


def rules_of(result) -> collections.Counter:
    return collections.Counter((d.rule, d.severity) for d in result.diagnostics)


def test_host_notes_point_at_the_host_call():
    path = CHECK_CORPUS / "ops" / "key_uncovered" / "op_kernel" / "scale.cpp"
    (finding,) = check_file(path).diagnostics
    assert "TilingKey 3" in finding.message
    assert finding.notes[0].file.endswith("op_host/scale_tiling.cpp") and finding.notes[0].line == 14


def test_without_the_host_side_the_host_rules_stay_silent(tmp_path):
    """Outside an op folder nothing says which keys or block dims the host uses: no finding."""
    for name in ("key_uncovered/op_kernel/scale.cpp", "block_dim_partial/op_kernel/sum.cpp"):
        alone = tmp_path / name.replace("/", "_")
        shutil.copy(CHECK_CORPUS / "ops" / name, alone)
        found = check_file(alone, product="ascend910_93").diagnostics
        assert {d.rule for d in found} <= {"sk-gm-scalar-no-dcci"}, found


def test_a_key_another_kernel_file_of_the_op_takes_is_not_reported(tmp_path):
    """An op with several kernel sources: the host key may be the other one's (no per-file mapping)."""
    op = tmp_path / "scale"
    shutil.copytree(CHECK_CORPUS / "ops" / "key_uncovered", op)
    (op / "op_kernel" / "scale_tail.cpp").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void scale_tail(GM_ADDR y) {\n'
        '    if (TILING_KEY_IS(3)) { AscendC::GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float*)y, 1);'
        ' g.SetValue(0, 1.0f); }\n}\n')
    assert check_file(op / "op_kernel" / "scale.cpp").diagnostics == []


def test_severities():
    found = rules_of(check_file(CHECK_CORPUS / "sk_syncall_fewer_cores.cpp", product="ascend910_93"))
    assert found == {("sk-syncall-fewer-cores", "warning"): 1, ("sk-syncall-fewer-cores", "error"): 1}
    found = rules_of(check_file(CHECK_CORPUS / "sk_gm_scalar_no_dcci.cpp", product="ascend910_93"))
    assert found == {("sk-gm-scalar-no-dcci", "warning"): 2}
    found = rules_of(check_file(CHECK_CORPUS / "sk_mix_ratio.cpp", product="ascend910_93"))
    assert found == {("sk-mix-ratio", "error"): 3}


def test_dcci_rule_needs_a_superkernel_product_and_yields_to_the_library_macro():
    path = CHECK_CORPUS / "sk_gm_scalar_no_dcci.cpp"
    assert check_file(path).diagnostics == []                           # no --product: no SuperKernel target
    assert check_file(path, product="ascend310p").diagnostics == []     # a product without SuperKernel
    flushed = check_file(path, product="ascend910_93",
                         defines=["__ASCENDC_SUPER_KERNEL_ENABLE_GM_GET_SET_VALUE_DCCI__"])
    assert flushed.diagnostics == []                                    # the library flushes each access


def test_sk_rules_are_off_on_a_product_without_superkernel():
    for name in ("sk_syncall_fewer_cores.cpp", "sk_mix_ratio.cpp"):
        assert check_file(CHECK_CORPUS / name, product="ascend310p").diagnostics == []


def test_mix_ratio_only_for_1_1_kernels(tmp_path):
    """The same code as a MIX 1:2 kernel already runs two vector cores per cube core: nothing to adapt."""
    source = (CHECK_CORPUS / "sk_mix_ratio.cpp").read_text().replace("KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2")
    path = tmp_path / "mix_1_2.cpp"
    path.write_text(source)
    assert [d for d in check_file(path, product="ascend910_93").diagnostics if d.rule == "sk-mix-ratio"] == []


def test_a_host_variable_is_not_folded_with_a_kernel_constant_of_its_name(tmp_path):
    """conv3d_v2's pattern: the host's local `groupConvType` and a kernel constant of the same name."""
    op = tmp_path / "pad"
    shutil.copytree(CHECK_CORPUS / "ops" / "tpl_covered", op)
    kernel = op / "op_kernel" / "pad.cpp"
    kernel.write_text(kernel.read_text().replace('#include "pad_tiling_key.h"\n',
                                                 '#include "pad_tiling_key.h"\nconstexpr uint32_t mode = 7;\n'))
    host = op / "op_host" / "pad_tiling.cpp"
    host.write_text(host.read_text().replace("GET_TPL_TILING_KEY(PAD_MODE_CONST, aligned)",
                                             "GET_TPL_TILING_KEY(mode, aligned)"))
    assert check_file(kernel).diagnostics == []


def test_every_rule_has_its_row_in_the_documentation():
    from ascgen.check.format import RULES
    from tests.paths import REPO

    table = (REPO / "docs" / "check.md").read_text()
    assert [rule for rule in RULES if f"| `{rule}` |" not in table] == []
