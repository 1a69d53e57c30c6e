"""An op output against its golden: max abs / rel error and the mismatch count under a tolerance per dtype.

The tolerances are the repositories' own kernel-UT compare scripts' (tests/ut/op_kernel/*_data/compare_data.py):
an element matches when |out - golden| <= tol + tol * |golden| (numpy.isclose with rtol = atol = tol, NaN
equal to NaN), with ops-nn ge_glu_grad_v2's values, the strictest the scripts use per type: 1e-4 for
float32, 1e-3 for float16, 4e-3 for bfloat16 (1e-2 for float16 in several ops-math scripts is looser still).
Integer and bool outputs must be equal, as they must in every script; so must any output type the golden
declares "binary_equal" for (its `_TOL` / `_TOLERANCE` table or its spec class's `tolerance`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOLERANCES = {"float32": 1e-4, "float16": 1e-3, "bfloat16": 4e-3, "float64": 1e-4}
EXACT = "binary_equal"


@dataclass(frozen=True)
class Comparison:
    size: int
    mismatches: int
    max_abs: float
    max_rel: float
    tolerance: float            # 0.0: exact
    note: str = ""              # why nothing could be compared (shape), else ""

    @property
    def ok(self) -> bool:
        return self.mismatches == 0 and not self.note


def tolerance_of(dtype: np.dtype, standards: dict[str, str] | None = None) -> float:
    """The tolerance for an output of `dtype` (module docstring); 0.0 means exact."""
    name = np.dtype(dtype).name
    if (standards or {}).get(name) == EXACT:
        return 0.0
    return TOLERANCES.get(name, 0.0)


def compare(actual: np.ndarray, golden: np.ndarray, standards: dict[str, str] | None = None) -> Comparison:
    """`actual` (the op's output) against `golden`, with the tolerance of the op output's dtype."""
    tol = tolerance_of(actual.dtype, standards)
    if actual.shape != golden.shape:
        if actual.size != golden.size:
            return Comparison(actual.size, actual.size, float("inf"), float("inf"), tol,
                              f"shape {actual.shape}, the golden's {golden.shape}")
        golden = golden.reshape(actual.shape)     # the same elements, shaped otherwise (a squeezed dimension)
    a, g = _wide(actual), _wide(golden)
    both_nan = np.isnan(a) & np.isnan(g)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(both_nan | (a == g), 0.0, np.abs(a - g))   # a == g: equal infinities differ by 0
        rel = diff / np.maximum(np.abs(g), np.finfo(np.float64).tiny)
        bad = diff > tol + tol * np.abs(g) if tol else diff != 0
    bad = bad | np.isnan(diff)              # NaN on one side only
    finite = np.isfinite(diff)
    return Comparison(int(a.size), int(np.count_nonzero(bad)), _max(np.where(finite, diff, np.inf)),
                      _max(np.where(finite, rel, np.inf)), tol)


def _wide(array: np.ndarray) -> np.ndarray:
    if array.dtype == np.bool_ or np.issubdtype(array.dtype, np.integer):
        return array.astype(np.float64)     # exact for every integer an op output holds below 2**53
    return np.asarray(array, dtype=np.float64)


def _max(values: np.ndarray) -> float:
    return float(values.max()) if values.size else 0.0
