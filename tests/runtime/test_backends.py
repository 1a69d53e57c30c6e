"""The backend registry (ascgen/runtime/backends): one table of names that load(), Module and the commands
read, so a third backend is one module plus one registry line."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ascgen.cli import build_parser
from ascgen.errors import SpecError
from ascgen.runtime import backends
from ascgen.runtime.backends.builtin import BuiltinBackend
from ascgen.runtime.loader import load

MARK = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void mark(GM_ADDR out) {
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 1);
    o.SetValue(0, TOY_MARK);
}
"""


class ToyBackend(BuiltinBackend):
    """The builtin library with one macro of its own: enough to see that its build options are used."""
    name = "toy"
    summary = "a test backend"

    def build_options(self, module, extra_sources):
        options = super().build_options(module, extra_sources)
        return replace(options, defines={**options.defines, "TOY_MARK": 7}, name=options.name + "-toy")


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(backends.REGISTRY, "toy", ToyBackend)


def test_the_registry_names_both_backends_and_refuses_others():
    assert backends.names() == ("builtin", "devkit")
    with pytest.raises(SpecError, match="backend 'cce' is not one of builtin, devkit"):
        backends.create("cce")


def test_a_registered_backend_is_listed_by_the_commands_and_builds_modules(toy):
    assert "toy" in backends.names()
    for command in ("run", "test"):
        args = build_parser(command).parse_args([command, "k.cpp", "--backend", "toy"] if command == "run"
                                                else [command, "k.py", "--backend", "toy"])
        assert args.backend == "toy"
    mod = load(MARK, "ascend910b", backend="toy", filename="mark.cpp")
    assert mod.backend.name == "toy"
    out = np.zeros(1, np.int32)
    mod.launch("mark", 1, out)
    assert out[0] == 7
