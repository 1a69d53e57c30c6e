"""The pieces under `ascgen check`: call scanning in tokens, graceful degradation when headers are
missing or statements do not parse, and the path model's handling of kernel types and products."""
from __future__ import annotations

import textwrap

import pytest

from ascgen.check import check_file
from ascgen.check.tokens import Tok, arg_root, calls_in
from tests.paths import CHECK_CORPUS, SK_BUGS


def toks(text: str) -> list[Tok]:
    """A tiny C++ tokenizer for the scanner tests (identifiers, numbers, punctuation)."""
    import re
    out = []
    for m in re.finditer(r"[A-Za-z_]\w*|\d+\w*|->|::|>>|<<|&&|\|\||==|!=|<=|>=|\S", text):
        s = m.group(0)
        kind = "id" if re.match(r"[A-Za-z_]", s) else "lit" if s[0].isdigit() else "punct"
        if s in ("if", "for", "return", "true", "false", "static_cast"):
            kind = "kw"
        out.append(Tok(kind, s, m.start(), 1, m.start() + 1))
    return out


def test_calls_in_reads_qualifiers_templates_objects_and_order():
    calls = calls_in(toks("AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX>(); op.Init(x, Len(y)); "
                          "if (i < n && j > (k)) xGm(i) = 3;"))
    assert [c.name for c in calls] == ["SetNextTaskStart", "Len", "Init", "xGm"]
    set_call, _, init, store = calls
    assert set_call.qualifier == ("AscendC",)
    assert [[t.text for t in a] for a in set_call.template_args] == [["PIPE_MTE3"], ["PIPE_FIX"]]
    assert init.obj == "op" and len(init.args) == 2
    assert store.assigned and store.obj is None


def test_arg_root_finds_the_tensor_behind_subscripts_and_members():
    assert arg_root(tuple(toks("xGm[i * TILE + off]"))) == "xGm"
    assert arg_root(tuple(toks("this->yGm[0]"))) == "yGm"
    assert arg_root(tuple(toks("static_cast<int>(n)"))) is None or True   # no crash on casts


def kernel(tmp_path, body: str, head: str = "", name="k.cpp"):
    src = tmp_path / name
    src.write_text(textwrap.dedent(f'''\
        #include "kernel_operator.h"
        {head}
        extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
        {{
            AscendC::GlobalTensor<float> xGm;
            xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
        ''') + textwrap.indent(textwrap.dedent(body), "    ") + "}\n")
    return src


def rules(result):
    return [(d.line, d.rule) for d in result.diagnostics]


def line_of(src, needle: str, nth: int = 1) -> int:
    hits = [i for i, line in enumerate(src.read_text().splitlines(), 1) if needle in line]
    return hits[nth - 1]


def test_missing_cann_header_is_skipped_and_the_rest_still_checked(tmp_path):
    src = kernel(tmp_path, """\
        AscendC::WaitPreTaskEnd();
        if (x == nullptr) {
            return;
        }
        AscendC::SetNextTaskStart();
        """, head='#include "lib/matmul_intf.h"\n#include "kernel_tiling/kernel_tiling.h"')
    result = check_file(src)
    assert [s.what for s in result.skipped[:2]] == ['#include "kernel_tiling/kernel_tiling.h"',
                                                  '#include "lib/matmul_intf.h"']
    assert rules(result) == [(line_of(src, "return;"), "tasksync-once-per-path")]


def test_statements_clang_drops_are_still_counted(tmp_path):
    # UNKNOWN_PIPE is declared nowhere: clang cannot parse these statements, the token scan still sees
    # two calls, so the double set is caught and the unevaluable argument is listed as skipped.
    src = kernel(tmp_path, """\
        AscendC::WaitPreTaskEnd();
        AscendC::SetNextTaskStart<PIPE_MTE3, UNKNOWN_PIPE>();
        AscendC::SetNextTaskStart<PIPE_MTE3, UNKNOWN_PIPE>();
        """)
    result = check_file(src)
    assert rules(result) == [(line_of(src, "SetNextTaskStart", 2), "tasksync-once-per-path")]
    whats = [s.what for s in result.skipped]
    assert "AIC_PIPE of SetNextTaskStart" in whats
    assert any("unparsed construct" in w for w in whats)


def test_recursion_is_reported_not_followed(tmp_path):
    src = kernel(tmp_path, """\
        AscendC::WaitPreTaskEnd();
        Walk(xGm, 3);
        AscendC::SetNextTaskStart();
        """, head="__aicore__ inline void Walk(AscendC::GlobalTensor<float>& g, int n)\n"
                  "{ if (n > 0) { g.SetValue(n, 0.0f); Walk(g, n - 1); } }")
    result = check_file(src)
    assert result.diagnostics == []
    assert any(s.what == "recursive call of Walk" for s in result.skipped)


def test_vector_kernel_ignores_the_cube_side(tmp_path):
    # __vector__: no AIC core runs this kernel, so the early return of the AIC side is dead code.
    src = tmp_path / "v.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __vector__ void v(GM_ADDR x) {\n'
                   '    if ASCEND_IS_AIC {\n        return;\n    }\n'
                   '    AscendC::WaitPreTaskEnd();\n    AscendC::SetNextTaskStart();\n}\n')
    assert check_file(src).diagnostics == []
    mix = src.read_text().replace("__vector__", "__mix__(1, 2)")
    src.write_text(mix)
    assert [d.rule for d in check_file(src).diagnostics] == ["tasksync-once-per-path"] * 2


@pytest.mark.parametrize("product, errors", [("ascend910_93", 2), ("ascend310p", 0)])
def test_core_type_branches_depend_on_the_product(product, errors):
    src = CHECK_CORPUS / "mix_one_side.cpp"
    result = check_file(src, product=product)
    assert len(result.errors) == errors      # coupled: ASCEND_IS_AIV is true on the one core type


def test_two_kernels_in_one_file_are_checked_separately(tmp_path):
    src = tmp_path / "two.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void a(GM_ADDR x) {\n'
                   '    AscendC::WaitPreTaskEnd();\n    AscendC::SetNextTaskStart();\n}\n'
                   'extern "C" __global__ __aicore__ void b(GM_ADDR x) {\n'
                   '    AscendC::WaitPreTaskEnd();\n}\n'
                   'extern "C" __global__ __aicore__ void c(GM_ADDR x) {\n    uint32_t i = block_idx;\n}\n')
    result = check_file(src)
    assert result.kernels == ["a", "b", "c"]
    # The SuperKernel compiler (and ascgen's runtime) decide op-wide, by text, that the operator uses both
    # calls: b never sets and c never calls either, so their boundaries hang (tasksync-op-wide at each
    # entry). c reaches no task-sync call itself, so block_idx there is only a warning.
    assert [(d.line, d.rule, d.severity) for d in result.diagnostics] == [
        (6, "tasksync-op-wide", "error"), (9, "tasksync-op-wide", "error"), (9, "tasksync-op-wide", "error"),
        (10, "sk-forbidden-intrinsic", "warning")]


def test_op_wide_detection_agrees_with_the_runtime():
    """The checker's op-wide set is the runtime's (ascgen.source.signature, the SK compiler's text search):
    on every corpus file (none has `#if` blocks, so the runtime's preprocessing step does not matter here)."""
    from ascgen.check import index as check_index, parse as check_parse
    from ascgen.source.signature import analyse
    for path in sorted(CHECK_CORPUS.glob("*.cpp")):
        info = analyse(path.read_text())
        runtime = {k for k, used in (("WaitPreTaskEnd", info.uses_wait), ("SetNextTaskStart", info.uses_set))
                   if used}
        index = check_index.build(check_parse.parse(str(path), (), (), ()))
        assert set(index.op_wide_sync()) == runtime, path.name


def test_allow_comment_silences_only_the_named_rule(tmp_path):
    src = tmp_path / "allow.cpp"
    body = '''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR w)
{
    AscendC::GlobalTensor<float> xGm, wGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    wGm.SetGlobalBuffer((__gm__ float*)w, 64);
    float weight = wGm.GetValue(0);  // ascgen-check: allow(tasksync-gm-before-wait) host-written weights
    AscendC::WaitPreTaskEnd();
    // ascgen-check: allow(tasksync-gm-after-set): the next task touches none of these buffers
    AscendC::SetNextTaskStart();
    xGm.SetValue(0, weight);
    xGm.SetValue(1, weight);
}
'''
    src.write_text(body)
    result = check_file(src)
    assert result.diagnostics == []
    assert sorted(d.rule for d in result.suppressed) == ["tasksync-gm-after-set", "tasksync-gm-after-set",
                                                         "tasksync-gm-before-wait"]
    src.write_text(body.replace("allow(tasksync-gm-after-set)", "allow(tasksync-in-loop)"))
    assert [d.rule for d in check_file(src).diagnostics] == ["tasksync-gm-after-set"] * 2


def test_own_lexer_matches_clang_tokens():
    """check_tokens.lex replaces clang's (slow, per-token foreign call) tokenizer: same tokens, offsets,
    lines and columns on real sources, including non-ASCII comments and raw strings."""

    from clang import cindex

    from ascgen.check import parse as check_parse
    from ascgen.check.tokens import lex

    sources = [*sorted(CHECK_CORPUS.glob("*.cpp"))[:4], *sorted(SK_BUGS.glob("*.cpp"))[:2]]
    for path in sources:
        parsed = check_parse.parse(str(path))
        text = parsed.texts.get(str(path), path.read_text()).encode()
        f = cindex.File.from_name(parsed.tu, str(path))
        extent = cindex.SourceRange.from_locations(cindex.SourceLocation.from_offset(parsed.tu, f, 0),
                                                   cindex.SourceLocation.from_offset(parsed.tu, f, len(text)))
        ref = [(t.spelling, t.location.offset, t.location.line, t.location.column)
               for t in parsed.tu.get_tokens(extent=extent) if t.kind.name != "COMMENT"]
        assert [(t.text, t.offset, t.line, t.col) for t in lex(text)] == ref, path.name
    tricky = 'int a = 0x1F\'00u; // 注释\nconst char* s = R"x(a ) b)x"; auto c = u8"é" ; x >>= 2; p->*q;\n'
    assert [t.text for t in lex(tricky.encode())] == [
        "int", "a", "=", "0x1F'00u", ";", "const", "char", "*", "s", "=", 'R"x(a ) b)x"', ";", "auto", "c", "=",
        'u8"é"', ";", "x", ">>=", "2", ";", "p", "->*", "q", ";"]


def test_helper_using_a_macro_is_interpreted(tmp_path):
    # A helper whose body uses the user's own macro (regression: the macro scan once crashed).
    src = kernel(tmp_path, """\
        AscendC::WaitPreTaskEnd();
        Helper(xGm);
        AscendC::SetNextTaskStart();
        """, head="#define STORE(t, v) t.SetValue(0, v)\n"
                  "__aicore__ inline void Helper(AscendC::GlobalTensor<float>& g) { STORE(g, 1.0f); }")
    assert check_file(src).diagnostics == []
    after = kernel(tmp_path, """\
        AscendC::WaitPreTaskEnd();
        AscendC::SetNextTaskStart();
        Helper(xGm);
        """, head="#define STORE(t, v) t.SetValue(0, v)\n"
                  "__aicore__ inline void Helper(AscendC::GlobalTensor<float>& g) { STORE(g, 1.0f); }",
        name="after.cpp")
    (d,) = check_file(after).diagnostics
    assert d.rule == "tasksync-gm-after-set" and "SetValue" in d.message and d.severity == "error"


def test_a_kernel_body_written_as_a_macro_is_followed(tmp_path):
    # Operator repositories write whole kernel bodies as macros (GMM_IMP(...)): the object declared in
    # the expansion has the class named in the arguments, and its Process() is followed.
    src = kernel(tmp_path, """\
        RUN_WITH(Worker, xGm);
        """, head="class Worker {\npublic:\n"
                  "    __aicore__ inline void Process(AscendC::GlobalTensor<float>& g) {\n"
                  "        AscendC::WaitPreTaskEnd();\n        if (g.GetValue(0) > 0) {\n            return;\n"
                  "        }\n        AscendC::SetNextTaskStart();\n    }\n};\n"
                  "#define RUN_WITH(cls, t) do { cls op; op.Process(t); } while (0)")
    result = check_file(src)
    assert [d.rule for d in result.diagnostics] == ["tasksync-once-per-path"]
    assert result.diagnostics[0].line == line_of(src, "return;")


@pytest.mark.parametrize("selector, errors", [("if constexpr (USE_FAST)", 0), ("if (useFast)", 2)])
def test_configuration_selector_inside_a_macro(tmp_path, selector, errors):
    # Read from tokens (a macro body): an `if constexpr` without else selects a compile-time
    # configuration, so "none selected" is not a path; a run-time `if` without else is one.
    src = kernel(tmp_path, """\
        bool useFast = x != nullptr;
        RUN(Worker);
        """, head="constexpr bool USE_FAST = true;\nclass Worker {\npublic:\n"
                  "    __aicore__ inline void Process() {\n        AscendC::WaitPreTaskEnd();\n"
                  "        AscendC::SetNextTaskStart();\n    }\n};\n"
                  f"#define RUN(cls) do {{ {selector} {{ cls op; op.Process(); }} }} while (0)")
    result = check_file(src)
    assert [d.rule for d in result.diagnostics] == ["tasksync-once-per-path"] * errors


def test_lazy_ranges_match_whole_file_tokens():
    """LazyFile lexes only the ranges asked for; the tokens must equal those of the whole file."""

    from ascgen.check import index as check_index
    from ascgen.check import parse as check_parse
    from ascgen.check.tokens import LazyFile, tokenize

    path = str(CHECK_CORPUS / "switch_missing_wait.cpp")
    parsed = check_parse.parse(path)
    index = check_index.build(parsed)
    whole = tokenize(parsed.tu, path)
    lazy = LazyFile(parsed.tu, path)
    functions = [d for defs in index.functions.values() for d in defs]
    assert len(functions) >= 5
    for fn in functions:
        _, _, start, end = index.info(fn.cursor)
        assert lazy.between(start, end) == whole.between(start, end), fn.name
    assert [t.text for t in lazy.after(0, 3)] == [t.text for t in whole.toks[:3]]


def test_misplaced_access_names_the_wait_on_its_own_path():
    """The compute class bound by a template argument decides which Process() runs, and the note names
    that class's wait (line 24), not the first wait of the file (QuantCompute's, line 11)."""
    path = CHECK_CORPUS / "method_by_static_type.cpp"
    (d,) = check_file(path).diagnostics
    assert (d.line, d.rule) == (line_of(path, "EXPECT: tasksync-gm-before-wait"),
                                "tasksync-gm-before-wait")
    assert d.notes[-1].line == d.line + 1 and "WaitPreTaskEnd" in d.notes[-1].message


@pytest.mark.parametrize("kernel_type, errors", [("ASCENDC_TPL_MIX_AIC_1_2", 2), ("ASCENDC_TPL_AIV_ONLY", 0)])
def test_per_template_kernel_type_decides_the_core_sides(tmp_path, kernel_type, errors):
    """ASCENDC_TPL_KERNEL_TYPE_SEL (the tiling-key template) says MIX: the AIC early return skips the pair
    on cube cores. Vector only: that branch is dead code."""
    head = f"#define KERNEL_TEMPLATES ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL({kernel_type}))"
    src = kernel(tmp_path, """\
        if ASCEND_IS_AIC {
            return;
        }
        AscendC::WaitPreTaskEnd();
        AscendC::SetNextTaskStart();
        """, head=head)
    assert [r for r in rules(check_file(src)) if r[1] == "tasksync-once-per-path"] == \
        [(line_of(src, "return;"), "tasksync-once-per-path")] * errors
