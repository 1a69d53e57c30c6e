"""Template-argument kernels (`ASCENDC_TPL_*`): the kernel instance a tiling key selects.

An op whose kernel is a template (`template <uint32_t schMode> __global__ __aicore__ void add_example(...)`)
declares its template arguments in a tiling-key header (`ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(
schMode, 1, ASCENDC_TPL_UI_LIST, 0, 1))`); its host tiling packs the chosen values into the tiling key with
`GET_TPL_TILING_KEY(...)`, and the op compiler builds one binary per selected instance. The packing is the
library's (asc-devkit `impl/utils/tiling/template_argument.cpp`, EncodeTilingKey / EncodeParam): the
declared arguments in order, each in a field of its bit width from bit 0 up (UINT: the width the
declaration gives, BOOL 1, DTYPE / FORMAT / KERNEL_TYPE 8); a UINT's field holds the index of the value in
its declared value list (ranges and mixes expanded, ParseTplUintValue), the other kinds the value itself.

The declaration is read the way the op compiler reads it: the header preprocessed with `-DASCENDC_TPL_PRE`,
the library's mode that writes every DECL as `@@ASCENDC_TPL_<KIND>_DECL_<name>@@ = {values}` with macros
expanded. A value that is not an integer expression after that (a constexpr variable) is refused by name.
"""
from __future__ import annotations

import ast
import functools
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ascgen import config
from ascgen.errors import OpTilingError
from ascgen.ops import dtypes

UI_RANGE, UI_LIST, UI_MIX = 0, 1, 2         # template_argument.h's ASCENDC_TPL_UI_* encodings
WIDTHS = {"BOOL": 1, "DTYPE": 8, "DATATYPE": 8, "FORMAT": 8, "SHARED_KERNEL_TYPE": 8}
_DECL = re.compile(r"@@ASCENDC_TPL_(\w+?)_DECL_(\w+)@@\s*=\s*\{([^{}]*)\}")
_SEL = re.compile(r"@@ASCENDC_TPL_(\w+?)_SEL_(\w+)@@\s*=\s*\{([^{}]*)\}")
_ARGS_DECL = re.compile(r"\bASCENDC_TPL_ARGS_DECL\s*\(")


@dataclass(frozen=True)
class Argument:
    name: str
    kind: str                   # UINT, BOOL, DTYPE, FORMAT, ...
    width: int
    values: tuple[int, ...]     # UINT: the declared values, ranges expanded


@dataclass(frozen=True)
class Template:
    """A template kernel's ASCENDC_TPL declaration: its arguments, and the instances its ASCENDC_TPL_SEL
    selects (one {argument: values} per ASCENDC_TPL_ARGS_SEL; the op compiler builds a binary for every
    combination, and GET_TPL_TILING_KEY refuses values no selection holds)."""
    header: Path
    arguments: tuple[Argument, ...]
    selections: tuple[dict, ...]

    def selected(self, values: list[tuple[Argument, int]]) -> bool:
        """Whether decoded values form an instance some selection holds (no ASCENDC_TPL_SEL: every one)."""
        if not self.selections:
            return True
        return any(all(v in sel.get(a.name, ()) for a, v in values) for sel in self.selections)


def declaration_header(sources: list[Path]) -> Path | None:
    """The first of the kernel's headers (in its op_kernel folders) holding ASCENDC_TPL_ARGS_DECL."""
    for path in sources:
        if _ARGS_DECL.search(path.read_text(errors="replace")):
            return path
    return None


def read_declaration(header: Path, compiler: str, include_dirs, defines: dict) -> list[Argument]:
    """The declared arguments, in order, from the header preprocessed in the library's ASCENDC_TPL_PRE mode."""
    return list(read_template(header, compiler, include_dirs, defines).arguments)


def read_template(header: Path, compiler: str, include_dirs, defines: dict) -> "Template":
    """The declared arguments and the instances ASCENDC_TPL_SEL selects, from one preprocessor run."""
    text = _pre_mode_text(header, compiler, include_dirs, defines)
    arguments = _arguments(text, header)
    return Template(header, tuple(arguments), _selections(text, header, arguments))


def _pre_mode_text(header: Path, compiler: str, include_dirs, defines: dict) -> str:
    flags = ["-E", "-P", "-x", "c++", "-std=c++17", "-DASCENDC_TPL_PRE", *(f"-I{d}" for d in include_dirs),
             *(f"-D{k}" if v is None else f"-D{k}={v}" for k, v in defines.items())]
    with tempfile.TemporaryDirectory(prefix="ascgen-tpl-") as tmp:
        src = Path(tmp) / "tpl.cpp"
        src.write_text(f'#include "{header}"\n')
        proc = subprocess.run([compiler, *flags, str(src)], capture_output=True, text=True, errors="replace",
                              timeout=120)
    if proc.returncode != 0:
        first = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr.strip()[:300])
        raise OpTilingError(f"{header}: reading its ASCENDC_TPL_ARGS_DECL failed: {first}")
    return proc.stdout


def _arguments(text: str, header: Path) -> list[Argument]:
    out = []
    for kind, name, body in _DECL.findall(text):
        where = f"{header}: ASCENDC_TPL_{kind}_DECL({name})"
        numbers = _numbers(body, where)
        if kind == "UINT":
            if not numbers:
                raise OpTilingError(f"{where}: no bit width")
            out.append(Argument(name, kind, numbers[0], _uint_values(numbers[1:], where)))
        elif kind in WIDTHS:
            out.append(Argument(name, kind, WIDTHS[kind], tuple(numbers)))
    if not out:
        raise OpTilingError(f"{header}: no ASCENDC_TPL_*_DECL argument after preprocessing")
    return out


def _selections(text: str, header: Path, arguments: list[Argument]) -> tuple[dict, ...]:
    """Each ASCENDC_TPL_ARGS_SEL as {argument name: allowed values} (UINT lists, ranges and mixes expanded as
    ParseTplUintValue does). The kernel-type and deterministic selections pick no instance: left out."""
    kinds = {a.name: a.kind for a in arguments}
    out = []
    for chunk in text.split("@@{")[1:]:
        chosen: dict = {}
        for kind, name, body in _SEL.findall(chunk):
            if name not in kinds:
                continue                    # ASCENDC_TPL_TILING_STRUCT_SEL and the like: not a declared argument
            where = f"{header}: ASCENDC_TPL_{kind}_SEL({name})"
            numbers = _numbers(body, where)
            chosen[name] = set(_uint_values(numbers, where) if kinds[name] == "UINT" else numbers)
        if chosen:
            out.append(chosen)
    return tuple(out)


def _numbers(body: str, where: str) -> list[int]:
    names = c_data_types()
    return [integer(str(names.get(w, w)), where) for w in (w.strip() for w in body.split(",")) if w]


def c_types_header() -> Path | None:
    """metadef's graph/c_types.h, the C data type enumerators (C_DT_FLOAT = 0, ...), or None without metadef.
    A DATATYPE declaration lists them (ops-nn mse_loss_v2, ops-math bessel_i1e on ascend950); the op_host
    side has them through graph/types.h, the kernel through its tiling header (kernel.py)."""
    metadef = config.cann_repository("metadef")
    header = metadef / "inc" / "external" / "graph" / "c_types.h" if metadef is not None else None
    return header if header is not None and header.is_file() else None


@functools.lru_cache(maxsize=1)
def c_data_types() -> dict:
    """The enumerators of c_types_header() by name: the op compiler reads a declaration's C_DT_FLOAT as its
    value, as the enum gives it."""
    header = c_types_header()
    text = header.read_text(errors="replace") if header is not None else ""
    return {name: int(value) for name, value in re.findall(r"\b(C_DT_\w+)\s*=\s*(\d+)", text)}


def decode(key: int, arguments: list[Argument], where: str) -> list[tuple[Argument, int]]:
    """Each declared argument's value in a tiling key (the inverse of EncodeTilingKey)."""
    values, shift = [], 0
    for arg in arguments:
        field = (key >> shift) & ((1 << arg.width) - 1)
        shift += arg.width
        if arg.kind == "UINT":
            if field >= len(arg.values):
                raise OpTilingError(f"{where}: tiling key {key} holds index {field} for {arg.name}, which declares "
                                    f"{len(arg.values)} value(s) {list(arg.values)}: no kernel instance has it")
            field = arg.values[field]
        values.append((arg, field))
    if key >> shift:
        raise OpTilingError(f"{where}: tiling key {key} has bits above the {shift} its ASCENDC_TPL_ARGS_DECL declares")
    return values


def instance_name(kernel: str, values: list[tuple[Argument, int]]) -> str:
    """`add_example<1>` for the decoded values, in the declaration's order (bools as true / false, a DATATYPE
    argument as its C type: the kernel's parameter is a typename, `template <typename D_T_X>`)."""
    shown = [("true" if v else "false") if a.kind == "BOOL" else
             datatype_name(v, f"{kernel}: ASCENDC_TPL_DATATYPE {a.name}") if a.kind == "DATATYPE" else str(v)
             for a, v in values]
    return f"{kernel}<{', '.join(shown)}>"


def datatype_name(value: int, where: str) -> str:
    """The C type a DATATYPE value instantiates, as the library's TypeFromId maps it (DT_FLOAT -> float): the
    data type whose C enumerator has this value (c_data_types), its kernel type (dtypes.py)."""
    for name, number in c_data_types().items():
        if number == value:
            return dtypes.kernel_type(name[len("C_"):], where)
    raise OpTilingError(f"{where}: {value} is no data type of metadef's graph/c_types.h"
                        + ("" if c_types_header() else " (metadef not found: set ASCGEN_CANN_SOURCES)"))


def _uint_values(words: list[int], where: str) -> tuple[int, ...]:
    if not words:
        raise OpTilingError(f"{where}: no values")
    mode, rest = words[0], words[1:]
    if mode == UI_LIST:
        return tuple(rest)
    if mode in (UI_RANGE, UI_MIX):
        count = rest[0] if rest else 0
        pairs, tail = rest[1:1 + 2 * count], rest[1 + 2 * count:]
        out: list[int] = []
        for lo, hi in zip(pairs[::2], pairs[1::2]):
            out += range(lo, hi + 1)
        return tuple(out + (tail if mode == UI_MIX else []))
    raise OpTilingError(f"{where}: unknown UINT encoding {mode} (ASCENDC_TPL_UI_RANGE / _LIST / _MIX)")


def integer(text: str, where: str) -> int:
    """An integer constant expression after preprocessing (casts and suffixes dropped)."""
    cleaned = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", re.sub(r"\(\s*(?:u?int\d+_t|unsigned|int|long|bool)\s*\)", "", text))
    cleaned = cleaned.replace("true", "1").replace("false", "0")
    try:
        tree = ast.parse(cleaned, mode="eval")
        if not all(isinstance(n, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop))
                   for n in ast.walk(tree)):
            raise ValueError(text)
        value = eval(compile(tree, "<tpl>", "eval"), {"__builtins__": {}}, {})
        if not isinstance(value, int):
            raise ValueError(text)
        return value
    except (SyntaxError, ValueError):
        raise OpTilingError(f"{where}: the value {text!r} is not an integer constant after preprocessing (a "
                            "constexpr variable?); ascgen reads the declaration as the op compiler does, "
                            "from the preprocessor's output") from None
