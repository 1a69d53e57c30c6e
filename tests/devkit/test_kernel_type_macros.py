"""Where the library's kernel_type.h macros are visible in a CPU-debug program (preprocessor only: no build).

In the CPU-debug configuration kernel_type.h defines both DT_FLOAT, DT_INT4... and FORMAT_NCHW, FORMAT_ND...
as macros. An operator kernel sees them from the point it includes kernel_operator.h (test_dt_macros.py);
a UT's host code, which includes tikicpulib.h and then GE's headers (an op_host tiling header ->
metadef's graph/types.h: `enum Format { FORMAT_NCHW = ::C_FORMAT_NCHW, ...}`) or names `ge::FORMAT_ND`,
must not: the devkit tikicpulib.h ends them. It ended only the DT_* half, so every such UT failed to compile
(ops-math reflection_pad3d_grad: "kernel_type.h:67: expected identifier before numeric constant")."""
from __future__ import annotations

import re
from pathlib import Path

from tests import devkit_tree
from tests.devkit import unit_flags


def _cpu_debug_macros(tree: Path) -> set[str]:
    """The DT_* / FORMAT_* names kernel_type.h defines in its CPU-debug branch (the block before its #else)."""
    text = devkit_tree.read(tree, "include/basic_api/kernel_type.h")
    block = text.split("#else  // defined(__NPU_HOST__)")[0]
    return set(re.findall(r"^#define ((?:DT|FORMAT)_\w+)\b", block, re.M))


def _macros_after(tmp_path: Path, header: str) -> set[str]:
    """Every macro defined after `#include <header>` in a CPU-debug devkit unit (g++ -E -dM)."""
    source = tmp_path / "probe.cpp"
    source.write_text(f'#include "{header}"\n')
    proc = unit_flags.compile_unit(source, "ascend910b", "-E", "-dM", __CCE_KT_TEST__=1)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return set(re.findall(r"^#define (\w+)", proc.stdout, re.M))


def test_tikicpulib_ends_every_kernel_type_macro_that_kernel_operator_brings(tmp_path):
    tree = devkit_tree.require()
    names = _cpu_debug_macros(tree)
    assert {"DT_FLOAT", "DT_INT4", "FORMAT_NCHW", "FORMAT_ND", "FORMAT_MAX"} <= names
    # the kernel's view: all of them, from kernel_operator.h on
    assert names <= _macros_after(tmp_path, "kernel_operator.h")
    # the UT host code's view after tikicpulib.h: none of them
    assert sorted(names & _macros_after(tmp_path, "tikicpulib.h")) == []
