"""The decoder block's MLP half as one builder SuperKernel (examples/decoder/decoder_block.py, issue 23
point 4): six tasks (add+RMSnorm, dynamic quant, two int8 projections, SwiGLU, a half projection) run
clean with early start, every buffer equal to the kernels' chained reference; and its modeled time. One
test, so the six kernels are built once (xdist would spread several tests over workers)."""
from __future__ import annotations

import importlib.util

import numpy as np

from tests.paths import EXAMPLES


def _example():
    spec = importlib.util.spec_from_file_location("decoder_block", EXAMPLES / "decoder" / "decoder_block.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_decoder_block_is_clean_equals_the_chained_kernels_and_its_barrier_estimate_is_a_lower_bound(tmp_path):
    example = _example()
    inputs = example.block_inputs(rows=13)            # ragged over 8 vector cores and 32-row Matmul tiles
    expect = example.block.reference(inputs)
    outputs, early = example.block.run(inputs, source_dir=tmp_path / "early")       # placement="dataflow"
    assert early.clean, early.format_races()
    assert early.tasks == ["block_norm", "block_quant", "gate_proj", "up_proj", "block_swiglu", "down_proj"]
    for name in ("h", "scales", "values", "gate", "up", "act", "out"):
        np.testing.assert_array_equal(outputs[name], expect[name], err_msg=name)
    assert np.abs(outputs["out"].astype(np.float32)).max() > 0        # the chain computed something

    # Report.timeline()'s "without early start" is this run's busy times plus one flag round per boundary.
    # With AIC and AIV cores a full barrier is the MIX SyncAll handshake (three rounds to the AIV cores, which
    # also shifts the MIX tasks' inner waits), so the one-run estimate undercounts it: it read 0.84x, as if
    # early start were slower, while the early-start=0 run is the slower one. The summary must say so.
    _, barrier = example.block.run(inputs, options="early-start=0", source_dir=tmp_path / "barrier")
    estimate, simulated = early.timeline(), barrier.timeline()
    assert simulated.with_early_start > estimate.with_early_start         # early start saves time here
    assert estimate.without_early_start < simulated.with_early_start      # the estimate is a lower bound
    assert estimate.mixed and "run it with early-start=0 for the barrier time" in str(estimate)
