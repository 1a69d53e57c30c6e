"""The tiling key -> template-instance decoding of ASCENDC_TPL kernels (ascgen/ops/tpl.py), against the
library's encoding (asc-devkit impl/utils/tiling/template_argument.cpp: fields from bit 0 in declaration
order; a UINT field holds the index of its value)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascgen.errors import OpTilingError
from ascgen.ops import tpl

ARGS = [tpl.Argument("mode", "UINT", 2, tpl._uint_values([tpl.UI_LIST, 0, 3, 7], "t")),
        tpl.Argument("flag", "BOOL", 1, (0, 1)),
        tpl.Argument("dt", "DTYPE", 8, (0, 1, 27))]


def encode(mode_index: int, flag: int, dt: int) -> int:
    return mode_index | flag << 2 | dt << 3


def test_decode_is_the_inverse_of_the_library_packing():
    values = tpl.decode(encode(2, 1, 27), ARGS, "t")
    assert [(a.name, v) for a, v in values] == [("mode", 7), ("flag", 1), ("dt", 27)]
    assert tpl.instance_name("k", values) == "k<7, true, 27>"


def test_uint_ranges_and_mixes_expand_as_parse_tpl_uint_value_does():
    assert tpl._uint_values([tpl.UI_RANGE, 2, 0, 2, 10, 11], "t") == (0, 1, 2, 10, 11)
    assert tpl._uint_values([tpl.UI_MIX, 1, 4, 5, 9], "t") == (4, 5, 9)


def test_a_key_naming_no_declared_value_is_refused():
    with pytest.raises(OpTilingError, match="index 3 for mode"):
        tpl.decode(encode(3, 0, 0), ARGS, "t")
    with pytest.raises(OpTilingError, match="bits above the 11"):
        tpl.decode(1 << 11, ARGS, "t")


def test_values_must_fold_to_integers():
    assert tpl.integer("(uint32_t)3U + 1", "t") == 4
    with pytest.raises(OpTilingError, match="not an integer constant"):
        tpl.integer("SCH_MODE_CONSTEXPR", "t")


def test_a_datatype_declaration_may_name_metadef_s_c_data_types():
    # ops-nn mse_loss_v2 and ops-math bessel_i1e (arch35 *_tiling_key.h) declare ASCENDC_TPL_DATATYPE_DECL(D_T_X,
    # C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, ...): the enumerators of metadef's graph/c_types.h, not macros, so the
    # preprocessor leaves them as names and the values come from the enum.
    if tpl.c_types_header() is None:
        pytest.skip("needs metadef (ASCGEN_CANN_SOURCES) for graph/c_types.h")
    text = "@@ASCENDC_TPL_DATATYPE_DECL_D_T_X@@ = {C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16}"
    assert tpl._arguments(text, Path("tiling_key.h"))[0].values == (0, 1, 27)


def test_a_datatype_argument_instantiates_its_c_type():
    # ops-math bessel_i1e (ascend950): `template <typename D_T_X> __global__ void bessel_i1e(...)`, declared
    # ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT): key 0 is bessel_i1e<float>, not bessel_i1e<0>.
    if tpl.c_types_header() is None:
        pytest.skip("needs metadef (ASCGEN_CANN_SOURCES) for graph/c_types.h")
    dt = tpl.Argument("D_T_X", "DATATYPE", 8, (0, 1, 27))
    mode = tpl.Argument("BUFFER_MODE", "UINT", 8, (0, 1))
    assert tpl.instance_name("k", [(dt, 27), (mode, 1)]) == "k<bfloat16_t, 1>"
    assert tpl.instance_name("k", [(dt, 0)]) == "k<float>"
