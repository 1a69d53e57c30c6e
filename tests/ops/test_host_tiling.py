"""Host tiling from op_host, unchanged (ascgen/ops): real operators of ops-nn and ops-math, their tiling
functions built against the public metadef / opbase / asc-devkit host pieces and run for a product.

The expected values are the repositories' own op_host tiling UTs (tests/ut/op_host/test_*_tiling.cpp, cited
per case), which are the truth; where a UT describes its own machine, the same platform is passed.
"""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import numpy as np
import pytest

from ascgen import config, ops
from ascgen.ops import host_build
from ascgen.errors import CompileError, KernelCrashError, OpTilingError, SpecError, UnsupportedProductError


def _cann() -> Path:
    """ASCGEN_CANN_SOURCES with the repositories these tests read; asc-devkit as ascgen finds it
    (config.cann_repository: ASCGEN_ASC_DEVKIT first, as CI sets it, else the folder's asc-devkit)."""
    value = os.environ.get("ASCGEN_CANN_SOURCES")
    need = ("ops-nn", "ops-math", "metadef", "opbase", "asc-devkit")
    if value and all(config.cann_repository(n) is not None for n in need):
        return Path(value)
    message = (f"set ASCGEN_CANN_SOURCES to a folder holding {', '.join(need[:-1])} side by side (the CANN "
               "corpora), and asc-devkit there or in ASCGEN_ASC_DEVKIT")
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _add_rms_norm(product, shape, dtype, eps=0.01):
    op = _cann() / "ops-nn" / "norm" / "add_rms_norm"
    gamma, rstd = (shape[-1],), shape[:-1] + (1,)
    return ops.host_tiling(op, product, inputs=[(shape, dtype), (shape, dtype), (gamma, dtype)],
                           outputs=[(shape, dtype), (rstd, "float32"), (shape, dtype)], attrs={"epsilon": eps})


# ops-nn norm/add_rms_norm/tests/ut/op_host/test_add_rms_norm_tiling.cpp: add_rms_norm_tiling_001, 002, 003,
# 004, 005, 006, 1001 (shape, dtype, the key it asserts). The UT's rstd of 006 / 1001 is bf16 / fp16, which
# the definition does not accept; float32 here (the key depends on x's type).
ADD_RMS_NORM_UT = [
    ("ascend910b", (24, 1, 2560), "float16", 13),
    ("ascend910b", (24, 1, 25600), "float16", 11),
    ("ascend910b", (24, 1, 256), "float32", 23),
    ("ascend910b", (409, 1, 1281), "bfloat16", 32),
    ("ascend950", (4, 1, 8192), "float32", 2000),
    ("ascend950", (4096, 1, 2304), "float32", 1000),
    ("ascend950", (1024, 1, 12288), "float16", 2000),
]


@pytest.mark.parametrize("product, shape, dtype, key", ADD_RMS_NORM_UT)
def test_add_rms_norm_keys_match_its_tiling_ut(product, shape, dtype, key):
    assert _add_rms_norm(product, shape, dtype).tiling_key == key


def test_add_rms_norm_fields_are_what_its_tiling_code_computes():
    """ascend910b (48 vector cores): 409 rows of 1281
    bf16. add_rms_norm_tiling.cpp: blockFactor = ceil(409 / 48) = 9, useCoreNum = ceil(409 / 9) = 46, the
    last core's rows 409 - 45 * 9 = 4; numColAlign rounds 1281 up to 16 elements (32 bytes of bf16);
    epsilon and avgFactor = 1 / numCol as float."""
    r = _add_rms_norm("ascend910b", (409, 1, 1281), "bfloat16", eps=1e-5)
    t = r.tiling
    assert t["__class__"] == "AddRMSNormTilingData"
    assert (t["num_row"], t["num_col"], t["num_col_align"]) == (409, 1281, 1296)
    assert (t["block_factor"], t["last_block_factor"], r.block_dim) == (9, 4, 46)
    assert t["epsilon"] == np.float32(1e-5) and t["avg_factor"] == np.float32(1 / 1281)
    assert len(r.tiling_data) == 20 * 4 and r.workspace_sizes == [16 * 1024 * 1024 + 256]   # 20 4-byte fields


def test_the_950_tiling_key_selects_its_registered_class():
    """REGISTER_TILING_DATA_CLASS(AddRmsNorm_1000, AddRMSNormRegbaseRFullLoadTilingData): key 1000's bytes
    are read as that class (add_rms_norm_tiling_arch35.cpp fills numRow, numCol, epsilon...)."""
    r = _add_rms_norm("ascend950", (4096, 1, 2304), "float32")
    t = r.tiling
    assert r.tiling_key == 1000 and t["__class__"] == "AddRMSNormRegbaseRFullLoadTilingData"
    assert (t["numRow"], t["numCol"], t["numColAlign"]) == (4096, 2304, 2304)
    assert t["epsilon"] == np.float32(0.01)
    assert t["blockFactor"] * r.block_dim >= 4096 > t["blockFactor"] * (r.block_dim - 1)


def test_pows_matches_its_tiling_ut_bytes_and_workspace():
    """ops-math math/pows/tests/ut/op_host/test_pows_tiling.cpp, pows_tiling_001: key 101, the tiling data
    as int64 words "1 0 0 80 46 112 112 101 16 13824", workspace 1568 (its compile info is 48 cores and
    196608 bytes of UB: ascend910b's, which TilingParse reads from the product table here)."""
    op = _cann() / "ops-math" / "math" / "pows"
    r = ops.host_tiling(op, "ascend910b", inputs=[((2, 2560), "float16"), ((1,), "float16")],
                        outputs=[((2, 2560), "float16")])
    assert r.tiling_key == 101 and r.workspace_sizes == [1568]
    assert np.frombuffer(r.tiling_data, "<i8").tolist() == [1, 0, 0, 80, 46, 112, 112, 101, 16, 13824]
    assert r.tiling["realCoreNum"] == 46 and r.tiling["bufSize"] == 13824


@pytest.mark.parametrize("x1, x2, words", [
    ((1, 1, 1, 1, 1), (16, 1, 4, 4, 8), [2048, 281492156580096]),      # add_test_0
    ((9, 8, 1), (9, 8, 1), [72, 4294967552]),                          # add_test_2
])
def test_add_on_ascend950_matches_its_tiling_ut(x1, x2, words):
    """ops-math math/add/tests/ut/op_host/arch35/test_add_tiling.cpp: key 8, the int64 words, workspace
    16 MiB. The op is built for ascend950 only (its CMakeLists: SUPPORT_COMPUTE_UNIT), from op_host/arch35."""
    op = _cann() / "ops-math" / "math" / "add"
    r = ops.host_tiling(op, "ascend950", inputs=[(x1, "float16"), (x2, "float16")], outputs=[(x2, "float16")])
    assert (r.tiling_key, r.workspace_sizes) == (8, [16 * 1024 * 1024])
    assert np.frombuffer(r.tiling_data, "<i8").tolist() == words


def test_an_op_that_sets_no_tiling_key_gets_key_0():
    """ops-math muls (ascend950) never calls SetTilingKey (its kernel dispatches on none; its tiling UT
    checks no key). metadef's context builder left the output tensor's address in the key's slot, so the
    key was a pointer, a new one per run (runtime/ops/host/src/tiling_runner.cpp, clear_scalar_outputs)."""
    op = ops.load(_cann() / "ops-math" / "math" / "muls", "ascend950")
    x = ((1, 64, 2, 32), "float16")                            # muls_test_tiling_001
    r = op.tiling(x, outputs=[x], value=1.0)
    assert (r.tiling_key, r.need_atomic, r.schedule_mode, r.workspace_sizes) == (0, False, 0, [16 * 1024 * 1024])


@pytest.mark.parametrize("n, key", [(1024, 101), (5457, 102)])   # ge_glu_grad_v2_tiling_bfp16_001, 002
def test_ge_glu_grad_v2_keys_match_its_tiling_ut(n, key):
    """ops-nn activation/ge_glu_grad_v2/tests/ut/op_host/test_ge_glu_grad_v2_tiling.cpp (its compile info
    {48, 196608, DAV_2201} is ascend910b's); attributes by name, given in another order than defined."""
    op = ops.load(_cann() / "ops-nn" / "activation" / "ge_glu_grad_v2", "ascend910b")
    dy, x = ((23, 12, n), "bfloat16"), ((23, 12, 2 * n), "bfloat16")
    r = op.tiling(dy, x, dy, outputs=[x], activate_left=False, approximate=1, dim=-1)
    assert r.tiling_key == key


def test_transform_bias_rescale_qkv_matches_its_tiling_ut():
    """ops-math math/transform_bias_rescale_qkv/tests/ut/op_host/test_transform_bias_rescale_qkv_tiling.cpp:
    key 1, "108 36 3 4 3 3 1 12288", workspace 16 MiB; its required attribute num_heads sits between the
    inputs and the outputs in the definition."""
    op = ops.load(_cann() / "ops-math" / "math" / "transform_bias_rescale_qkv", "ascend910b")
    r = op.tiling(((3, 4, 9), "float32"), ((9,), "float32"), outputs=[((3, 3, 4, 3), "float32")] * 3, num_heads=3)
    assert (r.tiling_key, r.workspace_sizes) == (1, [16 * 1024 * 1024])
    assert np.frombuffer(r.tiling_data, "<i8").tolist() == [108, 36, 3, 4, 3, 3, 1, 12288]
    assert (r.tiling["numHeads"], r.tiling["dimPerHead"], r.tiling["maxEleNumUB"]) == (3, 1, 12288)


@pytest.mark.parametrize("x, key", [((1024, 99, 4096), 600), ((18, 20), 200)])  # layer_norm_v4_tiling_0001, 0003
def test_layer_norm_v4_keys_match_its_tiling_ut(x, key):
    """ops-nn norm/layer_norm_v4/tests/ut/op_host/test_layer_norm_v4_tiling.cpp (48 cores, 196608 B of UB:
    ascend910b's). Its sources include register/op_def_registry.h, built as metadef builds it
    (NO_OPERATOR_IMPL), and link the advanced API's host tiling (GetLayerNormMaxMinTmpSize)."""
    op = ops.load(_cann() / "ops-nn" / "norm" / "layer_norm_v4", "ascend910b")
    row = (x[-1],)
    r = op.tiling((x, "float32"), ((1,), "int32"), (row, "float32"), (row, "float32"),
                  outputs=[(x, "float32"), (x[:-1], "float32"), (x[:-1], "float32")])
    assert r.tiling_key == key
    assert r.tiling["eps"] == np.float32(1e-5)          # the definition's default epsilon


def test_a_plain_tiling_struct_is_named_by_the_type_the_sources_pass_to_get_tiling_data():
    """add's one-dimensional broadcast path writes BroadcastOneDimTilingDataAdvance (opbase's
    atvoss/broadcast/broadcast_base_struct.h): {int64 dimLen; int32 tileNum; int16 blockNum; int16
    scalarFlag}; x1 of one element is the scalar. A template struct (BroadcastBaseTilingData<OpDag>, the
    general path) is not laid out: its fields are refused, naming the structs considered."""
    op = ops.load(_cann() / "ops-math" / "math" / "add", product="ascend950")
    t = op.tiling(((1, 1, 1, 1, 1), "float16"), ((16, 1, 4, 4, 8), "float16"), outputs=[((16, 1, 4, 4, 8), "float16")]).tiling
    assert t == {"__class__": "BroadcastOneDimTilingDataAdvance", "dimLen": 2048, "tileNum": 256, "blockNum": 4,
                 "scalarFlag": 1}
    general = op.tiling(((64, 128), "float16"), ((1, 128), "float16"), outputs=[((64, 128), "float16")])
    with pytest.raises(OpTilingError, match=r"saved \d+ bytes; the structs its sources pass to GetTilingData<> are "
                                            r"BroadcastOneDimTilingData \(56 B\), BroadcastOneDimTilingDataAdvance"):
        general.tiling


def test_a_platform_override_reaches_the_tiling_function():
    """The UB size is what the op reads through platform_ascendc (GetCoreMemSize): pows' bufSize follows it."""
    op = _cann() / "ops-math" / "math" / "pows"
    args = dict(inputs=[((2, 2560), "float16"), ((1,), "float16")], outputs=[((2, 2560), "float16")])
    full = ops.host_tiling(op, "ascend910b", **args)
    half = ops.host_tiling(op, "ascend910b", platform={"AICoreSpec.ub_size": 98304}, **args)
    assert half.tiling["bufSize"] < full.tiling["bufSize"]


# ---- refusals and bad input ----------------------------------------------------------------------------

def test_an_op_needing_a_closed_cann_header_is_refused_by_name():
    # CANN's platform headers (platform/platform_info_def.h) are not among the public repositories.
    op = _cann() / "ops-nn" / "foreach" / "foreach_abs"
    with pytest.raises(OpTilingError, match=r"op foreach_abs needs platform/platform_info_def\.h \(included from "
                                            r".*foreach_tiling_class\.h:\d+\), which the public CANN sources lack"):
        ops.host_tiling(op, "ascend910b", inputs=[((4, 64), "float16")], outputs=[((4, 64), "float16")])


def test_an_op_relying_on_a_closed_header_s_using_std_is_refused_by_name():
    # dynamic_quant_tiling.cpp declares a `map<...>` with only `using namespace ge;`: the name comes from a
    # header chain of the installed CANN (metadef's register/register.h has the `using std::map`), which no
    # header it includes from the public trees reaches. A plain g++ error before; now the op and line named.
    op = _cann() / "ops-nn" / "quant" / "dynamic_quant"
    with pytest.raises(OpTilingError, match=r"op dynamic_quant uses std::map unqualified \(.*dynamic_quant_tiling"
                                            r"\.cpp:\d+\): a CANN header brings it into scope"):
        ops.host_tiling(op, "ascend910b", inputs=[((8, 256), "float16"), None, None],
                        outputs=[((8, 256), "int8"), ((8,), "float32")], attrs={"dst_type": 2})


def test_a_product_the_op_is_not_built_for_is_refused():
    op = _cann() / "ops-math" / "math" / "add"
    with pytest.raises(UnsupportedProductError, match=r"Add is not defined for ascend910b \(.*add_def.cpp:\d+ "
                                                      r"configures ascend950\)"):
        ops.host_tiling(op, "ascend910b", inputs=[((8,), "float16")] * 2, outputs=[((8,), "float16")])


def test_wrong_dtype_names_the_input_and_what_the_definition_accepts():
    with pytest.raises(SpecError, match=r"AddRmsNorm input 'x1': data type DT_INT32 .*DT_BF16, DT_FLOAT, DT_FLOAT16"):
        _add_rms_norm("ascend910b", (4, 64), "int32")


def test_a_dynamic_dimension_is_refused():
    with pytest.raises(SpecError, match=r"tensor shape \(4, -1\): dimensions are whole numbers >= 0"):
        _add_rms_norm("ascend910b", (4, -1), "float16")


def test_wrong_input_count_and_unknown_attribute_are_named():
    op = _cann() / "ops-nn" / "norm" / "add_rms_norm"
    with pytest.raises(SpecError, match=r"takes 3 inputs \(x1, x2, gamma\), 2 given"):
        ops.host_tiling(op, "ascend910b", inputs=[((4, 64), "float16")] * 2, outputs=[((4, 64), "float16")] * 3)
    with pytest.raises(SpecError, match=r"no attribute 'eps'; its attributes: epsilon"):
        ops.host_tiling(op, "ascend910b", inputs=[((4, 64), "float16")] * 2 + [((64,), "float16")],
                        outputs=[((4, 64), "float16"), ((4, 1), "float32"), ((4, 64), "float16")], attrs={"eps": 1})


def test_a_shape_the_tiling_rejects_shows_the_ops_own_message():
    """add_rms_norm_tiling.cpp checks that gamma has the last dimension of x (CheckInputShape...)."""
    op = _cann() / "ops-nn" / "norm" / "add_rms_norm"
    with pytest.raises(OpTilingError, match=r"(?s)AddRmsNorm: the op's tiling function returned \d+; the op says:.*"
                                            r"The shape of gamma should be equal to the last 1 dim of x1"):
        ops.host_tiling(op, "ascend910b", inputs=[((4, 64), "float16")] * 2 + [((63,), "float16")],
                        outputs=[((4, 64), "float16"), ((4, 1), "float32"), ((4, 64), "float16")])


def test_an_op_folder_without_op_host_is_a_clear_error(tmp_path):
    (tmp_path / "op_kernel").mkdir()
    with pytest.raises(OpTilingError, match="no op_host folder"):
        ops.host_tiling(tmp_path, "ascend910b", inputs=[], outputs=[])


def _fake_op(root: Path, body: str, attrs: str = "", registers: str = "FakeOp", prelude: str = "") -> Path:
    """An operator repository of one op whose tiling function is `body` (cmake/ + CMakeLists.txt mark the
    repository root, as in ops-nn)."""
    (root / "cmake").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text("project(fake)\n")
    host = root / "math" / "fake_op" / "op_host"
    host.mkdir(parents=True)
    (host / "fake_op_def.cpp").write_text(textwrap.dedent(f"""\
        namespace ops {{
        class FakeOp : public OpDef {{
        public:
            explicit FakeOp(const char* name) : OpDef(name) {{
                this->Input("x").ParamType(REQUIRED).DataType({{ge::DT_FLOAT}}).Format({{ge::FORMAT_ND}});
                this->Output("y").ParamType(REQUIRED).DataType({{ge::DT_FLOAT}}).Format({{ge::FORMAT_ND}});
                {attrs}
                this->AICore().AddConfig("ascend910b");
            }}
        }};
        OP_ADD(FakeOp);
        }}
        """))
    (host / "fake_op_tiling.cpp").write_text(textwrap.dedent("""\
        #include "register/op_impl_registry.h"
        #include "exe_graph/runtime/tiling_context.h"
        """) + prelude + textwrap.dedent("""        namespace optiling {
        static ge::graphStatus FakeTiling(gert::TilingContext* context) {
        """) + textwrap.indent(textwrap.dedent(body), "    ") + textwrap.dedent("""\
        }
        IMPL_OP_OPTILING(REGISTERED).Tiling(FakeTiling);
        }
        """).replace("REGISTERED", registers))
    return host.parent


def test_a_crashing_tiling_function_is_an_error_and_the_interpreter_lives(tmp_path):
    op = _fake_op(tmp_path / "repo", """\
        volatile int* p = nullptr;
        *p = 1;
        return ge::GRAPH_SUCCESS;
        """)
    with pytest.raises(KernelCrashError, match=r"the tiling function of FakeOp: .*SIGSEGV.*this process is unaffected"):
        ops.host_tiling(op, "ascend910b", inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    assert ops.host_tiling is not None      # still here


def test_attributes_go_in_definition_order_with_defaults_and_required_ones_are_enforced(tmp_path):
    """The fake tiling writes its attributes (read by index, as ops do) into the tiling key and block dim."""
    op = _fake_op(tmp_path / "repo", """\
        auto attrs = context->GetAttrs();
        context->SetTilingKey(static_cast<uint64_t>(*attrs->GetAttrPointer<int64_t>(0)));
        context->SetBlockDim(static_cast<uint32_t>(*attrs->GetAttrPointer<float>(1) * 10));
        return ge::GRAPH_SUCCESS;
        """, attrs='this->Attr("mode").AttrType(REQUIRED).Int();\n'
                   '        this->Attr("scale").AttrType(OPTIONAL).Float(0.5);')
    io = dict(inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    r = ops.host_tiling(op, "ascend910b", attrs={"mode": 7}, **io)
    assert (r.tiling_key, r.block_dim) == (7, 5)
    r = ops.host_tiling(op, "ascend910b", attrs={"scale": 2.0, "mode": 3}, **io)
    assert (r.tiling_key, r.block_dim) == (3, 20)
    with pytest.raises(SpecError, match=r"FakeOp: attribute 'mode' is required \(int"):
        ops.host_tiling(op, "ascend910b", **io)
    with pytest.raises(SpecError, match=r"attribute 'mode' takes int values, not 'x'"):
        ops.host_tiling(op, "ascend910b", attrs={"mode": "x"}, **io)


def test_a_product_the_definition_does_not_configure_is_refused(tmp_path):
    op = _fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;")
    with pytest.raises(UnsupportedProductError, match="FakeOp is not defined for ascend950.*configures ascend910b"):
        ops.host_tiling(op, "ascend950", inputs=[((8,), "float32")], outputs=[((8,), "float32")])


def test_a_looping_tiling_function_is_stopped(tmp_path):
    op = _fake_op(tmp_path / "repo", """\
        for (volatile int i = 0;; i = i + 1) {}
        return ge::GRAPH_SUCCESS;
        """)
    with pytest.raises(OpTilingError, match=r"FakeOp was still running after 3 s .*its process was killed"):
        ops.host_tiling(op, "ascend910b", inputs=[((8,), "float32")], outputs=[((8,), "float32")], time_limit_s=3)


def test_sources_registering_another_op_say_which_they_register(tmp_path):
    op = _fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;", registers="OtherOp")
    with pytest.raises(OpTilingError, match=r"register no tiling function for FakeOp .*they register one for: OtherOp"):
        ops.host_tiling(op, "ascend910b", inputs=[((8,), "float32")], outputs=[((8,), "float32")])


def test_a_symbol_no_public_source_defines_is_named(tmp_path):
    op = _fake_op(tmp_path / "repo", "return closed_cann_function() ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;",
                  prelude="int closed_cann_function();\n")
    with pytest.raises(CompileError, match=r"op fake_op \(ascend910b\) needs 1 symbol\(s\) .*: closed_cann_function\(\)"):
        ops.host_tiling(op, "ascend910b", inputs=[((8,), "float32")], outputs=[((8,), "float32")])


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """The names of the sources host_build compiles while the test runs, in order."""
    names: list[str] = []

    def spy(job, run=host_build._run):
        names.append(Path(job[0]).name)
        return run(job)

    monkeypatch.setattr(host_build, "_run", spy)
    return names


def test_the_runners_main_is_compiled_once_for_every_op(tmp_path, compiled):
    """tiling_runner.cpp includes only the framework's headers: a second op's runner compiles its own
    sources and links the main the first one compiled (it used to be compiled again with each op's include
    folders, once per op: 12 of the suite's host compiles)."""
    io = dict(inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    for key, repo in ((11, "one"), (22, "two")):
        op = _fake_op(tmp_path / repo, f"context->SetTilingKey({key});\nreturn ge::GRAPH_SUCCESS;")
        compiled.clear()
        assert ops.host_tiling(op, "ascend910b", **io).tiling_key == key
        assert "fake_op_tiling.cpp" in compiled         # each op's own source is built (new folders)
    assert compiled == ["fake_op_tiling.cpp"]           # the second op: its source only, not the main again


def test_a_dependency_s_tiling_is_one_object_for_its_op_and_for_the_ops_using_it(tmp_path, compiled):
    """The repository's build compiles every op's tiling once. An op's DEPENDENCIES link the dependency's
    tiling into its runner: it was compiled again with the depending op's include folders (ops-nn rms_norm's
    for add_rms_norm, add_rms_norm_cast...), and again for each copy of an op. Now a dependency's source is
    compiled with its own op's folders, and a copy whose op_host links to the original's compiles nothing."""
    io = dict(inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    dep = _fake_op(tmp_path / "repo", "context->SetTilingKey(3);\nreturn ge::GRAPH_SUCCESS;")
    user = dep.parent / "user_op"
    (user / "op_host").mkdir(parents=True)
    for name in ("def", "tiling"):
        text = (dep / "op_host" / f"fake_op_{name}.cpp").read_text()
        text = text.replace("FakeOp", "UserOp").replace("FakeTiling", "UserTiling").replace("SetTilingKey(3)", "SetTilingKey(4)")
        (user / "op_host" / f"user_op_{name}.cpp").write_text(text)
    (user / "op_host" / "CMakeLists.txt").write_text("add_modules_sources(OPTYPE UserOp DEPENDENCIES fake_op)\n")
    assert ops.host_tiling(dep, "ascend910b", **io).tiling_key == 3
    compiled.clear()
    assert ops.host_tiling(user, "ascend910b", **io).tiling_key == 4
    assert compiled == ["user_op_tiling.cpp"]           # fake_op_tiling.cpp: the object its own runner built
    copy = dep.parent / "user_op_copy"                 # an edited copy of the op's kernel: op_host linked
    copy.mkdir()
    (copy / "op_host").symlink_to(user / "op_host")
    compiled.clear()
    assert ops.host_tiling(copy, "ascend910b", op_type="UserOp", **io).tiling_key == 4
    assert compiled == []


def test_an_op_calling_none_of_the_advanced_api_links_none_of_its_tiling(tmp_path, monkeypatch):
    """The host runtime's ~100 advanced-API tiling sources are built only for an op whose link needs them
    (layer_norm_v4 above needs 3 of them): an op calling none links the archive without them, and so does a
    failed link whose missing symbol the advanced API never names (the error still names the symbol)."""
    archives = []

    def spy(advanced_api=None, build_it=host_build.runtime_library):
        archives.append(None if advanced_api is None else list(advanced_api))
        return build_it(advanced_api)

    monkeypatch.setattr(host_build, "runtime_library", spy)
    io = dict(inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    op = _fake_op(tmp_path / "plain", "context->SetTilingKey(5);\nreturn ge::GRAPH_SUCCESS;")
    assert ops.host_tiling(op, "ascend910b", **io).tiling_key == 5
    assert archives == [[]]
    archives.clear()
    op = _fake_op(tmp_path / "closed", "return closed_cann_function() ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;",
                  prelude="int closed_cann_function();\n")
    with pytest.raises(CompileError, match=r"needs 1 symbol\(s\) .*: closed_cann_function\(\)"):
        ops.host_tiling(op, "ascend910b", **io)
    assert archives == [[]]


def test_a_failed_links_undefined_symbols_become_the_names_searched_for():
    """The names the on-demand advanced-API tiling looks for in its sources: the unqualified function or
    class of each undefined symbol; an operator's name is no word to search, so it is left out (the
    whole archive then stays the fallback)."""
    text = "\n".join([
        "ld: a.o: in function `f': undefined reference to `AscendC::GetLayerNormMaxMinTmpSize(ge::Shape const&, "
        "unsigned int, bool, bool, unsigned int&, unsigned int&)'",
        "undefined reference to `vtable for optiling::LayerNormTiling'",
        "undefined reference to `ns::Box<std::vector<int, std::allocator<int> > >::~Box()'",
        "undefined reference to `closed_cann_function()'",
        "undefined reference to `ns::operator<<(std::ostream&, ns::X const&)'",
    ])
    assert host_build._undefined_names(text) == {"GetLayerNormMaxMinTmpSize", "LayerNormTiling", "Box",
                                                 "closed_cann_function"}


def test_an_attribute_declared_twice_is_one_attribute_at_its_first_place(tmp_path):
    # ops-nn ascend_quant_v2's definition calls this->Attr("sqrt_mode")... once per config; metadef's
    # OpDef::Attr is get-or-create, so the op has four attributes, not eight
    op = _fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;\n",
                  attrs='this->Attr("mode").AttrType(OPTIONAL).Int(1);\n'
                        '        this->Attr("scale").AttrType(OPTIONAL).Float(0.5);\n'
                        '        this->Attr("mode").AttrType(OPTIONAL).Int(2);')
    from ascgen.ops import op_def
    d = op_def.read(op)
    assert [(a.name, a.default) for a in d.attrs] == [("mode", 2), ("scale", 0.5)]


def test_an_edited_header_of_the_tiling_source_rebuilds_it(tmp_path):
    """An op's tiling source includes its own headers (the tiling-data struct, constants); an edit of one must
    reach the tiling, even when the .cpp itself is untouched (objects used to be keyed by the .cpp's path and
    stamp alone, so the edit ran the old tiling: a silent wrong key or layout)."""
    op = _fake_op(tmp_path / "repo", "context->SetTilingKey(FAKE_KEY);\nreturn ge::GRAPH_SUCCESS;",
                  prelude='#include "fake_op_key.h"\n')
    header = op / "op_host" / "fake_op_key.h"
    io = dict(inputs=[((8,), "float32")], outputs=[((8,), "float32")])
    header.write_text("#define FAKE_KEY 5\n")
    assert ops.host_tiling(op, "ascend910b", **io).tiling_key == 5
    header.write_text("#define FAKE_KEY 7\n")
    assert ops.host_tiling(op, "ascend910b", **io).tiling_key == 7
