"""What an operator's host side says about its kernel, read from the op folder around the kernel source.

Operator repositories lay an operator out as one folder holding `op_host/` (the tiling: block dim and
tiling key, `*.cpp` at any depth) beside `op_kernel/` (the kernel entries). The op folder of a kernel is
its nearest ancestor, up to MAX_DEPTH levels, that has an `op_host` folder; a source outside such a
layout has none and the rules that need the host side skip it. The host files are read as text
(comments and `#if 0` blocks are not told apart from code: they are compiled for several SoCs anyway);
only integer constants they or the kernel define are folded.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ascgen.check import consteval, instances

MAX_DEPTH = 4
MAX_HOST_BYTES = 4 << 20       # host text read per op, beyond which the rest is ignored

_SET_KEY = re.compile(r"\bSetTilingKey\s*\(")
_TPL_KEY = re.compile(r"\bGET_TPL_TILING_KEY\s*\(")
_BLOCK_DIM = re.compile(r"\bSetBlockDim\s*\(")
_CONSTANT = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+(\w+)\s*=\s*([^;,{}]+);")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]+)$", re.MULTILINE)
_ASSIGNED = re.compile(r"\b(\w+)\s*(?<![=!<>])=(?!=)")
_ASSIGNMENT = re.compile(r"\b(\w+)\s*(?<![=!<>+\-*/])=(?!=)\s*([^;]*);")
FULL_CORE_COUNT = "GetCoreNum"         # the platform's core counts: GetCoreNum, GetCoreNumAiv, GetCoreNumAic
_TILING_KEY_IS = re.compile(r"\bTILING_KEY_IS\s*\(\s*([^)]+?)\s*\)")


@dataclass(frozen=True)
class HostCall:
    file: str
    line: int
    col: int
    args: tuple              # the call's top-level arguments, as text


@dataclass
class OpFolder:
    root: str
    tiling_keys: list = field(default_factory=list)     # HostCall of SetTilingKey(...)
    tpl_keys: list = field(default_factory=list)        # HostCall of GET_TPL_TILING_KEY(...)
    block_dims: list = field(default_factory=list)      # HostCall of SetBlockDim(...)
    constants: dict = field(default_factory=dict)       # integer constants the host files define
    other_kernel_keys: set = field(default_factory=set)  # TILING_KEY_IS keys of the op's other kernel files
    assigned: set = field(default_factory=set)           # names the host files assign: run-time values
    full_counts: set = field(default_factory=set)        # names every host assignment gives GetCoreNum*()

    def fold(self, text: str, index) -> int | None:
        """An argument as an integer: a literal or a constant of the host files or the kernel. A name the
        host assigns is a host variable, whatever a kernel constant of that name says."""
        name = text.strip().split("::")[-1]
        if name in self.assigned:
            return None
        value = self.constants.get(name)
        if value is None:
            value = instances.fold(text, index)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def find(kernel_file: str) -> OpFolder | None:
    """The op folder of a kernel source and what its host side says, or None outside that layout."""
    here = Path(os.path.realpath(kernel_file)).parent
    for _ in range(MAX_DEPTH):
        if (here / "op_host").is_dir():
            return _read(here, Path(os.path.realpath(kernel_file)))
        if here.parent == here:
            return None
        here = here.parent
    return None


def _read(root: Path, kernel: Path) -> OpFolder:
    op = OpFolder(str(root))
    budget = MAX_HOST_BYTES
    values: dict = {}
    for path in sorted((root / "op_host").rglob("*")):
        if path.suffix not in (".cpp", ".cc", ".h", ".hpp") or not path.is_file() or budget <= 0:
            continue
        data = path.read_bytes()[:budget]
        budget -= len(data)
        text = instances.text_of(data)
        op.constants.update(_constants(text))
        op.assigned |= {m.group(1) for m in _ASSIGNED.finditer(text)}
        for m in _ASSIGNMENT.finditer(text):
            values.setdefault(m.group(1), []).append(m.group(2))
        for pattern, found in ((_SET_KEY, op.tiling_keys), (_TPL_KEY, op.tpl_keys), (_BLOCK_DIM, op.block_dims)):
            for m in pattern.finditer(text):
                args = instances.macro_args(text, m.end() - 1)
                if args is not None:
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(HostCall(str(path), line, m.start() - text.rfind("\n", 0, m.start()), tuple(args)))
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cpp", ".asc") or path == kernel or "op_host" in path.relative_to(root).parts \
                or not path.is_file():
            continue
        data = path.read_bytes()
        if b"__global__" in data and b"TILING_KEY_IS" in data:
            for m in _TILING_KEY_IS.finditer(instances.text_of(data)):
                value = consteval.literal(m.group(1).rstrip("uUlL"))
                if isinstance(value, int):
                    op.other_kernel_keys.add(value)
    op.assigned -= set(op.constants)
    op.full_counts = {name for name, rhs in values.items() if all(FULL_CORE_COUNT in v for v in rhs)}
    return op


def _constants(text: str) -> dict:
    out = {}
    for m in (*_CONSTANT.finditer(text), *_DEFINE.finditer(text)):
        value = consteval.literal(m.group(2).strip().rstrip("uUlL"))
        if isinstance(value, int) and not isinstance(value, bool):
            out[m.group(1)] = value
    return out
