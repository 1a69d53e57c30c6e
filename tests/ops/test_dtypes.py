"""ascgen.ops.dtypes: DT_HIFLOAT8 arrays are en_dtypes' numpy hifloat8 (the type the CANN goldens use); without
en_dtypes the error names the package to install."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from ascgen.errors import SpecError
from ascgen.ops import dtypes


def test_hifloat8_arrays_are_en_dtypes_type():
    en_dtypes = pytest.importorskip("en_dtypes", reason="en-dtypes (the `test` extra) gives numpy hifloat8")
    assert dtypes.numpy_of("DT_HIFLOAT8", "y") == np.dtype(en_dtypes.hifloat8)
    assert dtypes.enum_of(np.dtype(en_dtypes.hifloat8), "y") == "DT_HIFLOAT8"
    assert dtypes.enum_of("hifloat8", "y") == "DT_HIFLOAT8"


def test_hifloat8_without_en_dtypes_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "en_dtypes", None)          # import en_dtypes now fails
    with pytest.raises(SpecError, match=r"output 0 \(y\): DT_HIFLOAT8 .*pip install en-dtypes"):
        dtypes.numpy_of("DT_HIFLOAT8", "output 0 (y)")
