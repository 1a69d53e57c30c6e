"""Production operators as SuperKernel tasks (issue 20, point 5): `SuperKernel.add(op, *inputs, outputs=[...],
**attrs)` with ascgen.ops operators, chained through ascgen.ops.device_array()s.

The chain is a decoder block's norm -> activation -> norm on ascend910b (every op's definition lists it; the
task-sync calls take effect as on A3 with treat_as_effective): ops-nn add_rms_norm (x1 + x2, normalized),
swi_glu on its y, rms_norm on the gate's output. Every output equals the ops run one by one, bit for bit, and
numpy's reference within the tolerance of tests/ops/cases.py.

None of the three calls the task-sync pair, so the SuperKernel puts full barriers between them. A copy of
rms_norm (made here, in the test cache, never committed) waits before its first GM read and sets after its
last GM write: its cores that swi_glu leaves idle start it while swi_glu still runs, which the modeled
timeline shows. A second copy plants the wait after the kernel's work: its reads of swi_glu's output race
with swi_glu's writes, reported at the line of the read.
"""
from __future__ import annotations

import numpy as np
import pytest

from ascgen import ops
from ascgen.errors import SpecError
from ascgen.ops.kernel import UnwrittenOutput
from ascgen.runtime import SuperKernel, load
from ascgen.runtime.superkernel import TaskSpec
from ascgen.runtime.report.trace import event_from_record
from ascgen.runtime.timeline_svg import overlaps, spans
from tests.ops.cases import CASES, mismatches
from tests.ops.test_host_tiling import _cann
from tests.op_copies import edit, edited_copy, line_of

PRODUCT = "ascend910b"
ROWS, COLS = 8, 256         # swi_glu runs these 8 rows on one core; the norms on 8
EPS = 1e-6
RMS_NORM = "ops-nn/norm/rms_norm"
CASE = {c.name: c for c in CASES}
ENTRY = "    GM_ADDR usrWorkspace = AscendC::GetUserWorkspace(workspace);\n"    # after the tiling read (host data)
END = "#endif\n}\n"                                                          # the kernel's last line
WAIT, SET = "    AscendC::WaitPreTaskEnd();\n", "    AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX>();\n"


class Chain:
    """The three ops, their inputs, and (run) the arrays each writes."""

    def __init__(self, rms_norm_dir=None):
        root = _cann()
        self.add_rms_norm = ops.load(root / "ops-nn/norm/add_rms_norm", product=PRODUCT)
        self.swi_glu = ops.load(root / "ops-nn/activation/swi_glu", product=PRODUCT)
        self.rms_norm = ops.load(rms_norm_dir or root / RMS_NORM, product=PRODUCT)
        rng = np.random.default_rng(20)
        self.x1, self.x2 = (rng.uniform(-2, 2, (ROWS, COLS)).astype(np.float16) for _ in range(2))
        self.gamma = rng.uniform(-2, 2, COLS).astype(np.float16)
        self.gamma2 = rng.uniform(-2, 2, COLS // 2).astype(np.float16)

    def outputs(self) -> dict:
        d = ops.device_array
        return {"y": d((ROWS, COLS), "float16"), "rstd": d((ROWS, 1), "float32"), "x": d((ROWS, COLS), "float16"),
                "gate": d((ROWS, COLS // 2), "float16"), "out": d((ROWS, COLS // 2), "float16"),
                "out_rstd": d((ROWS, 1), "float32")}

    def superkernel(self, options: str = "early-start=1") -> tuple[SuperKernel, dict]:
        o = self.outputs()
        sk = SuperKernel(PRODUCT, options=options, treat_as_effective=True)
        sk.add(self.add_rms_norm, self.x1, self.x2, self.gamma, outputs=[o["y"], o["rstd"], o["x"]], epsilon=EPS)
        sk.add(self.swi_glu, o["y"], outputs=[o["gate"]], dim=-1)
        sk.add(self.rms_norm, o["gate"], self.gamma2, outputs=[o["out"], o["out_rstd"]], epsilon=EPS)
        return sk, o

    def one_by_one(self) -> dict:
        y, rstd, x = self.add_rms_norm(self.x1, self.x2, self.gamma, outputs=[
            ((ROWS, COLS), "float16"), ((ROWS, 1), "float32"), ((ROWS, COLS), "float16")], epsilon=EPS)
        gate = self.swi_glu(y, outputs=[((ROWS, COLS // 2), "float16")], dim=-1)
        out, out_rstd = self.rms_norm(gate, self.gamma2, outputs=[((ROWS, COLS // 2), "float16"),
                                                                  ((ROWS, 1), "float32")], epsilon=EPS)
        return {"y": y, "rstd": rstd, "x": x, "gate": gate, "out": out, "out_rstd": out_rstd}


def _same_bits(got: dict, want: dict) -> list[str]:
    return [name for name in want if got[name].tobytes() != want[name].tobytes()]


def _numpy_mismatches(chain: Chain, got: dict) -> dict:
    """Outputs outside tolerance per tensor, each op's reference fed with the previous op's actual output."""
    refs = {}
    refs["y"], refs["rstd"], refs["x"] = CASE["add_rms_norm-float16"].expected([chain.x1, chain.x2, chain.gamma], PRODUCT)
    (refs["gate"],) = CASE["swi_glu-float16"].expected([got["y"]], PRODUCT)
    refs["out"], refs["out_rstd"] = CASE["rms_norm-float16"].expected([got["gate"], chain.gamma2], PRODUCT)
    return {name: mismatches(got[name], ref)[0] for name, ref in refs.items()}


def _task_spans(report) -> dict[int, list[tuple[float, float]]]:
    """task -> the (begin, end) of each core that ran it, in modeled cycles."""
    out: dict[int, list[tuple[float, float]]] = {}
    for (core, task), span in spans([event_from_record(e) for e in report.events]).items():
        out.setdefault(task, []).append(span)
    return out


def _sync_calls(text: str) -> str:
    """The copy's kernel: the wait before the first GM read, the set after the last GM write."""
    return edit(edit(text, ENTRY, ENTRY + WAIT), END, "#endif\n" + SET + "}\n")


def _wait_at_the_end(text: str) -> str:
    """A planted misplacement: the wait after the kernel's work, just before the set."""
    return edit(text, END, "#endif\n" + WAIT + SET + "}\n")


@pytest.fixture(scope="module")
def rms_norm_source() -> str:
    return (_cann() / RMS_NORM / "op_kernel" / "rms_norm.cpp").read_text()


def test_three_operators_run_as_one_superkernel_with_the_one_by_one_results():
    chain = Chain()
    alone = chain.one_by_one()
    sk, got = chain.superkernel()
    assert sk.tasks == ["add_rms_norm", "swi_glu", "rms_norm"]
    report = sk.run()
    assert report.races == [], report.format_races()
    assert _same_bits(got, alone) == []
    assert _numpy_mismatches(chain, got) == dict.fromkeys(got, 0)
    # no task calls the pair: each boundary is a full barrier, no task starts before its predecessor ended
    runs = _task_spans(report)
    for k in (1, 2):
        assert min(a for a, _ in runs[k]) >= max(b for _, b in runs[k - 1])


@pytest.mark.slow      # early start between neighbours is covered by test_production_kernel.py's control copy and tests/superkernel's own kernels
def test_a_copy_with_the_task_sync_calls_overlaps_its_neighbour(rms_norm_source):
    chain = Chain(edited_copy(_cann() / RMS_NORM, {"rms_norm.cpp": _sync_calls(rms_norm_source)}))
    alone = chain.one_by_one()
    sk, got = chain.superkernel()
    report = sk.run()
    assert report.races == [], report.format_races()
    assert _same_bits(got, alone) == []
    runs = _task_spans(report)
    assert len(runs[1]) == 1                      # swi_glu on one core; rms_norm on 8, 7 of them idle before it
    assert min(a for a, _ in runs[2]) < max(b for _, b in runs[1]), runs
    assert min(a for a, _ in runs[1]) >= max(b for _, b in runs[0])    # add_rms_norm -> swi_glu: still a barrier
    # the picture's yellow band (docs/img/sk_op_chain.svg): from rms_norm's first begin to swi_glu's end
    (band,) = overlaps(spans([event_from_record(e) for e in report.events]), 3)
    assert band == (1, min(a for a, _ in runs[2]), max(b for _, b in runs[1]))
    assert [lint.rule for lint in report.lints] == ["sk-last-task-set"]     # the last task's set is compiled out


@pytest.mark.slow      # a planted wait in a production kernel is covered by test_production_kernel.py
def test_a_wait_planted_after_the_work_races_at_the_read(rms_norm_source):
    planted = edited_copy(_cann() / RMS_NORM, {"rms_norm.cpp": _wait_at_the_end(rms_norm_source)})
    sk, got = Chain(planted).superkernel()
    report = sk.run()
    assert report.races, "the planted wait was not reported"
    read = line_of(planted / "op_kernel" / "rms_norm_merge_n.h", "DataCopyPad(xLocal, xGm[gm_bias]")
    wait = line_of(planted / "op_kernel" / "rms_norm.cpp", "AscendC::WaitPreTaskEnd();")
    for race in report.races:
        assert (race.earlier.task, race.earlier.kernel, race.earlier.write) == (1, "swi_glu", True)
        assert (race.later.task, race.later.kernel, race.later.write) == (2, "rms_norm", False)
        assert race.kind == "RAW" and race.window == "consumer prologue" and race.call_line == wait
        assert (race.later.file, race.later.line) == (str(planted / "op_kernel" / "rms_norm_merge_n.h"), read)


def test_outputs_in_a_superkernel_must_be_device_arrays():
    chain = Chain()
    sk = SuperKernel(PRODUCT, treat_as_effective=True)
    with pytest.raises(SpecError, match=r"SwiGlu output 0 \(y\): in a SuperKernel give the array the task "
                                        r"writes, made by ascgen.ops.device_array\(shape, dtype\), not tuple"):
        sk.add(chain.swi_glu, chain.x1, outputs=[((ROWS, COLS // 2), "float16")], dim=-1)
    half = ops.device_array((2, ROWS, COLS // 2), "float16")[0]
    with pytest.raises(SpecError, match=r"SwiGlu output 0 \(y\): the array is a part of a device_array"):
        sk.add(chain.swi_glu, chain.x1, outputs=[half], dim=-1)
    other = ops.load(_cann() / "ops-nn/activation/swi_glu", product="ascend910_93")
    with pytest.raises(SpecError, match=r"SwiGlu was loaded for ascend910_93, the SuperKernel runs on ascend910b"):
        sk.add(other, chain.x1, outputs=[ops.device_array((ROWS, COLS // 2), "float16")], dim=-1)
    task = chain.swi_glu.superkernel_task(PRODUCT, chain.x1, outputs=[ops.device_array((ROWS, COLS // 2), "float16")],
                                          dim=-1)
    with pytest.raises(SpecError, match=r"SuperKernel.add\(module, name, block_dim, \*args\): .*keyword arguments "
                                        r"dim are for operators"):
        sk.add(task.module, task.name, dim=-1)
    assert sk.tasks == []


def test_two_tiling_keys_of_one_op_are_two_binaries_in_one_superkernel():
    """The op compiler builds a binary per key (ops/kernel.keyed): the 64 x 8192 run of add_rms_norm takes
    key 14, the 8 x 256 one key 13, and each task runs its own key's binary. Both match numpy."""
    op = ops.load(_cann() / "ops-nn/norm/add_rms_norm", product=PRODUCT)
    sk = SuperKernel(PRODUCT, treat_as_effective=True)
    rng = np.random.default_rng(3)
    runs = []
    for rows, cols in ((ROWS, COLS), (64, 8192)):
        x1, x2 = (rng.uniform(-2, 2, (rows, cols)).astype(np.float16) for _ in range(2))
        gamma = rng.uniform(-2, 2, cols).astype(np.float16)
        outs = [ops.device_array(s, t) for s, t in (((rows, cols), "float16"), ((rows, 1), "float32"),
                                                    ((rows, cols), "float16"))]
        runs.append(([x1, x2, gamma], outs, op.tiling(x1, x2, gamma, outputs=outs, epsilon=EPS).tiling_key))
        sk.add(op, x1, x2, gamma, outputs=outs, epsilon=EPS)
    assert [key for _, _, key in runs] == [13, 14]
    assert sk.run().races == []
    case = CASE["add_rms_norm-float16"]
    for ins, outs, _ in runs:
        assert [mismatches(g, r)[0] for g, r in zip(outs, case.expected(ins, PRODUCT))] == [0, 0, 0]


KEYED = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void keyed(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out);
    o.SetValue(0, TILING_KEY_IS(1) ? 1 : 2);
}
"""


class _OneModuleForEveryKey:
    """A task provider whose tasks share one module whatever their key (a module has one key per launch)."""

    def __init__(self, module):
        self.module = module

    def superkernel_task(self, product, out, *, key):
        return TaskSpec(self.module, "keyed", 1, (out,), key)


def test_two_tiling_keys_of_one_module_are_refused(tmp_path):
    source = tmp_path / "keyed.cpp"
    source.write_text(KEYED)
    tasks = _OneModuleForEveryKey(load(source, product=PRODUCT))
    sk = SuperKernel(PRODUCT).add(tasks, np.zeros(8, np.int32), key=1)
    with pytest.raises(SpecError, match=r'task 1 "keyed" needs tiling key 2, and task 0 "keyed" of the same '
                                        r"module runs with key 1"):
        sk.add(tasks, np.zeros(8, np.int32), key=2)


def test_an_unwritten_output_of_a_task_is_reported_after_the_run():
    # as tests/ops/test_op_run.py: squared_relu's body is compiled out with __CCE_AICORE__ 350 (not 220 or 310)
    op = ops.load(_cann() / "ops-nn/activation/squared_relu", product="ascend950", defines={"__CCE_AICORE__": 350})
    x = np.ones((ROWS, COLS), np.float16)
    y = ops.device_array(x.shape, "float16")
    sk = SuperKernel("ascend950").add(op, x, outputs=[y])
    with pytest.warns(UnwrittenOutput, match=r"wrote no element of output 0 \(output\)") as caught:
        sk.run()
    assert caught[0].filename == __file__           # the warning points at the run() call
    assert np.isnan(y).all()


def test_a_device_array_output_of_a_single_run_is_written_in_place_and_returned():
    chain = Chain()
    gate = ops.device_array((ROWS, COLS // 2), "float16")
    assert np.isnan(gate).all()                                  # allocated as poison
    got = chain.swi_glu(chain.x1, outputs=[gate], dim=-1)
    assert got is gate
    assert got.tobytes() == chain.swi_glu(chain.x1, outputs=[(gate.shape, "float16")], dim=-1).tobytes()
