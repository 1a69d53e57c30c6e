"""Kernel discovery and kernel-type inference from source text, and the preprocessing step before it."""
from pathlib import Path

import pytest

from ascgen.source import signature
from ascgen.runtime.host_rewrite import rewrite
from ascgen.errors import SpecError


def kernels(text):
    return {k.name: k for k in signature.analyse(text).kernels}


def test_extern_c_kernel_params_and_default_type():
    k = kernels('extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, uint32_t n) {'
                ' AscendC::Add(a, b, c, n); }')["add"]
    assert [(p.name, p.ctype) for p in k.params] == [("x", "GM_ADDR"), ("y", "GM_ADDR"), ("n", "uint32_t")]
    assert k.extern_c and k.template is None
    assert k.kernel_type == "aiv"


@pytest.mark.parametrize("qualifiers, expected", [
    ("__vector__", "aiv"), ("__cube__", "aic"), ("__mix__(1, 2)", "mix_1_2"), ("__mix__(1,1)", "mix_1_1"),
])
def test_qualifiers_decide_the_type(qualifiers, expected):
    k = kernels(f"__global__ {qualifiers} void k(__gm__ uint8_t* x) {{ Mmad(a, b, c, p); }}")["k"]
    assert k.kernel_type == expected


def test_kernel_task_type_default_wins_over_qualifiers():
    text = ("__global__ __aicore__ __vector__ void k(GM_ADDR x) {\n"
            "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);\n}\n")
    k = kernels(text)["k"]
    assert (k.kernel_type, k.type_source) == ("mix_1_1", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1)")


@pytest.mark.parametrize("body, expected", [
    ("AscendC::Add(z, x, y, n);", "aiv"),
    ("AscendC::Mmad(c, a, b, p); AscendC::Fixpipe(g, c, p);", "aic"),
    ("AscendC::Mmad(c, a, b, p); AscendC::Relu(z, x, n);", "mix_1_2"),
    ("int i = 0;", "aiv"),
])
def test_type_inferred_from_apis_like_the_toolchain(body, expected):
    text = f"class Op {{ void Run() {{ {body} }} }};\n__global__ __aicore__ void k(GM_ADDR x) {{ Op op; }}"
    assert kernels(text)["k"].kernel_type == expected


@pytest.mark.parametrize("head, expected", [("", "mix_1_2"), ("#define ASCENDC_CUBE_ONLY\n", "aic")])
def test_a_matmul_object_is_mix_unless_cube_only(head, expected):
    # The library's Matmul object is an AIV client of an AIC server unless ASCENDC_CUBE_ONLY makes it cube-only.
    text = (f'{head}#include "lib/matmul_intf.h"\n'
            "__global__ __aicore__ void k(GM_ADDR w) {\n"
            "  AscendC::Matmul<A, B, C, C> mm; REGIST_MATMUL_OBJ(&pipe, w, mm, &tiling); mm.IterateAll(c);\n}\n")
    assert kernels(text)["k"].kernel_type == expected


def test_templates_and_definitions_over_declarations():
    text = ('extern "C" __global__ __aicore__ void k(GM_ADDR x);\n'
            "template <uint32_t N, typename T>\n__global__ __vector__ void k(__gm__ float* x, uint32_t n) {}\n")
    k = kernels(text)["k"]
    assert k.template == "uint32_t N, typename T"
    assert [p.name for p in k.params] == ["x", "n"]


def test_comments_and_strings_are_ignored():
    text = ('// __global__ void fake(int a) {}\n/* __global__ void fake2(int) {} */\n'
            'const char* s = "__global__ void fake3(int) {}";\n'
            "__global__ __aicore__ void real(GM_ADDR x) { /* SetNextTaskStart */ }\n")
    info = signature.analyse(text)
    assert [k.name for k in info.kernels] == ["real"]
    assert not info.uses_set and not info.uses_wait


def test_task_sync_use_is_textual_and_op_wide():
    text = ("class Op { void P() { AscendC::WaitPreTaskEnd(); x(); AscendC::SetNextTaskStart<PIPE_MTE3>(); } };\n"
            "__global__ __aicore__ void k(GM_ADDR x) { Op op; }\n")
    info = signature.analyse(text)
    assert info.uses_wait and info.uses_set and not info.uses_sync_all


def test_unnamed_parameters_get_positional_names():
    k = kernels("__global__ __aicore__ void k(GM_ADDR, uint32_t) {}")["k"]
    assert [p.name for p in k.params] == ["arg0", "arg1"]


# ---- <<<>>> rewriting -----------------------------------------------------------------------------

def test_rewrite_keeps_lines_and_only_touches_launches():
    text = ("#include <x>\n// k<<<1, 0, s>>>(a) in a comment\nint main() {\n"
            "    add_custom<2048, T><<<numBlocks,\n        nullptr, stream>>>(x, y, z);\n"
            '    printf("<<<not a launch>>>");\n    ns::k2<<<8, 0, s>>>(a);\n}\n')
    out, count = rewrite(text, "/abs/prog.asc")
    assert count == 2
    body = out.split("\n", 2)[2]              # after the helper include and the #line directive
    assert out.startswith('#include "ascgen/host_launch.h"\n#line 1 "/abs/prog.asc"\n')
    assert body.count("\n") == text.count("\n")
    assert '::ascgen::host::launch(&add_custom<2048, T>, "add_custom<2048, T>", numBlocks,\n' \
           "        nullptr, stream)(x, y, z);" in body
    assert '::ascgen::host::launch(&ns::k2, "ns::k2", 8, 0, s)(a);' in body
    assert "// k<<<1, 0, s>>>(a) in a comment" in body
    assert '"<<<not a launch>>>"' in body


def test_rewrite_rejects_an_unreadable_launch():
    with pytest.raises(SpecError, match=r"prog.asc:2: .*<<<"):
        rewrite("int main() {\n  (f)<<<1, 0, s>>>(a);\n}\n", "prog.asc")


def test_a_program_main_gets_the_return_0_its_renaming_would_lose():
    # batch_matmul's host main ends without a return; renamed, g++ -O2 made its end unreachable and ran
    # into an exception cleanup path (a double free). The copy ends main with `return 0;` on the same line.
    text = ('int main();\n#define OPEN {\nvoid f() { main(); }\nint32_t main(int32_t argc, char* argv[])\n{\n'
            '    k<<<1, 0, s>>>(x); // }\n    if (argc) return 1;\n    g("}");\n}\n')
    out, count = rewrite(text, "prog.asc", program=True)
    body = out.split("\n", 2)[2]
    assert count == 1 and body.count("\n") == text.count("\n")
    assert body.endswith('    g("}");\nreturn 0; }\n')
    assert rewrite(text, "prog.asc")[0].endswith('g("}");\n}\n')          # not the program's main source
    ends_in_return = "int main() {\n  if (a) { b(); } return 2;\n}\n"
    assert rewrite(ends_in_return, "p.asc", program=True)[0].endswith(ends_in_return)   # bytes kept
    for untouched in ("void main() { f(); }\n", "namespace n { int main() { f(); } }\n", "int main();\n"):
        assert rewrite(untouched, "p.asc", program=True)[0].endswith(untouched)


# ---- analysis: the preprocessor resolves #if and local headers, macros stay as written -------------

def test_analysis_resolves_conditionals_and_local_headers(tmp_path):
    from ascgen.runtime.analysis import analyse_source
    (tmp_path / "ops.h").write_text("__global__ __cube__ void from_header(GM_ADDR x) {}\n")
    src = tmp_path / "k.asc"
    src.write_text('#include "kernel_operator.h"\n#include "ops.h"\n'
                   "#if SCENARIO_NUM == 2\n__global__ __mix__(1, 2) void two(GM_ADDR x) { AscendC::SetNextTaskStart(); }\n"
                   "#else\n__global__ __vector__ void other(GM_ADDR x) {}\n#endif\n")
    two = analyse_source(src.read_text(), str(src), [tmp_path], {"SCENARIO_NUM": 2})
    assert {k.name: k.kernel_type for k in two.kernels} == {"from_header": "aic", "two": "mix_1_2"}
    assert two.uses_set and not two.uses_wait
    k = next(k for k in two.kernels if k.name == "two")
    assert (Path(k.file).name, k.line) == ("k.asc", 4)
    other = analyse_source(src.read_text(), str(src), [tmp_path], {"SCENARIO_NUM": 1})
    assert {k.name for k in other.kernels} == {"from_header", "other"} and not other.uses_set


def test_an_edited_header_in_a_subfolder_is_analysed_again(tmp_path, monkeypatch):
    # The cached analysis was keyed by the headers beside the source only: a kernel in inc/ops.h that
    # gained SetNextTaskStart kept the old "uses no task sync" verdict.
    from ascgen.runtime.analysis import analyse_source
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "inc").mkdir()
    header = tmp_path / "inc" / "ops.h"
    header.write_text("__global__ __vector__ void k(GM_ADDR x) {}\n")
    src = tmp_path / "k.asc"
    src.write_text('#include "kernel_operator.h"\n#include "inc/ops.h"\n')
    assert not analyse_source(src.read_text(), str(src)).uses_set
    header.write_text("__global__ __vector__ void k(GM_ADDR x) { AscendC::SetNextTaskStart(); }\n")
    assert analyse_source(src.read_text(), str(src)).uses_set


def test_namespace_scope_is_recorded_for_the_trampoline():
    text = ("namespace a { namespace b {\n__global__ __aicore__ void k1(GM_ADDR x) {}\n} }\n"
            "namespace {\n__global__ __aicore__ void k2(GM_ADDR x) {}\n}\n__global__ __aicore__ void k3(GM_ADDR x) {}\n")
    assert {k.name: k.scope for k in signature.analyse(text).kernels} == {"k1": "a::b::", "k2": "", "k3": ""}
