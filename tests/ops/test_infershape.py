"""InferShape from op_host, unchanged (ascgen/ops/infer_shape.py): the ops' own IMPL_OP_INFERSHAPE functions,
built into a sibling of the tiling runner, give the output shapes (and types, with InferDataType or from the
definition), so `op(*arrays)` needs no outputs=. The expected shapes are what the ops' documentation and numpy
say (broadcasting for add, a reduced last axis for add_rms_norm's rstd)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from ascgen import ops
from ascgen.errors import KernelCrashError, OpTilingError, SpecError
from tests.ops.test_host_tiling import _cann, _fake_op


def test_is_inf_keeps_the_shape_and_its_definition_gives_bool():
    op = ops.load(_cann() / "ops-math/math/is_inf", product="ascend910b")
    (y,) = op.infer(((3, 5, 1001), "float16"))
    assert (y.shape, y.dtype) == ((3, 5, 1001), "DT_BOOL")


def test_add_rms_norm_rstd_reduces_the_normalized_axis():
    op = ops.load(_cann() / "ops-nn/norm/add_rms_norm", product="ascend910b")
    x = ((4, 3, 64), "bfloat16")
    y, rstd, xsum = op.infer(x, x, ((64,), "bfloat16"), epsilon=1e-6)
    assert [(t.shape, t.dtype) for t in (y, rstd, xsum)] == [
        ((4, 3, 64), "DT_BF16"), ((4, 3, 1), "DT_FLOAT"), ((4, 3, 64), "DT_BF16")]


def test_add_broadcasts_as_numpy_does():
    op = ops.load(_cann() / "ops-math/math/add", product="ascend950")
    (y,) = op.infer(((8, 1, 5), "float32"), ((4, 1), "float32"))
    assert y.shape == np.broadcast_shapes((8, 1, 5), (4, 1)) == (8, 4, 5)


def test_an_infershape_that_fails_shows_the_ops_own_message():
    op = ops.load(_cann() / "ops-math/math/add", product="ascend950")
    with pytest.raises(OpTilingError, match=r"Add: the op's InferShape function returned \d+; the op says"):
        op.infer(((3, 4), "float32"), ((5, 4), "float32"))


def test_a_given_shape_that_disagrees_names_the_output():
    op = ops.load(_cann() / "ops-math/math/is_inf", product="ascend910b")
    x = np.zeros((37, 129), np.float16)
    with pytest.raises(SpecError, match=r"IsInf output 0 \(y\): the given shape \(37, 128\) is not the one the "
                                        r"op's InferShape gives for these inputs, \(37, 129\)"):
        op(x, outputs=[((37, 128), "bool")])


def test_an_op_without_infershape_says_to_pass_outputs(tmp_path):
    op = ops.load(_fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;"), product="ascend910b")
    with pytest.raises(OpTilingError, match=r"fake_op has no InferShape .* pass outputs="):
        op(np.zeros(8, np.float32))


def _infershape(op_dir, body: str, prelude: str = ""):
    (op_dir / "op_host" / "fake_op_infershape.cpp").write_text(textwrap.dedent("""\
        #include "register/op_impl_registry.h"
        #include "exe_graph/runtime/infer_shape_context.h"
        """) + prelude + "namespace ops {\nstatic ge::graphStatus FakeInfer(gert::InferShapeContext* context) {\n"
        + textwrap.indent(textwrap.dedent(body), "    ") + "}\nIMPL_OP_INFERSHAPE(FakeOp).InferShape(FakeInfer);\n}\n")
    return ops.load(op_dir, product="ascend910b")


def test_a_fake_infershape_runs_with_the_attributes_in_order(tmp_path):
    op_dir = _fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;",
                      attrs='this->Attr("rows").AttrType(REQUIRED).Int();')
    op = _infershape(op_dir, """\
        const int64_t rows = *context->GetAttrs()->GetInt(0);
        auto* out = context->GetOutputShape(0);
        out->SetDimNum(0);
        out->AppendDim(rows);
        out->AppendDim(context->GetInputShape(0)->GetDim(0));
        return ge::GRAPH_SUCCESS;
        """)
    (y,) = op.infer(((8,), "float32"), rows=3)
    assert (y.shape, y.dtype) == ((3, 8), "DT_FLOAT")


def test_an_infershape_needing_a_closed_header_is_refused_by_name(tmp_path):
    op = _infershape(_fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;"), "return ge::GRAPH_SUCCESS;",
                     prelude='#include "platform/platform_info_def.h"\n')
    with pytest.raises(OpTilingError, match=r"op fake_op needs platform/platform_info_def.h .*public CANN sources lack"):
        op.infer(((8,), "float32"))


def test_the_op_runs_without_outputs():
    op = ops.load(_cann() / "ops-math/math/is_inf", product="ascend910b")
    x = np.where(np.random.default_rng(3).random((5, 33)) < 0.3, np.inf, 1.0).astype(np.float16)
    y = op(x)
    assert y.dtype == np.bool_ and y.shape == (5, 33) and (y == np.isinf(x)).all()


def test_a_crashing_infershape_is_an_error_and_the_interpreter_lives(tmp_path):
    op = _infershape(_fake_op(tmp_path / "repo", "return ge::GRAPH_SUCCESS;"),
                     "volatile int* p = nullptr;\n*p = 1;\nreturn ge::GRAPH_SUCCESS;\n")
    with pytest.raises(KernelCrashError, match=r"the InferShape function of FakeOp: .*SIGSEGV"):
        op.infer(((8,), "float32"))
