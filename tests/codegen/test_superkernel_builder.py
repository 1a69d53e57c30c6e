"""Builder-level SuperKernels: data-flow placement of the task-sync calls.

Placement tests are named after the hazard, each with its "nothing to do" twin; the runtime checks that
data-flow placement gives the same results as the default placement, no race, and a larger modeled gain."""
import numpy as np
import pytest

from ascgen.builder import Kernel, Relu
from ascgen.errors import SpecError
from ascgen.codegen.superkernel import SuperKernel

PRODUCT = "ascend910_93"


def _chain():
    """scale (x -> y), bump (u -> v, independent of scale), join (y, v -> z), relu (z -> out)."""
    scale = Kernel("sk_scale", block_dim=8, tile_length=1024)
    scale.output("y", scale.input("x", "float32") * 2.0)
    bump = Kernel("sk_bump", block_dim=8, tile_length=1024)
    bump.output("v", bump.input("u", "float32") + 1.0)
    join = Kernel("sk_join", block_dim=8, tile_length=1024)
    join.output("z", join.input("y", "float32") + join.input("v", "float32"))
    relu = Kernel("sk_relu", block_dim=4, tile_length=1024)
    relu.output("out", Relu(relu.input("z", "float32")))
    return SuperKernel("chain", PRODUCT).add(scale).add(bump).add(join).add(relu)


def test_read_of_a_buffer_a_predecessor_writes_is_not_prefetched():
    pols = _chain().policies()
    assert pols[2].prefetch_inputs == frozenset()          # join reads y and v, both written by tasks 0 and 1
    assert pols[3].prefetch_inputs == frozenset()


def test_host_input_is_prefetched():
    pols = _chain().policies()
    assert pols[1].prefetch_inputs == frozenset({"u"})      # u comes from the host
    assert pols[0].prefetch_inputs == frozenset()           # the first task has nothing to overlap


def test_set_stays_after_the_loop_when_the_successor_shares_a_buffer():
    pols = _chain().policies()
    assert [p.set_early for p in pols] == [True, False, False, False]   # only scale -> bump share nothing


def test_default_placement_has_nothing_to_move():
    pols = _chain().policies("default")
    assert all(p.prefetch_inputs == frozenset() and not p.set_early for p in pols)


def test_dtype_mismatch_on_a_shared_buffer_is_an_error():
    a = Kernel("a16", block_dim=2, tile_length=256)
    a.output("y", a.input("x", "float16") * 2.0)
    b = Kernel("b32", block_dim=2, tile_length=256)
    b.output("z", b.input("y", "float32") + 1.0)
    with pytest.raises(SpecError, match="buffer 'y' is float16"):
        SuperKernel("bad", PRODUCT).add(a).add(b)


def test_unknown_binding_is_an_error():
    a = Kernel("a_only", block_dim=2, tile_length=256)
    a.output("y", a.input("x", "float32") * 2.0)
    with pytest.raises(SpecError, match="no GM parameter 'q'"):
        SuperKernel("bad", PRODUCT).add(a, q="x")


def test_emit_writes_every_task_and_the_torchair_snippet(tmp_path):
    sk = _chain()
    paths = sk.emit(tmp_path)
    assert sorted(p.name for p in paths) == ["sk_bump.cpp", "sk_join.cpp", "sk_relu.cpp", "sk_scale.cpp",
                                              "superkernel.py"]
    bump = (tmp_path / "sk_bump.cpp").read_text()
    assert bump.index("CopyInU(0)") < bump.index("AscendC::WaitPreTaskEnd();")   # prefetched u
    scale = (tmp_path / "sk_scale.cpp").read_text()
    assert scale.index("AscendC::SetNextTaskStart") < scale.index("for (uint32_t i = 0")  # early set
    snippet = (tmp_path / "superkernel.py").read_text()
    assert "with torchair.scope.super_kernel('chain', SK_OPTIONS):" in snippet
    assert "SK_OPTIONS = 'early-start=1'" in snippet
    compile(snippet, "superkernel.py", "exec")


def test_dataflow_placement_same_results_and_larger_modeled_gain(tmp_path):
    sk = _chain()
    n = 8 * 4096
    rng = np.random.default_rng(1)
    inputs = {"x": rng.standard_normal(n).astype(np.float32), "u": rng.standard_normal(n).astype(np.float32)}
    expect = sk.reference(inputs)["out"]
    runs = {}
    for placement in ("default", "dataflow"):
        arrays, report = sk.run(inputs, placement=placement, source_dir=tmp_path / placement)
        assert report.races == [], report.format_races()
        np.testing.assert_array_equal(arrays["out"], expect)
        runs[placement] = report.timeline()
    default, dataflow = runs["default"], runs["dataflow"]
    assert dataflow.with_early_start < default.with_early_start
    assert dataflow.gain > default.gain


def test_run_input_errors_name_the_buffers():
    sk = _chain()
    x = np.zeros(64, np.float32)
    with pytest.raises(SpecError, match=r"no array for input buffer\(s\) u"):
        sk.run({"x": x})
    with pytest.raises(SpecError, match="no task uses buffer 'nope'"):
        sk.run({"x": x, "u": x, "nope": x})
    with pytest.raises(SpecError, match=r"differ in length \(\[32, 64\]\)"):
        sk.run({"x": x, "u": x[:32]})
    with pytest.raises(SpecError, match="has no task"):
        SuperKernel("empty", PRODUCT).run({})


def test_kernel_added_twice_is_an_error():
    a = Kernel("twice", block_dim=2, tile_length=256)
    a.output("y", a.input("x", "float32") * 2.0)
    with pytest.raises(SpecError, match="added twice"):
        SuperKernel("bad", PRODUCT).add(a).add(a, x="y", y="z")


def test_unknown_placement_is_an_error():
    with pytest.raises(SpecError, match="placement must be one of dataflow, default"):
        SuperKernel("bad", PRODUCT, placement="magic")


def test_scalar_parameters_bind_by_name():
    k = Kernel("sk_axpy", block_dim=4, tile_length=256)
    k.output("y", k.input("x", "float32") * k.scalar("alpha", "float32"))
    r = Kernel("sk_relu2", block_dim=2, tile_length=256)
    r.output("out", Relu(r.input("y", "float32")))
    sk = SuperKernel("scalars", PRODUCT).add(k, scalars={"alpha": -3.0}).add(r)
    x = np.linspace(-1, 1, 4 * 1024, dtype=np.float32)
    arrays, report = sk.run({"x": x})
    assert report.races == []
    np.testing.assert_array_equal(arrays["out"], np.maximum(x * np.float32(-3.0), 0))
    assert "torch.ops.ascgen.sk_axpy(x, alpha=-3.0)" in sk.snippet()
