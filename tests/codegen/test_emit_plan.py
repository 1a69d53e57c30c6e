"""`emit_plan` hands the plan to its caller: `ascgen test` plans each kernel once (issue 18 point 5)."""
from __future__ import annotations

import pytest

from ascgen.builder import Kernel, Relu, ReduceMax
from ascgen.codegen import emit as emit_mod, plan as plan_mod, plan_rows
from ascgen.codegen.emit import emit, emit_plan
from ascgen.commands.test import check_kernel


def _flat():
    k = Kernel("flat", block_dim=2, tile_length=64)
    k.output("y", Relu(k.input("x", "float16")))
    return k


def _rows():
    k = Kernel("rowmax", block_dim=2, tile_length=64)
    x = k.input("x", "float32", shape=("rows", "cols"))
    k.output("y", x - ReduceMax(x))
    return k


def test_emit_plan_returns_the_text_emit_gives_and_its_plan():
    got = emit_plan(_flat(), "ascend910b")
    assert got.text == emit(_flat(), "ascend910b")
    assert got.plan.spec.name == "flat" and got.plan.min_length == 1


@pytest.mark.parametrize("make, lengths", [(_rows, None)])   # 1-D: the same path, min_length from the plan
def test_ascgen_test_plans_each_kernel_once(monkeypatch, make, lengths):
    calls = []
    real = plan_mod.checked_basics

    def counting(spec, product):
        calls.append(spec.name)
        return real(spec, product)
    for module in (plan_mod, plan_rows):
        monkeypatch.setattr(module, "checked_basics", counting)
    result = check_kernel(make(), "ascend910b", lengths)
    assert result.ok, [c.detail for c in result.cases if not c.ok]
    assert len(calls) == 1, calls
