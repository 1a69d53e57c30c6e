"""A production kernel's task-sync placement, verified in a SuperKernel (issue 19, point 7).

ops-nn `matmul/quant_matmul_reduce_sum` is built as its kernel UT builds it (ascgen.ut.kernel_module) and
runs as the middle task of a SuperKernel with early start, between the generated neighbours of `ascgen sk`
(a producer that rewrites buffers right before its SetNextTaskStart, a consumer that reads the output right
after its WaitPreTaskEnd), with the UT's shape and tiling numbers (test_quant_matmul_reduce_sum.cpp).

Its init-output step zero-fills y (quant_matmul_reduce_sum_init_output.h) before the WaitPreTaskEnd of
QbmmRSProcess::Process (quant_matmul_reduce_sum.h). When the previous task still uses the memory y reuses
(a graph's memory planner hands a dead tensor's memory to the next output), that is a race at the
zero-fill's line. The control is a copy of the op (made here, never committed) with the wait moved before
the zero-fill: it runs clean and gives the numbers of the one-by-one run and of numpy. A second copy plants
a misplacement (the wait after the batch loop): the matmul's reads of x1 and x2 race with the producer.
"""
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from ascgen import config
from ascgen.commands.sk_neighbours import CONSUMER, PRODUCER, consumer_source, producer_source
from ascgen.ops.tiling_fields import NUMPY
from ascgen.runtime import SuperKernel, load
from ascgen.source import op_tiling
from ascgen.ut.kernel import kernel_module
from tests.op_copies import edit, edited_copy, line_of
from tests.ut.test_cmake import _cann_sources

PRODUCT = "ascend910b"          # the UT's soc (ascend910B1); task sync runs as on A3 (treat_as_effective)
KERNEL = "quant_matmul_reduce_sum"
B, M, K, N = 8, 32, 64, 32      # the UT's shape; n = 32 is one NZ column block, so NZ x2 is plain k x n
WORKSPACE = 16793600            # the UT's allWorkspaceSize
UT_PARAMS = dict(batchNum=8, coreNum=1, ubBaseK=64, ubBaseN=32, ubRestBytes=16384, ubCalSize=1024,
                 isPertoken=1, isDetermine=0, workspaceSize=0)
UT_MATMUL = dict(usedCoreNum=1, M=32, N=32, Ka=64, Kb=64, singleCoreM=32, singleCoreN=32, singleCoreK=64,
                 baseM=32, baseN=32, baseK=64, depthA1=1, depthB1=1, stepM=1, stepN=1, isBias=0, transLength=0,
                 iterateOrder=0, shareMode=0, shareL1Size=4096, shareL0CSize=4096, shareUbSize=0, batchM=1,
                 batchN=1, singleBatchM=1, stepKa=1, stepKb=1, depthAL1CacheUB=0, depthBL1CacheUB=0, dbL0A=2,
                 dbL0B=2, dbL0C=1)


@pytest.fixture(scope="module")
def op_dir():
    return _cann_sources() / "ops-nn" / "matmul" / KERNEL


def _struct_fields(header: Path, name: str) -> list[tuple[str, str]]:
    """(ctype, name) of each member of `struct ... name { ... };` in a header."""
    text = op_tiling._strip_comments(header.read_text(errors="replace"))
    body = re.search(rf"\bstruct\s+(?:alignas\s*\(\s*\d+\s*\)\s*)?{name}\s*\{{([^{{}}]*)\}}", text).group(1)
    return re.findall(r"(\w+)\s+(\w+)\s*;", body)


def _tiling(op_dir: Path) -> np.ndarray:
    """QuantMatmulReduceSumTilingData as a numpy record, laid out from the op's header (its params struct
    and the members' order) and the library's TCubeTiling (matmul_tilingdata.h), filled like the UT."""
    header = op_dir / "op_kernel" / "quant_matmul_reduce_sum_tiling_data.h"
    cube = op_tiling.library_classes(config.asc_devkit())["TCubeTiling"]
    kinds = {"QuantMatmulReduceSumParams": np.dtype([(n, NUMPY[c]) for c, n in
                                                     _struct_fields(header, "QuantMatmulReduceSumParams")],
                                                    align=True),
             "TCubeTiling": np.dtype([(f.name, NUMPY[f.ctype]) for f in cube.fields], align=True)}
    dtype = np.dtype([(n, kinds[c]) for c, n in _struct_fields(header, "QuantMatmulReduceSumTilingData")],
                     align=True)
    tiling = np.zeros(1, dtype)
    for name, value in UT_PARAMS.items():
        tiling["qbmmReduceSumParams"][name] = value
    for name, value in UT_MATMUL.items():
        tiling["matmulTiling"][name] = value
    return tiling


class Case:
    """The UT's shape with small random data (the UT fills zeros, which no comparison can tell apart)."""

    def __init__(self, tiling: np.ndarray):
        rng = np.random.default_rng(19)
        self.x1 = rng.integers(-8, 8, (B, M, K)).astype(np.int8)
        self.x2 = rng.integers(-8, 8, (B, K, N)).astype(np.int8)
        self.x1_scale = (rng.integers(1, 9, (B, M)) / 8).astype(np.float32)      # per token
        self.x2_scale = (rng.integers(1, 9, N) / 16).astype(ml_dtypes.bfloat16)  # per channel
        self.tiling = tiling
        self.workspace = np.zeros(WORKSPACE, np.uint8)
        self.y = np.zeros((M, N), ml_dtypes.bfloat16)

    def args(self) -> list:
        # x1, x2, dims, bias, x1Scale, x2Scale, yScale, x1Offset, x2Offset, yOffset, x2Table, y, workspace, tiling
        return [self.x1, self.x2, np.zeros(1, np.int64), None, self.x1_scale, self.x2_scale, None, None, None, None,
                None, self.y, self.workspace, self.tiling]

    def reference(self) -> np.ndarray:
        """y = sum over the batch of bf16(float(x1[b] @ x2[b]) * x2Scale * x1Scale[b]), each batch's result
        rounded to bfloat16 (Cast RINT) and added to y in bfloat16 (the atomic add of DataCopyOut)."""
        y = np.zeros((M, N), ml_dtypes.bfloat16)
        for b in range(B):
            acc = self.x1[b].astype(np.int32) @ self.x2[b].astype(np.int32)
            v = acc.astype(np.float32) * self.x2_scale.astype(np.float32)[None, :] * self.x1_scale[b][:, None]
            y = (y.astype(np.float32) + v.astype(ml_dtypes.bfloat16).astype(np.float32)).astype(ml_dtypes.bfloat16)
        return y


def _neighbours(case: Case, y_shared: bool):
    """(producer module and its buffers, consumer module). The producer rewrites the kernel's inputs and,
    when `y_shared`, also the memory of y (the previous task's last use of memory y reuses)."""
    before = [case.x1, case.x2, case.x1_scale, case.x2_scale] + ([case.y] if y_shared else [])
    names = ["x1", "x2", "x1Scale", "x2Scale", "y"][:len(before)]
    producer = load(producer_source([(n, a.nbytes) for n, a in zip(names, before)]), PRODUCT,
                    filename="ascgen-sk-producer.cpp")
    consumer = load(consumer_source([("y", case.y.nbytes)]), PRODUCT, filename="ascgen-sk-consumer.cpp")
    return producer, before, consumer


def _run_sk(module, case: Case, y_shared: bool):
    producer, before, consumer = _neighbours(case, y_shared)
    sk = SuperKernel(PRODUCT, options="early-start=1", treat_as_effective=True)
    sk.add(producer, PRODUCER, 2, *before)
    sk.add(module, KERNEL, 1, *case.args())
    sk.add(consumer, CONSUMER, 2, case.y)
    return sk.run()


def _source_line(source: str, text: str) -> int:
    (found,) = [i + 1 for i, line in enumerate(source.splitlines()) if text in line]
    return found


WAIT, SET = "    AscendC::WaitPreTaskEnd();\n", "    AscendC::SetNextTaskStart();\n"


def _wait_first(op_dir: Path) -> dict[str, str]:
    """The fix: WaitPreTaskEnd moved from QbmmRSProcess::Process to the top of RunQuantMatmulReduceSum,
    before the zero-fill (file name -> new text)."""
    process = (op_dir / "op_kernel" / "quant_matmul_reduce_sum.h").read_text()
    entry = (op_dir / "op_kernel" / "quant_matmul_reduce_sum.cpp").read_text()
    clear = "    TPipe tPipeClear;\n"
    return {"quant_matmul_reduce_sum.h": edit(process, WAIT, ""),
            "quant_matmul_reduce_sum.cpp": edit(entry, clear, WAIT + clear)}


def _wait_after_loop(op_dir: Path) -> dict[str, str]:
    """A planted misplacement: WaitPreTaskEnd moved from before the batch loop to after it, so the kernel
    reads its inputs while the previous task may still write them."""
    process = (op_dir / "op_kernel" / "quant_matmul_reduce_sum.h").read_text()
    post = "    computeOp.PostCompute();\n"
    return {"quant_matmul_reduce_sum.h": edit(edit(process, WAIT, ""), post, WAIT + post)}


def test_the_zero_fill_before_the_wait_races_with_the_previous_task(op_dir):
    module = kernel_module(op_dir, PRODUCT)
    tiling = _tiling(op_dir)
    assert tiling.itemsize == 240            # 40 B of params + 50 int32 of TCubeTiling, 8-aligned

    alone = Case(tiling)
    module.launch(KERNEL, 1, *alone.args())
    assert np.array_equal(alone.y.view(np.uint16), alone.reference().view(np.uint16))

    # Unrelated buffers: the producer rewrites only the inputs, y is the kernel's own memory: clean.
    apart = Case(tiling)
    report = _run_sk(module, apart, y_shared=False)
    assert report.races == []
    assert np.array_equal(apart.y.view(np.uint16), alone.y.view(np.uint16))

    # y reuses memory the previous task still uses: the zero-fill before the wait races with it.
    shared = Case(tiling)
    report = _run_sk(module, shared, y_shared=True)
    init = op_dir / "op_kernel" / "quant_matmul_reduce_sum_init_output.h"
    fill = line_of(init, "DataCopy(yGm_[dstOffset], tmpBuf, dataCopyParams);")    # the first of its DataCopy
    wait = line_of(op_dir / "op_kernel" / "quant_matmul_reduce_sum.h", "AscendC::WaitPreTaskEnd();")
    producer = producer_source([(n, 0) for n in ("x1", "x2", "x1Scale", "x2Scale", "y")])
    read = _source_line(producer, "AscendC::DataCopyPad(t, gm[off]")
    write = _source_line(producer, "AscendC::DataCopyPad(gm[off], t")
    assert {r.kind for r in report.races} == {"WAR", "WAW"}
    for race in report.races:
        assert (race.later.task, race.later.kernel, race.later.buffer) == (1, KERNEL, "y")
        assert (race.later.file, race.later.line, race.later.write) == (str(init), fill, True)
        assert race.window == "consumer prologue" and race.call_line == wait
        assert (race.earlier.task, race.earlier.kernel) == (0, PRODUCER)
        assert race.earlier.line == (write if race.kind == "WAW" else read)
        assert f"quant_matmul_reduce_sum_init_output.h:{fill}" in race.summary()
        assert f"move WaitPreTaskEnd (quant_matmul_reduce_sum.h:{wait}) before line {fill}" in race.fix()

    # The control: the same op with the wait before the zero-fill runs clean, with the same numbers.
    fixed = kernel_module(edited_copy(op_dir, _wait_first(op_dir)), PRODUCT)
    one = Case(tiling)
    fixed.launch(KERNEL, 1, *one.args())
    control = Case(tiling)
    report = _run_sk(fixed, control, y_shared=True)
    assert report.races == [], report.format_races()
    assert np.array_equal(control.y.view(np.uint16), one.y.view(np.uint16))
    assert np.array_equal(control.y.view(np.uint16), alone.y.view(np.uint16))



def test_a_wait_planted_after_the_loop_races_with_the_previous_task(op_dir):
    """A copy with WaitPreTaskEnd after the batch loop, y not shared: the kernel's reads of its inputs come
    before the wait and race with the producer's rewrite of them, each at its own line."""
    planted = edited_copy(op_dir, _wait_after_loop(op_dir))
    report = _run_sk(kernel_module(planted, PRODUCT), Case(_tiling(op_dir)), y_shared=False)
    wait = line_of(planted / "op_kernel" / "quant_matmul_reduce_sum.h", "AscendC::WaitPreTaskEnd();")
    write = _source_line(producer_source([(n, 0) for n in ("x1", "x2", "x1Scale", "x2Scale")]),
                         "AscendC::DataCopyPad(gm[off], t")
    assert report.races, "the planted wait was not reported"
    for race in report.races:
        assert (race.earlier.task, race.earlier.kernel, race.earlier.line) == (0, PRODUCER, write)
        assert (race.later.task, race.later.kernel, race.later.write) == (1, KERNEL, False)
        assert race.kind == "RAW" and race.window == "consumer prologue" and race.call_line == wait
    # The cube core's matmul reads x1 and x2 through the library, reported at the kernel's call into it.
    iterate = line_of(planted / "op_kernel" / "quant_matmul_reduce_sum_mixcore.h", "while (this->mm.Iterate())")
    assert {(r.later.buffer, Path(r.later.file).name, r.later.line, r.later.core) for r in report.races} == \
        {(b, "quant_matmul_reduce_sum_mixcore.h", iterate, "AIC0") for b in ("x1", "x2")}

def test_ascgen_sk_runs_the_op_folder_between_its_neighbours(op_dir, tmp_path, capsys):
    """The same from the command line: `ascgen sk OP_DIR` builds the kernel as its UT does; the tiling is
    host: data (no neighbour rewrites it), the unused optional inputs are null. y as out: is the kernel's
    own memory (clean, numpy's numbers); as inout: the producer rewrites it before its set (the race)."""
    from ascgen.cli import main
    case = Case(_tiling(op_dir))
    files = {}
    for name in ("x1", "x2", "x1_scale", "x2_scale", "tiling", "y"):
        files[name] = tmp_path / f"{name}.bin"
        getattr(case, name).tofile(files[name])
    head = ["sk", str(op_dir), "--kernel", KERNEL, "--block-dim", "1", "--product", PRODUCT, "--treat-as-effective",
            "--arg", f"in:{files['x1']}", "--arg", f"in:{files['x2']}", "--arg", "zeros:8", "--arg", "null",
            "--arg", f"in:{files['x1_scale']}", "--arg", f"in:{files['x2_scale']}", *["--arg", "null"] * 5]
    tail = ["--arg", f"zeros:{WORKSPACE}", "--arg", f"host:{files['tiling']}"]
    assert main([*head, "--arg", f"out:{tmp_path / 'out.bin'}:{case.y.nbytes}", *tail]) == 0
    assert "verdict: clean" in capsys.readouterr().out
    assert (tmp_path / "out.bin").read_bytes() == case.reference().tobytes()
    assert main([*head, "--arg", f"inout:{files['y']}", *tail]) == 1
    out = capsys.readouterr().out
    fill = line_of(op_dir / "op_kernel" / "quant_matmul_reduce_sum_init_output.h",
                    "DataCopy(yGm_[dstOffset], tmpBuf, dataCopyParams);")
    assert "SUMMARY: ascgen: WAR race y ascgen-sk-producer.cpp:" in out, out
    assert f"-> quant_matmul_reduce_sum_init_output.h:{fill} (consumer prologue)" in out and "verdict: race" in out
