"""A representative subset of the operator repositories' own kernel UTs, run unchanged by `ascgen ut` on the
devkit backend (issue 19): both repositories, both products, cases that compare against golden data and cases
that only run, data scripts that need nothing but numpy (and ml_dtypes, an ascgen dependency). Each folder's
verdicts are the ones the whole-repository sweep gave (docs/ut.md "Sweep"); two of them exercise fixes of
2026-12-06 (a copy tree that climbs into the repository, the generated tiling header's classes). The sweep over
every folder is `benchmarks/bench_ut.py`.

Needs ASCGEN_CANN_SOURCES (ops-nn, ops-math and their sibling trees), ASCGEN_ASC_DEVKIT and googletest, all of
which `.ci/run` provides."""
from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import devkit_tree

REPO = Path(__file__).resolve().parents[2]

# op folder (relative to ASCGEN_CANN_SOURCES) -> {(product, status): cases}
EXPECTED = {
    "ops-math/experimental/math/arange": {("ascend910b", "passed-ran"): 10},
    "ops-math/conversion/concat": {("ascend950", "passed-ran"): 1},            # keyed classes not generated
    "ops-nn/experimental/index/index_fill": {("ascend910b", "passed-ran"): 5},
    "ops-nn/activation/relu6_d": {("ascend950", "passed-ran"): 5},
    "ops-nn/experimental/optim/apply_adam_w": {("ascend910b", "passed-compared"): 1},
    "ops-nn/experimental/loss/nll_loss_grad": {("ascend910b", "passed-compared"): 1},
    "ops-nn/experimental/norm/fused_add_rms_norm": {("ascend910b", "passed-ran"): 8},   # climbs out of build/
}


def _sources() -> Path:
    value = os.environ.get("ASCGEN_CANN_SOURCES")
    if not value or not all((Path(value) / name).is_dir() for name in ("ops-nn", "ops-math", "opbase", "metadef")):
        pytest.skip("set ASCGEN_CANN_SOURCES to a folder holding ops-nn, ops-math, opbase and metadef side by side")
    return Path(value)


@pytest.mark.parametrize("folder", sorted(EXPECTED))
def test_a_real_operator_ut_runs_unchanged_with_the_sweeps_verdicts(folder):
    devkit_tree.require()
    op_dir = _sources() / folder
    proc = subprocess.run([sys.executable, "-m", "ascgen", "ut", str(op_dir), "--format", "json", "--jobs", "1"],
                          cwd=REPO, capture_output=True, text=True, timeout=1200)
    cases = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    got = collections.Counter((c["product"], c["status"]) for c in cases)
    detail = "\n".join(f"{c['test']}: {c['status']} {c['reason'][:300]}" for c in cases) + proc.stderr[-2000:]
    assert dict(got) == EXPECTED[folder], detail
    assert proc.returncode == 0, detail
    assert all(c["seconds"] > 0 for c in cases), detail          # each case ran its program
