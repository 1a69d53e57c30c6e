"""Hints where the user is (issue 21 point 4): a source including advanced-API or tiling headers fails on
the builtin backend with the compiler's message plus where to go (--backend devkit, the tree, the docs)."""
import pytest

from ascgen.errors import CompileError
from ascgen.runtime import load

KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'


@pytest.mark.parametrize("header", ["lib/activation/softmax.h", "kernel_tiling/kernel_tiling.h"])
def test_advanced_api_header_on_builtin_says_use_devkit(header):
    text = f'#include "kernel_operator.h"\n#include "{header}"\n{KERNEL}'
    with pytest.raises(CompileError) as info:
        load(text, "ascend910_93", filename="soft.cpp")
    message = str(info.value)
    assert "No such file" in message                                      # the compiler's own words stay
    assert f"soft.cpp:2 includes {header}" in message and "--backend devkit" in message
    assert "ASCGEN_ASC_DEVKIT" in message and "docs/devkit.md" in message


def test_other_missing_header_gets_no_devkit_hint():
    with pytest.raises(CompileError) as info:
        load(f'#include "kernel_operator.h"\n#include "my_helpers.h"\n{KERNEL}', "ascend910_93", filename="k.cpp")
    assert "my_helpers.h" in str(info.value) and "--backend devkit" not in str(info.value)
