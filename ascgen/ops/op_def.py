"""An operator's definition (op_host/*_def.cpp): its type, inputs, outputs and attributes, read from the
source, so the tiling request is checked before it runs and its attributes go in the definition's order.

    class AddRmsNorm : public OpDef { ...
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ...}).Format({ge::FORMAT_ND, ...});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);
        this->AICore().AddConfig("ascend910b");             // the definition's own tensors
        config_950.Input("x1")...; this->AICore().AddConfig("ascend950", config_950);   // a product's own
    }; OP_ADD(AddRmsNorm);

The attributes are what the tiling context carries by index (its GetAttrs()->GetFloat(0)), so their order
is the definition's. A data-type list written other than as a literal `{ge::DT_...}` is not checked here
(the tiling function still sees the type given).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ascgen import products
from ascgen.errors import OpTilingError, SpecError, UnsupportedProductError
from ascgen.source import op_tiling

_CLASS = re.compile(r"\bclass\s+(\w+)\s*:\s*public\s+OpDef\b")
_OP_ADD = re.compile(r"\bOP_ADD\s*\(\s*(\w+)\s*\)")
_ITEM = re.compile(r'(?:\bthis\s*->\s*|\b(\w+)\s*\.\s*)(Input|Output|Attr)\s*\(\s*"(\w+)"\s*\)(.*)$', re.S)
_CONFIG = re.compile(r'AddConfig\s*\(\s*"(\w+)"\s*(?:,\s*(\w+)\s*)?\)')
_LIST = r"\(\s*\{([^}]*)\}\s*\)"
_ATTR_VALUE = re.compile(r"\.\s*(Float|Int|Bool|String|ListInt|ListFloat|ListBool|ListListInt)\s*\((.*?)\)\s*$", re.S)
ATTR_KINDS = {"Float": "float", "Int": "int", "Bool": "bool", "String": "str", "ListInt": "list_int",
              "ListFloat": "list_float", "ListBool": "list_bool"}


@dataclass
class Tensor:
    name: str
    param: str                          # REQUIRED / OPTIONAL / DYNAMIC
    dtypes: list[str] | None            # None: not a literal list
    formats: list[str] | None


@dataclass
class Attr:
    name: str
    kind: str                           # float / int / bool / str / list_*
    required: bool
    default: object = None


@dataclass
class OpDef:
    op_type: str
    where: str
    inputs: dict[str, list[Tensor]] = field(default_factory=dict)    # owner ("this" or a config) -> tensors
    outputs: dict[str, list[Tensor]] = field(default_factory=dict)
    attrs: list[Attr] = field(default_factory=list)
    configs: dict[str, str] = field(default_factory=dict)            # product id -> owner

    def input_name(self, i: int) -> str:
        ins = self.inputs.get("this", [])
        return ins[i].name if i < len(ins) else "?"

    def output_name(self, i: int) -> str:
        outs = self.outputs.get("this", [])
        return outs[i].name if i < len(outs) else "?"

    def check(self, product, ins, outs) -> None:
        """The product is one the definition configures, and the tensors match its inputs and outputs:
        count, and data type and format where the definition lists them literally."""
        if self.configs and product.id not in self.configs:
            raise UnsupportedProductError(f"{self.op_type} is not defined for {product.id} ({self.where} configures "
                                          f"{', '.join(sorted(self.configs))})")
        for role, given, declared in (("input", ins, self.declared(product, "input")),
                                      ("output", outs, self.declared(product, "output"))):
            if len(given) != len(declared):
                raise SpecError(f"{self.op_type} takes {len(declared)} {role}s ({', '.join(t.name for t in declared)}), "
                                f"{len(given)} given")
            for t, spec in zip(declared, given):
                if spec is None:
                    if role != "input" or t.param != "OPTIONAL":
                        raise SpecError(f"{self.op_type} {role} {t.name!r} is {t.param.lower()}: give a tensor (None "
                                        f"leaves out an optional input only; {self.where})")
                    continue
                if t.dtypes is not None and spec.dtype not in t.dtypes:
                    raise SpecError(f"{self.op_type} {role} {t.name!r}: data type {spec.dtype} is not one the definition "
                                    f"accepts on {product.id} ({', '.join(sorted(set(t.dtypes)))}; {self.where})")
                if t.formats is not None and spec.format not in t.formats:
                    raise SpecError(f"{self.op_type} {role} {t.name!r}: format {spec.format} is not one the definition "
                                    f"accepts on {product.id} ({', '.join(sorted(set(t.formats)))})")

    def declared(self, product, role: str) -> list[Tensor]:
        """The inputs or outputs (`role`) the definition declares for the product: its config's own, else its own."""
        owner = self.configs.get(product.id, "this")
        table = self.inputs if role == "input" else self.outputs
        return table.get(owner) or table.get("this", [])

    def output_dtype(self, product, index: int, input_dtypes: list[str | None]) -> str | None:
        """The data type the definition fixes for output `index` given the inputs' (DT_... names, None for an
        input left out): the definition lists one data type per supported combination, column by column
        across inputs and outputs, so the output's is the one in the first column whose inputs all match
        (inputs whose list is not literal left out). None when the output's list is not literal or no column
        matches."""
        ins, outs = self.declared(product, "input"), self.declared(product, "output")
        out = outs[index].dtypes if index < len(outs) else None
        if out is None:
            return None
        for column, dtype in enumerate(out):
            if all(column < len(t.dtypes) and t.dtypes[column] == given     # an input typed in code: no constraint
                   for t, given in zip(ins, input_dtypes) if given is not None and t.dtypes is not None):
                return dtype
        return None

    def attr_lines(self, given: dict) -> list[str]:
        """The request's attribute lines in the definition's order: given values, else defaults; a missing
        required attribute or an unknown name is a SpecError naming it."""
        unknown = sorted(set(given) - {a.name for a in self.attrs})
        if unknown:
            raise SpecError(f"{self.op_type} has no attribute {', '.join(map(repr, unknown))}; its attributes: "
                            f"{', '.join(a.name for a in self.attrs) or 'none'}")
        lines = []
        for a in self.attrs:
            if a.name in given:
                value = given[a.name]
            elif a.required or a.default is None:
                raise SpecError(f"{self.op_type}: attribute {a.name!r} is required ({a.kind}; {self.where})")
            else:
                value = a.default
            lines.append(f"attr {a.kind} {_attr_text(a, value, self.op_type)}")
        return lines


def _attr_text(a: Attr, value, op_type: str) -> str:
    where = f"{op_type} attribute {a.name!r}"
    try:
        if a.kind == "bool":
            if not isinstance(value, (bool, int)):
                raise TypeError
            return "1" if value else "0"
        if a.kind == "int":
            if isinstance(value, float) and not float(value).is_integer():
                raise TypeError
            return str(int(value))
        if a.kind == "float":
            return repr(float(value))
        if a.kind == "str":
            return str(value)
        items = list(value)
        conv = {"list_int": lambda v: str(int(v)), "list_float": lambda v: repr(float(v)),
                "list_bool": lambda v: "1" if v else "0"}[a.kind]
        return " ".join([str(len(items)), *map(conv, items)])
    except (TypeError, ValueError, KeyError):
        raise SpecError(f"{where} takes {a.kind} values, not {value!r}") from None


def _literal(text: str, kind: str):
    text = text.strip()
    if kind in ("float", "int"):
        text = re.sub(r"(?<=[\d.])[fFlLuU]+\b", "", text)
        try:
            return float(text) if kind == "float" else int(float(text))
        except ValueError:
            return None
    if kind == "bool":
        return {"true": True, "false": False}.get(text)
    if kind == "str":
        m = re.fullmatch(r'"(.*)"', text, re.S)
        return m.group(1) if m else None
    m = re.fullmatch(r"\{(.*)\}", text, re.S)
    if not m:
        return None
    inner = _literal_list(m.group(1))
    return [_literal(v, kind[5:]) for v in inner]


def _literal_list(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _names(call: str, body: str, prefix: str) -> list[str] | None:
    m = re.search(rf"\.\s*{call}\s*{_LIST}", body)
    if not m:
        return None
    names = [v.split("::")[-1] for v in _literal_list(m.group(1))]
    return names if all(n.startswith(prefix) for n in names) else None


def definition_files(op_dir: Path) -> list[Path]:
    return sorted((op_dir / "op_host").glob("*_def.cpp"))


def read(op_dir: Path, op_type: str | None = None) -> OpDef:
    """The definition of the op in op_dir (op_type: when its op_host defines several)."""
    op_dir = Path(op_dir)
    if not (op_dir / "op_host").is_dir():
        raise OpTilingError(f"{op_dir}: no op_host folder, so no host tiling (an operator folder holds op_host/ "
                            "with its *_def.cpp and *_tiling*.cpp beside op_kernel/)")
    found = []
    for path in definition_files(op_dir):
        code = op_tiling._read(path)       # comments blanked, string literals kept (the names are in them)
        for cls in _CLASS.finditer(code):
            if op_type is None or cls.group(1) == op_type:
                found.append(_parse(cls.group(1), code, cls.end(), f"{path}:{code.count(chr(10), 0, cls.start()) + 1}"))
    if not found:
        raise OpTilingError(f"{op_dir}/op_host: no operator definition (class X : public OpDef in *_def.cpp)"
                            + (f" for {op_type}" if op_type else ""))
    if len(found) > 1:
        raise SpecError(f"{op_dir}/op_host defines {', '.join(d.op_type for d in found)}: pass op_type=")
    return found[0]


def _parse(op_type: str, code: str, start: int, where: str) -> OpDef:
    end = code.find("OP_ADD", start)
    body = code[start:end if end > 0 else len(code)]
    d = OpDef(op_type, where)
    for statement in body.split(";"):
        m = _ITEM.search(statement)      # the first in the statement (a chain starts there)
        if m:
            owner, what, name, rest = m.group(1) or "this", m.group(2), m.group(3), m.group(4)
            if what == "Attr":
                value = _ATTR_VALUE.search(rest)
                if not value or value.group(1) not in ATTR_KINDS:
                    raise OpTilingError(f"{where}: attribute {name!r} has a type ascgen does not read "
                                        f"({value.group(1) if value else 'none'})")
                kind = ATTR_KINDS[value.group(1)]
                required = bool(re.search(r"AttrType\s*\(\s*REQUIRED\s*\)", rest))
                attr = Attr(name, kind, required, None if required else _literal(value.group(2), kind))
                # metadef's OpDef::Attr is get-or-create (base/asc/opdef/op_def.cc): a second Attr("x") in
                # the definition sets the same attribute again, at its first position
                at = next((i for i, a in enumerate(d.attrs) if a.name == name), None)
                if at is None:
                    d.attrs.append(attr)
                else:
                    d.attrs[at] = attr
            else:
                param = re.search(r"ParamType\s*\(\s*(\w+)\s*\)", rest)
                t = Tensor(name, param.group(1) if param else "REQUIRED", _names("DataType", rest, "DT_"),
                           _names("Format", rest, "FORMAT_"))
                (d.inputs if what == "Input" else d.outputs).setdefault(owner, []).append(t)
        for soc, owner in _CONFIG.findall(statement):
            try:
                d.configs[products.get(soc).id] = owner or "this"
            except UnsupportedProductError:
                continue            # a SoC ascgen has no product for (kirinx90...)
    return d
