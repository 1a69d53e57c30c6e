"""The placement pass, test per hazard with its "nothing to do" twin (checked on the Placement the pass
returns: the AST-level checks on emitted sources are in test_emit_placement_ast.py)."""
from __future__ import annotations

import warnings

import pytest

import ascgen
from ascgen import products
from ascgen.builder import Kernel, Relu
from ascgen.errors import SpecError
from ascgen.codegen.plan import plan_kernel
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning, TaskSyncPolicy, place_task_sync


def _plan(product="ascend910_93", task_sync="both"):
    k = Kernel("k", task_sync=task_sync)
    w, x = k.input("w", "float16"), k.input("x", "float16")
    k.output("y", Relu(w + x))
    return plan_kernel(k, product)


def _texts(placement):
    return [(l.indent, l.text) for l in placement.process]


def test_set_after_the_tile_loop_wait_before_it():
    lines = _texts(place_task_sync(_plan()))
    assert lines[0] == (0, "AscendC::WaitPreTaskEnd();")
    assert lines[1][1].startswith("for (")
    assert lines[-1] == (0, "AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX>();")
    assert not [t for i, t in lines if i > 0 and ("TaskEnd" in t or "TaskStart" in t)]   # nothing in the loop


@pytest.mark.parametrize("mode,wait,set_", [("both", 1, 1), ("wait", 1, 0), ("set", 0, 1), ("none", 0, 0)])
def test_modes_emit_exactly_the_calls_asked_for(mode, wait, set_):
    placement = place_task_sync(_plan(), TaskSyncPolicy(mode=mode))
    texts = [t for _, t in _texts(placement)]
    assert sum("WaitPreTaskEnd" in t for t in texts) == wait
    assert sum("SetNextTaskStart" in t for t in texts) == set_
    assert placement.sk_cap == wait * 1 + set_ * 2


def test_kernel_setting_is_the_default_mode():
    placement = place_task_sync(_plan(task_sync="set"))
    assert placement.wait_call is None and placement.set_call is not None


@pytest.mark.parametrize("product,pipes", [("ascend910_93", "PIPE_MTE3, PIPE_FIX"), ("ascend950", "PIPE_MTE3, PIPE_FIX"),
                                           ("ascend310p", "PIPE_MTE3, PIPE_MTE3"), ("ascend910", "PIPE_MTE3, PIPE_MTE3")])
def test_template_arguments_come_from_the_product(product, pipes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        placement = place_task_sync(_plan(product))
    assert placement.set_call == f"AscendC::SetNextTaskStart<{pipes}>();"


def test_force_for_direct_invocation():
    placement = place_task_sync(_plan(), TaskSyncPolicy(force=True))
    assert placement.wait_call == "AscendC::WaitPreTaskEnd<true>();"
    assert placement.set_call == "AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();"


def test_prefetch_loads_only_the_first_tile_of_the_named_input_before_the_wait():
    lines = _texts(place_task_sync(_plan(), TaskSyncPolicy(prefetch_inputs=frozenset({"w"}))))
    wait = lines.index((0, "AscendC::WaitPreTaskEnd();"))
    before = [t for _, t in lines[:wait]]
    assert len(before) == 1 and before[0].startswith("if (this->tileNum > 0) { CopyInW(0); }")
    assert (1, "if (i > 0) { CopyInW(i); }") in lines and (1, "CopyInX(i);") in lines


def test_no_prefetch_twin_loads_nothing_before_the_wait():
    lines = _texts(place_task_sync(_plan()))
    assert lines[0][1] == "AscendC::WaitPreTaskEnd();" and (1, "CopyInW(i);") in lines


def test_prefetch_of_an_unknown_input_is_an_error():
    with pytest.raises(SpecError, match="prefetch_inputs names 'q'.*inputs: w, x"):
        place_task_sync(_plan(), TaskSyncPolicy(prefetch_inputs=frozenset({"q"})))


def test_set_early_goes_right_after_the_wait():
    lines = _texts(place_task_sync(_plan(), TaskSyncPolicy(set_early=True)))
    assert lines[0][1] == "AscendC::WaitPreTaskEnd();" and lines[1][1].startswith("AscendC::SetNextTaskStart")
    assert sum("SetNextTaskStart" in t for _, t in lines) == 1


def test_compile_only_product_warns_once_and_notes_it_in_the_source():
    import ascgen.codegen.tasksync as ts
    ts._WARNED.discard("ascend310p")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = place_task_sync(_plan("ascend310p"))
        place_task_sync(_plan("ascend310p"))
    assert sum(issubclass(w.category, TaskSyncNoEffectWarning) for w in caught) == 1
    assert "compile-only" in first.note


def test_effective_product_twin_has_no_note_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", TaskSyncNoEffectWarning)
        assert place_task_sync(_plan("ascend910_93")).note is None


def test_host_emits_sk_bind_twin_only_where_superkernel_exists():
    k = Kernel("k")
    k.output("y", Relu(k.input("x", "float16")))
    a3 = ascgen.emit(k, "ascend910_93", host=True)
    assert "SK_BIND(k, 3, k_sk<0>, k_sk<1>, k_sk<2>, k_sk<3>);" in a3 and "WaitPreTaskEnd<true>" in a3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        p310 = ascgen.emit(k, "ascend310p", host=True)
    assert "SK_BIND" not in p310 and "k_do(uint32_t blockDim" in p310
    assert "SK_BIND" not in ascgen.emit(k, "ascend910_93")


def test_no_forbidden_intrinsics_in_any_emitted_source():
    k = Kernel("k")
    k.output("y", Relu(k.input("x", "float16")))
    text = ascgen.emit(k, "ascend910_93", host=True)
    for word in ("block_idx", "block_num", "get_block_idx", "get_block_num", "get_task_ration"):
        assert f"{word}" not in text.replace("GetBlockIdx", "").replace("GetBlockNum", "")


def test_emit_accepts_product_objects_with_other_core_counts():
    k = Kernel("k", block_dim=40)
    k.output("y", Relu(k.input("x", "float16")))
    small = products.get("ascend910b").with_cores(aic=20, aiv=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
        assert "extern \"C\" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t totalLength)" in ascgen.emit(k, small)
