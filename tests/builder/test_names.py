"""Names the emitted C++ cannot take are refused by name at Kernel(), input(), output(), scalar() and dim()
(issue 25 point 5): C++ keywords, alternative tokens, libc / Ascend C globals, and over-long kernel names."""
from __future__ import annotations

import pytest

from ascgen.builder import Kernel, Relu
from ascgen.errors import SpecError


def _declare(where: str, name: str):
    if where == "kernel":
        return Kernel(name)
    k = Kernel("k")
    if where == "input":
        return k.input(name, "float16")
    if where == "output":
        return k.output(name, Relu(k.input("x", "float16")))
    if where == "scalar":
        return k.scalar(name)
    return k.dim(name)


@pytest.mark.parametrize("where", ["kernel", "input", "output", "scalar", "dim"])
@pytest.mark.parametrize("name, why", [
    ("asm", "C\\+\\+ keyword"), ("alignas", "C\\+\\+ keyword"), ("constexpr", "C\\+\\+ keyword"),
    ("char8_t", "C\\+\\+ keyword"), ("xor", "alternative operator token"), ("and_eq", "alternative operator token"),
    ("main", "library or Ascend C global"), ("printf", "library or Ascend C global"),
    ("uint32_t", "library or Ascend C global"), ("block_idx", "library or Ascend C global"),
    ("exp", "library or Ascend C global"), ("_Bad", "reserved for the compiler"),
])
def test_reserved_name_is_refused_with_the_reason(where, name, why):
    with pytest.raises(SpecError, match=f"{where} name '{name}' at test_names\\.py:\\d+ is reserved: .*{why}"):
        _declare(where, name)


def test_ordinary_names_pass():
    k = Kernel("exp_kernel")
    k.output("xor_out", Relu(k.input("main_in", "float16")))
    assert [p.name for p in k.params] == ["main_in", "xor_out"]


def test_long_kernel_name_is_refused_at_kernel_with_the_limit():
    Kernel("k" * 128)
    with pytest.raises(SpecError, match=r"kernel name 'k+'\.\.\. at test_names\.py:\d+ has 300 characters; "
                                        r"at most 128 .*pick a shorter name"):
        Kernel("k" * 300)
