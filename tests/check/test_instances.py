"""Per-instantiation analysis (ascgen/check/instances.py): the instantiations the tiling-key template
selects, the library's UINT encodings, the bound on their number, and which templates inherit the
kernel's template arguments by name. The corpus (tpl_*.cpp) holds the seeded bugs and their twins."""
from __future__ import annotations

import textwrap

from ascgen.check import check_file

HEAD = """\
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"
"""

BODY = """\
template <uint32_t TILE>
__global__ __aicore__ void k(GM_ADDR y)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if (TILE == 3) {
        return;
    }
    AscendC::WaitPreTaskEnd();
    yGm.SetValue(0, 1.0f);
    AscendC::SetNextTaskStart();
}
"""


def check(tmp_path, text: str):
    src = tmp_path / "k.cpp"
    src.write_text(HEAD + textwrap.dedent(text))
    return check_file(src)


def selection(values: str) -> str:
    return f"ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(TILE, {values})));\n"


def test_uint_encodings_follow_the_library(tmp_path):
    # template_argument.h: UI_LIST lists values; UI_RANGE gives n inclusive [lo, hi] pairs; UI_MIX pairs
    # then values. TILE 3 returns before the pair: reported exactly when the encoding selects 3.
    cases = {
        "ASCENDC_TPL_UI_LIST, 1, 2": None,
        "ASCENDC_TPL_UI_LIST, 1, 3": "TILE=3",
        "ASCENDC_TPL_UI_RANGE, 2, 0, 2, 4, 5": None,          # 0..2 and 4..5: not 3
        "ASCENDC_TPL_UI_RANGE, 1, 2, 4": "TILE=3",            # 2..4
        "ASCENDC_TPL_UI_MIX, 1, 0, 1, 4, 9": None,            # 0..1, then 4 and 9
        "ASCENDC_TPL_UI_MIX, 1, 0, 1, 3": "TILE=3",
    }
    for values, bad in cases.items():
        result = check(tmp_path, selection(values) + BODY)
        labels = {d.message.rsplit("[", 1)[-1].rstrip("]") for d in result.errors}
        assert labels == ({bad} if bad else set()), (values, [str(d) for d in result.diagnostics])


def test_too_many_instantiations_fall_back_to_one_analysis_with_a_note(tmp_path):
    result = check(tmp_path, selection("ASCENDC_TPL_UI_RANGE, 1, 0, 99") + BODY)
    note = [s for s in result.skipped if s.what == "instantiations of k"]
    assert note and "100 instantiations" in note[0].reason, result.skipped
    # Analysed once, TILE ranging over 0..99: the return at TILE 3 is still found, unnamed.
    assert [d.rule for d in result.errors] == ["tasksync-once-per-path"] * 2
    assert all("TILE=" not in d.message for d in result.errors)


def test_a_value_that_does_not_fold_is_a_run_time_value_named_in_skipped(tmp_path):
    result = check(tmp_path, selection("ASCENDC_TPL_UI_LIST, TILE_FROM_A_MISSING_HEADER") + BODY)
    assert any(s.what == "template argument TILE of k" for s in result.skipped), result.skipped
    assert {d.rule for d in result.errors} == {"tasksync-once-per-path"}     # TILE == 3 stays possible


CLASS = """\
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(UPDATE, 0, 1)));
template <bool UPDATE>
class Body {
public:
    __aicore__ inline void Init()
    {
        if (UPDATE) {
            AscendC::WaitPreTaskEnd();
        }
    }
    __aicore__ inline void Run()
    {
        if (!UPDATE) {
            AscendC::WaitPreTaskEnd();
        }
        AscendC::SetNextTaskStart();
    }
};

template <bool UPDATE>
__global__ __aicore__ void k(GM_ADDR y)
{
    Body<UPDATE> op;
    op.Init();
    op.Run();
}
"""


def test_class_templates_inherit_the_argument_only_when_every_use_passes_it_by_name(tmp_path):
    # Body<UPDATE> receives the kernel's argument: in each instantiation exactly one method waits.
    assert not check(tmp_path, CLASS).errors
    # Somewhere Body is instantiated with a value of its own: its UPDATE is not the kernel's, so it is
    # not folded, and each method's test is a branch again (never assume what the code does not say).
    other = CLASS + "__aicore__ inline void Probe() { Body<false> probe; probe.Run(); }\n"
    assert {d.rule for d in check(tmp_path, other).errors} == {"tasksync-once-per-path"}
    # A use whose arguments nest deeper than the reader follows: nothing is assumed either.
    nested = CLASS + "template <typename T> struct Pick; using Odd = Body<Pick<Pick<Pick<int>>>::value>;\n"
    assert {d.rule for d in check(tmp_path, nested).errors} == {"tasksync-once-per-path"}


def test_findings_of_every_instantiation_say_so(tmp_path):
    result = check(tmp_path, selection("ASCENDC_TPL_UI_LIST, 1, 2") + BODY.replace("if (TILE == 3)", "if (y)"))
    assert result.errors and all(d.message.endswith("[every instantiation: TILE=1; TILE=2]")
                                 for d in result.errors), [str(d) for d in result.errors]
