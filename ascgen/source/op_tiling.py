"""The kernel-side tiling header of an operator (docs/op-conventions.md, "The op_host tiling structs").

An operator repository's kernel UTs compile the kernel with `-include <build>/<op>_tiling_data.h`, a header
CANN's build generates from the op's compiled op_host tiling library (tests/ut/op_kernel/scripts/
gen_tiling_head_file.py, through CANN's closed tiling tools). `kernel_tiling_header` writes the equivalent
from the op_host sources themselves: every `BEGIN_TILING_DATA_DEF(C)` ... `END_TILING_DATA_DEF` class becomes
a plain struct laid out exactly as metadef's host class lays out its data buffer (register/tilingdata_base.h
and base/asc/tilingdata_base_impl.cc in the metadef repository):

* each field is placed at `data_size_` rounded up to its alignment: sizeof(T) for a scalar
  (TILING_DATA_FIELD_DEF), sizeof(element) for an array (TILING_DATA_FIELD_DEF_ARR), 8 for a nested class
  (TILING_DATA_FIELD_DEF_STRUCT); the gap is a placeholder `uint8_t <field>PH[gap]`
  (CheckAlignAndGenPlaceHolder, FieldHandler);
* a nested class takes its own data size (StructSizeInfoBase, recorded by its constructor);
* the class's size is rounded up to 8 with a placeholder `<Class>PH` (the constructor's
  CheckAlignAndGenPlaceHolder(#class_name "PH", 8)).

A nested class the op does not define is one of the library's (TCubeTiling, SoftMaxTiling...): the field
uses the library's kernel struct from `kernel_tiling/kernel_tiling.h` (generated from the same host
definitions in the asc-devkit tree, `include/adv_api/**/*tilingdata.h`) and keeps metadef's size, padding
the library struct's tail where its C size is smaller. The header asserts every size and offset
(static_assert), so a layout this module got wrong is a compile error, never a wrong tiling value.

`GET_TILING_DATA(t, arg)` declares the class registered for the op type itself
(`REGISTER_TILING_DATA_CLASS(OpType, C)`); classes registered per tiling key (`OpType_<key>`) are reached with
`GET_TILING_DATA_WITH_STRUCT(C, t, arg)` as the kernels do. The other GET_TILING_DATA* macros are the
devkit backend's generic ones (runtime/devkit/include/ascgen_devkit/op_tiling.h). A kernel UT's header holds
only the op type's class and those of the keys its rule lists (`-DUT_CUSTOM_TILING_DATA_KEYS=Op_4`), as the
repositories' generator writes it; the op build's holds every class.
"""
from __future__ import annotations

import ast
import functools
import operator
import re
from dataclasses import dataclass, field
from pathlib import Path

from ascgen.errors import OpTilingError

# Scalar field types and their sizes (metadef's FieldHandler takes sizeof(data_type)).
SCALAR_SIZES = {
    "int8_t": 1, "uint8_t": 1, "char": 1, "bool": 1,
    "int16_t": 2, "uint16_t": 2, "half": 2, "bfloat16_t": 2,
    "int32_t": 4, "uint32_t": 4, "int": 4, "float": 4, "unsigned": 4,
    "int64_t": 8, "uint64_t": 8, "double": 8, "size_t": 8,
}
STRUCT_ALIGN = 8        # FieldHandler for a nested class, and the class's own tail: CheckAlignAndGenPlaceHolder(.., 8)
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")


@dataclass(frozen=True)
class Field:
    kind: str            # "scalar", "array", "struct"
    ctype: str
    name: str
    count: str = "1"     # array length as written (a literal, a constant's name or an expression), evaluated later
    where: str = ""      # file:line


@dataclass
class TilingClass:
    name: str
    fields: list[Field]
    where: str


@dataclass(frozen=True)
class Member:
    """One member of the kernel struct: what it is, where it starts, how many bytes."""
    decl: str            # the C++ declaration without ';'
    name: str
    offset: int
    size: int


@dataclass
class Layout:
    name: str
    members: list[Member] = field(default_factory=list)
    size: int = 0


# ---- reading the sources ------------------------------------------------------------------------------

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _strip_comments(text: str) -> str:
    """Comments blanked, newlines kept (so line numbers stay), string literals left as they are."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _read(path: Path) -> str:
    # the repositories' comments are not all UTF-8 (GBK Chinese in some files): decode leniently
    return _strip_comments(path.read_bytes().decode("utf-8", errors="replace"))


def _calls(text: str, macro: str):
    """(start offset, argument text) of each `macro(...)` call, parentheses balanced."""
    for m in re.finditer(rf"\b{macro}\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield m.start(), text[m.end():i - 1]


def _split_args(args: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += {"(": 1, ")": -1, "<": 1, ">": -1}.get(ch, 0)
        cur += ch
    out.append(cur.strip())
    return out


_FIELD = re.compile(r"\b(TILING_DATA_FIELD_DEF_ARR|TILING_DATA_FIELD_DEF_STRUCT|TILING_DATA_FIELD_DEF)\s*\(")


def _classes(path: Path, text: str) -> tuple[dict[str, TilingClass], list[tuple[str, str, str]]]:
    """The tiling classes a file defines and its REGISTER_TILING_DATA_CLASS(op, class) lines."""
    found: dict[str, TilingClass] = {}
    for start, args in _calls(text, "BEGIN_TILING_DATA_DEF"):
        name = args.strip()
        end = text.find("END_TILING_DATA_DEF", start)
        where = f"{path}:{text.count(chr(10), 0, start) + 1}"
        if end < 0:
            raise OpTilingError(f"{where}: BEGIN_TILING_DATA_DEF({name}) has no END_TILING_DATA_DEF")
        body_start = start + text[start:].index("(") + len(args) + 2
        body = text[body_start:end]
        fields = []
        for m in _FIELD.finditer(body):
            fwhere = f"{path}:{text.count(chr(10), 0, body_start + m.start()) + 1}"
            inner = next(_calls(body[m.start():], m.group(1)))[1]
            parts = _split_args(inner)
            macro = m.group(1)
            if macro == "TILING_DATA_FIELD_DEF_ARR" and len(parts) == 3:
                fields.append(Field("array", parts[0], parts[2], parts[1], fwhere))
            elif macro == "TILING_DATA_FIELD_DEF_STRUCT" and len(parts) == 2:
                fields.append(Field("struct", parts[0].split("::")[-1], parts[1], "1", fwhere))
            elif macro == "TILING_DATA_FIELD_DEF" and len(parts) == 2:
                fields.append(Field("scalar", parts[0], parts[1], "1", fwhere))
            else:
                raise OpTilingError(f"{fwhere}: cannot read {macro}({inner.strip()})")
        found[name] = TilingClass(name, fields, where)
    registrations = []
    for start, args in _calls(text, "REGISTER_TILING_DATA_CLASS"):
        parts = _split_args(args)
        if len(parts) == 2:
            registrations.append((parts[0], parts[1], f"{path}:{text.count(chr(10), 0, start) + 1}"))
    return found, registrations




# ---- integer constants (array lengths) -----------------------------------------------------------------

_CONST = re.compile(r"(?:#define\s+(\w+)\s+([^\n]+))|(?:\b(?:constexpr|const)\s+[\w:<>\s]*?\b(\w+)\s*(?:=\s*|\{\s*)"
                    r"([^;{}]+?)\s*\}?\s*;)")
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Div: operator.floordiv, ast.LShift: operator.lshift, ast.RShift: operator.rshift}


def _constants(texts) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in texts:
        for m in _CONST.finditer(text):
            name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            out.setdefault(name, value.strip())
    return out


def _evaluate(expr: str, consts: dict[str, str], where: str, seen=()) -> int:
    text = re.sub(r"(?<=\d)(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)\b", "", expr.strip())
    text = re.sub(r"static_cast<[^>]*>", "", text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise OpTilingError(f"{where}: cannot evaluate the array length {expr!r}") from None

    def ev(node) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Name):
            if node.id in seen or node.id not in consts:
                raise OpTilingError(f"{where}: the array length {expr!r} uses {node.id}, which is not an integer "
                                    "constant defined in the op's sources (#define, const or constexpr)")
            return _evaluate(consts[node.id], consts, where, (*seen, node.id))
        if isinstance(node, ast.Attribute):        # Namespace::NAME was turned into Namespace.NAME
            return ev(ast.Name(node.attr))
        raise OpTilingError(f"{where}: cannot evaluate the array length {expr!r}")
    return ev(tree.body)


# ---- where the definitions are -------------------------------------------------------------------------

_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def _sources(op_dirs, extra_dirs, skip_dirs=()) -> list[Path]:
    """The op_host sources of `op_dirs` but those under `skip_dirs`, then the files they include that can be
    found (relative to the including file, then to each of `extra_dirs`, e.g. the repository root),
    transitively."""
    skip = [Path(d).resolve() for d in skip_dirs]
    todo = []
    for op_dir in op_dirs:
        host = op_dir / "op_host"
        if host.is_dir():
            todo += sorted(p for p in host.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file()
                           and not any(p.resolve().is_relative_to(d) for d in skip))
    seen: list[Path] = []
    while todo:
        path = todo.pop(0).resolve()
        if path in seen:
            continue
        seen.append(path)
        for inc in _INCLUDE.findall(path.read_bytes().decode("utf-8", errors="replace")):
            for base in (path.parent, *extra_dirs):
                cand = base / inc
                if cand.is_file():
                    todo.append(cand)
                    break
    return seen


# ---- layout (metadef's rules) --------------------------------------------------------------------------

class _Layouts:
    def __init__(self, classes: dict[str, TilingClass], library: dict[str, TilingClass], consts: dict[str, str]):
        self.classes, self.library, self.consts = classes, library, consts
        self.done: dict[str, Layout] = {}
        self.order: list[str] = []          # op classes in dependency order
        self.library_used: dict[str, int] = {}   # library struct -> its C sizeof (pack 8, natural alignment)

    def layout(self, name: str, where: str, stack=()) -> Layout:
        if name in self.done:
            return self.done[name]
        if name in stack:
            raise OpTilingError(f"{where}: tiling class {name} contains itself")
        cls = self.classes.get(name) or self.library.get(name)
        if cls is None:
            raise OpTilingError(f"{where}: the tiling class {name} is defined neither in the op's sources nor in "
                                "the library's tiling headers (include/adv_api/**/*tilingdata.h)")
        out = Layout(name)

        def place(align: int, hint: str) -> None:
            gap = -out.size % align
            if gap:
                out.members.append(Member(f"uint8_t {hint}PH[{gap}]", f"{hint}PH", out.size, gap))
                out.size += gap

        for f in cls.fields:
            if f.kind == "struct":
                inner = self.layout(f.ctype, f.where, (*stack, name))
                place(STRUCT_ALIGN, f.name)
                if f.ctype in self.library and f.ctype not in self.classes:
                    c_size = self._library_c_size(f.ctype, f.where)
                    out.members.append(Member(f"AscendC::tiling::{f.ctype} {f.name}", f.name, out.size, c_size))
                    if inner.size > c_size:     # metadef's size is rounded to 8; the library's C struct may not be
                        out.members.append(Member(f"uint8_t {f.name}_ascgen_tail[{inner.size - c_size}]",
                                                  f"{f.name}_ascgen_tail", out.size + c_size, inner.size - c_size))
                else:
                    out.members.append(Member(f"{f.ctype} {f.name}", f.name, out.size, inner.size))
                out.size += inner.size
                continue
            size = self._scalar(f)
            count = _evaluate(f.count, self.consts, f.where) if f.kind == "array" else 1
            if count <= 0:
                raise OpTilingError(f"{f.where}: array {f.name} has length {count}")
            place(size, f.name)
            decl = f"{f.ctype} {f.name}[{count}]" if f.kind == "array" else f"{f.ctype} {f.name}"
            out.members.append(Member(decl, f.name, out.size, size * count))
            out.size += size * count
        place(STRUCT_ALIGN, name)
        self.done[name] = out
        if name in self.classes:
            self.order.append(name)
        return out

    def _scalar(self, f: Field) -> int:
        ctype = f.ctype.replace("std::", "").strip()
        if ctype not in SCALAR_SIZES:
            raise OpTilingError(f"{f.where}: field {f.name} has type {f.ctype}, not one of the scalar types a "
                                f"tiling field can have ({', '.join(sorted(SCALAR_SIZES))})")
        return SCALAR_SIZES[ctype]

    def _library_c_size(self, name: str, where: str) -> int:
        """sizeof the library's kernel struct: its fields in order, natural alignment capped at 8
        (gen_kernel_tiling_data_def.py writes them under #pragma pack(push, 8))."""
        if name in self.library_used:
            return self.library_used[name]
        size, align = 0, 1
        for f in self.library[name].fields:
            if f.kind == "struct":      # library structs nest library structs
                a, n = self._library_align(f.ctype), self._library_c_size(f.ctype, f.where)
            else:
                a = min(8, self._scalar(f))
                n = self._scalar(f) * (_evaluate(f.count, self.consts, f.where) if f.kind == "array" else 1)
            size += -size % a
            size += n
            align = max(align, a)
        size += -size % align
        self.library_used[name] = size
        return size

    def _library_align(self, name: str) -> int:
        fields = self.library[name].fields
        return max([min(8, self._library_align(f.ctype)) if f.kind == "struct" else min(8, self._scalar(f))
                    for f in fields] or [1])


@functools.lru_cache(maxsize=4)
def library_classes(asc_devkit: Path) -> dict[str, TilingClass]:
    """The library's host tiling classes (the sources of kernel_tiling/kernel_tiling.h)."""
    out: dict[str, TilingClass] = {}
    for path in sorted((asc_devkit / "include" / "adv_api").rglob("*tilingdata.h")):
        found, _ = _classes(path, _read(path))
        for name, cls in found.items():
            out.setdefault(name, cls)
    return out


# ---- the header ----------------------------------------------------------------------------------------

def op_type_of(op_dir: Path) -> str:
    """The op type, as the repositories' CMake rules take it (ut.cmake, AddOpTestCase): the "op_type" of
    op_host/config/*/<op>_binary.json, else the folder name in CamelCase (add_example -> AddExample)."""
    for path in sorted(op_dir.glob(f"op_host/config/*/{op_dir.name}_binary.json")):
        m = re.search(r'"op_type"\s*:\s*"(\w+)"', path.read_text(errors="replace")[:4096])
        if m:
            return m.group(1)
    return "".join(w[:1].upper() + w[1:].lower() for w in op_dir.name.split("_"))


def _default_class(registrations, op_type: str, op_dir: Path) -> str | None:
    """The class GET_TILING_DATA declares: the one registered for the op type without a tiling key; else,
    if the op's own op_host files register exactly one class without a key, that one; else none (a kernel
    using GET_TILING_DATA then fails to compile with a message, never reads another op's struct)."""
    plain = [(op, cls, where) for op, cls, where in registrations if not re.search(r"_\d+$", op)]
    mine = sorted({cls for op, cls, _ in plain if op == op_type})
    if not mine:
        own = str((op_dir / "op_host").resolve())
        mine = sorted({cls for _, cls, where in plain if where.startswith(own)})
    return mine[0] if len(mine) == 1 else None


@dataclass
class OpTiling:
    """What the op's sources define: its tiling classes laid out, the library structs they nest, and the
    class GET_TILING_DATA declares."""
    op_dir: Path
    layouts: _Layouts
    default: str | None

    @property
    def order(self) -> list[str]:
        return self.layouts.order

    def layout(self, name: str) -> Layout:
        return self.layouts.done[name]

    def fields(self, name: str) -> list[tuple[str, str, str, int]]:
        """(kind, type, name, count) of a class's fields as written, array lengths evaluated."""
        cls = self.layouts.classes.get(name) or self.layouts.library[name]
        return [(f.kind, f.ctype, f.name,
                 _evaluate(f.count, self.layouts.consts, f.where) if f.kind == "array" else 1) for f in cls.fields]


def read_op_tiling(op_dir: Path, *, asc_devkit: Path, op_type: str | None = None, search_dirs=(),
                   dependency_ops=(), skip_dirs=(), keys=None) -> OpTiling:
    """The op's tiling classes (see kernel_tiling_header); with `keys`, only the registered ones it names."""
    op_dir = Path(op_dir)
    if not (op_dir / "op_host").is_dir():
        raise OpTilingError(f"{op_dir}: no op_host folder, so no tiling definitions to read")
    classes: dict[str, TilingClass] = {}
    registrations: list = []
    texts = []
    for path in _sources([op_dir, *map(Path, dependency_ops)], [Path(d) for d in search_dirs], skip_dirs):
        text = _read(path)
        texts.append(text)
        found, regs = _classes(path, text)
        for name, cls in found.items():
            prev = classes.get(name)
            if prev is not None and [(f.kind, f.ctype, f.name, f.count) for f in prev.fields] != [
                    (f.kind, f.ctype, f.name, f.count) for f in cls.fields]:
                raise OpTilingError(f"{cls.where}: tiling class {name} is defined differently at {prev.where}")
            classes.setdefault(name, cls)
        registrations += regs
    layouts = _Layouts(classes, library_classes(Path(asc_devkit)), _constants(texts))
    default = _default_class(registrations, op_type or op_type_of(op_dir), op_dir)
    wanted = classes if keys is None else _registered(registrations, default, keys)
    for name in wanted:
        if name in classes:
            layouts.layout(name, classes[name].where)
    return OpTiling(op_dir, layouts, default)


def _registered(registrations, default: str | None, keys) -> list[str]:
    """The classes CANN's UT header generator writes (gen_tiling_head_file.py -> get_tiling_info(op, keys)):
    the op type's own class and the classes registered under the listed keys (`Op_4`); the classes they nest
    come with them. A UT whose test defines a keyed class itself compiles only so (ops-nn
    fused_linear_cross_entropy_loss_grad, ops-math concat: `redefinition of struct ...` with every class)."""
    keys = set(keys)
    listed = [cls for op, cls, _ in registrations if op in keys]
    return list(dict.fromkeys([*([default] if default else []), *listed]))


def kernel_tiling_header(op_dir: Path, *, asc_devkit: Path, op_type: str | None = None,
                         search_dirs=(), dependency_ops=(), skip_dirs=(), keys=None) -> str:
    """The text of the op's `<op>_tiling_data.h` for its kernel: every tiling class of its op_host sources
    as a struct with metadef's layout, and GET_TILING_DATA for the class registered for the op type
    (`op_type`: default from op_type_of). Force-include it (-include) ahead of the kernel, as the op's CMake
    rule does. `search_dirs`: where the op_host files' quoted includes are looked for after their own
    folder (the repository root...). `dependency_ops`: the folders of the ops the op's kernel builds with;
    their op_host sources are read too, since CANN generates the header from the repository's whole tiling
    library, where a dependency may register its class for this op's type (ops-nn add_rms_norm_quant:
    `REGISTER_TILING_DATA_CLASS(AddRmsNormQuantV2, AddRMSNormQuantTilingData)`). Raises OpTilingError
    naming file:line when a definition cannot be read. `skip_dirs`: op_host folders not read, the other
    products' tiling folders (ops-nn deep_norm: arch22's BEGIN_TILING_DATA_DEF(DeepNormTilingData) and the
    ascend950 kernel's own plain struct of that name cannot both be declared). `keys`: None for every class
    (the op build, whose kernel for tiling key K reads `Op_K`'s class); a tuple for a kernel UT's header, which
    holds the op type's class and those of the listed keys only (_registered)."""
    return _render(read_op_tiling(op_dir, asc_devkit=asc_devkit, op_type=op_type, search_dirs=search_dirs,
                                  dependency_ops=dependency_ops, skip_dirs=skip_dirs, keys=keys))


def _render(tiling: OpTiling) -> str:
    op_dir, layouts, default = tiling.op_dir, tiling.layouts, tiling.default
    lines = [f"// The tiling structs of {op_dir.name}, written by ascgen from its op_host sources with metadef's",
             "// layout (ascgen/source/op_tiling.py); the kernel-side equivalent of CANN's <op>_tiling_data.h.",
             "#pragma once", "#include <cstddef>", "#include <cstdint>"]
    if layouts.library_used:
        lines.append('#include "kernel_tiling/kernel_tiling.h"')
    lines.append("#pragma pack(push, 8)")
    for name in layouts.order:
        lay = layouts.done[name]
        lines.append(f"struct {name} {{")
        lines += [f"    {m.decl};" for m in lay.members]
        lines.append("};")
    lines.append("#pragma pack(pop)")
    for name in layouts.order:
        lay = layouts.done[name]
        lines.append(f"static_assert(sizeof({name}) == {lay.size}, \"ascgen: {name} is not metadef's size\");")
        for m in lay.members:
            lines.append(f"static_assert(offsetof({name}, {m.name}) == {m.offset}, "
                         f"\"ascgen: {name}::{m.name} is not at metadef's offset\");")
    for name, size in layouts.library_used.items():
        lines.append(f"static_assert(sizeof(AscendC::tiling::{name}) == {size}, "
                     f"\"ascgen: the library's {name} is not the size its host definition gives\");")
    if default:
        lines += get_tiling_data_macro(default)
    return "\n".join(lines) + "\n"


def get_tiling_data_macro(default: str) -> list[str]:
    """The generated header's GET_TILING_DATA: the op type's class `default`, unless the kernel registers
    its own with REGISTER_TILING_DEFAULT, which wins as in CANN (ascgen_devkit/op_tiling.h, tiling_struct_t)."""
    return ["#undef GET_TILING_DATA",
            "#define GET_TILING_DATA(tiling_data, tiling_arg) \\",
            f"    ::ascgen_devkit::tiling_struct_t<decltype(ascgen_tiling_default(0)), {default}> tiling_data; \\",
            "    ::ascgen_devkit::load_tiling(&tiling_data, (tiling_arg), sizeof(tiling_data), "
            "\"GET_TILING_DATA\", ASCGEN_HERE)"]
