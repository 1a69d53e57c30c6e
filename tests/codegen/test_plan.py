"""The planner: temporaries reused but never aliased with a step's own sources, UB accounting, and
statements traced back to the spec line that asked for them."""
from __future__ import annotations

import textwrap
import warnings

import ascgen
from ascgen.builder import Abs, Cast, Exp, Kernel, Relu, Sqrt, load_spec
from ascgen.builder.types import DTYPES
from ascgen.codegen.plan import plan_kernel


def _buffer_of(plan, var):
    uses = {u.var: u.buffer for u in plan.temp_uses}
    return uses.get(var, var)          # queue tensors are their own buffer


def test_a_chain_needs_two_temporaries_and_never_writes_its_source():
    k = Kernel("chain", tile_length=256)
    v = k.input("x", "float32")
    for op in (Exp, Abs, Sqrt, Relu, Exp, Abs):
        v = op(v)
    k.output("y", v)
    plan = plan_kernel(k, "ascend910b")
    assert len(plan.temps) == 2
    for step in plan.steps:
        assert _buffer_of(plan, step.dst) not in {_buffer_of(plan, s) for s in step.srcs}, step


def test_a_widening_cast_sizes_the_reused_buffer_for_the_wider_type():
    k = Kernel("widen", tile_length=256)
    x = k.input("x", "float16")
    k.output("y", Cast(Exp(Cast(Relu(x), "float32")), "float16"))
    plan = plan_kernel(k, "ascend910b")
    assert max(t.nbytes for t in plan.temps) == 256 * 4
    for use in plan.temp_uses:
        buffer = next(t for t in plan.temps if t.member == use.buffer)
        assert buffer.nbytes >= 256 * DTYPES[use.dtype].size


def test_ub_accounting_adds_up():
    k = Kernel("acct", tile_length=512, buffer_num=2)
    x, y = k.input("x", "float16"), k.input("y", "float32")
    k.output("z", Cast(x, "float32") + y)
    plan = plan_kernel(k, "ascend910_93")
    assert plan.ub_used == sum(n for _, n in plan.ub_items)
    assert plan.ub_used == 2 * 512 * (2 + 4 + 4) + 512 * 4      # queues x, y, z (double) + one float temp
    assert plan.ub_usable == 192 * 1024 - 256 - 8 * 1024


def test_emitted_statements_point_at_their_spec_lines(tmp_path):
    spec = tmp_path / "traced.py"
    spec.write_text(textwrap.dedent("""\
        from ascgen.builder import Kernel, Exp, Relu
        k = Kernel("traced")
        x = k.input("x", "float32")
        e = Exp(x)
        k.output("y", Relu(e))
    """))
    (kernel,) = load_spec(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = ascgen.emit(kernel, "ascend950", spec_file="traced.py")
    assert "AscendC::Exp(tmp0, xLocal, count);  // traced.py:4" in text
    assert "AscendC::Relu(yLocal, tmp0, count);  // traced.py:5" in text
    assert "AscendC::WaitPreTaskEnd();  // traced.py:2" in text
    assert "Regenerate with: ascgen emit traced.py --product ascend950" in text


def test_topk_plans_rows_of_k_lanes_and_the_library_sized_reducemax_work():
    from ascgen.builder import ReduceSum, TopK, TopKIndices
    from ascgen.codegen.plan_rows import plan_rows, topk_work_bytes
    k = Kernel("router", tile_length=4096)
    v = TopK(Cast(k.input("x", "float16", shape=("rows", "cols")), "float32"), 5)
    k.output("i", TopKIndices(v))
    k.output("w", v / ReduceSum(v))
    plan = plan_rows(k.spec(), "ascend910b")
    assert (plan.topk_k, plan.k_stride) == (5, 8)          # 5 float32 / int32 lanes padded to 32 bytes
    # 4096 float32: 64 (value, index) pairs = 128 floats, then 2 pairs in 8, then 1 pair in 8: 144 floats
    assert plan.topk_work_bytes == topk_work_bytes(4096) == 144 * 4
    assert topk_work_bytes(64) == 8 * 4                    # one repeat: one pair
    items = dict(plan.ub_items)
    assert items[f"outQueueI (2 x (rows, k) int32)"] == 2 * plan.max_tile_rows * 8 * 4
    assert items["topkRowBuf (one row, 4096 float32)"] == 4096 * 4
    assert plan.ub_used == sum(items.values())
