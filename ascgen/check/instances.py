"""The template instantiations an operator's tiling-key template selects, one analysis each.

Production operators declare their kernel's template arguments (`ASCENDC_TPL_ARGS_DECL(Op,
ASCENDC_TPL_BOOL_DECL(NAME, 0, 1), ...)`, usually in `*_tiling_key.h`) and select the instantiations the
op compiler builds: one `ASCENDC_TPL_ARGS_SEL(...)` per group, each holding one `ASCENDC_TPL_<KIND>_SEL
(NAME, values...)` per declared argument and optionally `ASCENDC_TPL_KERNEL_TYPE_SEL(type)`. The built
set is the cross product of the values inside each group, united over the groups (asc-devkit
`include/utils/tiling/template_argument.h` and `impl/utils/tiling/template_argument.cpp`: every group
names every declared argument; a UINT list is `ASCENDC_TPL_UI_LIST, v...`, a range `ASCENDC_TPL_UI_RANGE,
n, lo1, hi1, ...` (inclusive), a mix `ASCENDC_TPL_UI_MIX, n, lo1, hi1, ..., v...`). The kernel is
instantiated with the values in the declaration's order.

Values are read from the user's text (comments and `#if`-skipped code excluded) and folded with the
index's constants; a value that does not fold leaves that argument a run-time value in every analysis
(listed in "skipped"). Past MAX_INSTANTIATIONS the kernel is analysed once, as before, with each
argument ranging over its selected values.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ascgen.check import api, consteval
from ascgen.check.parse import Skipped
from ascgen.check.tokens import skipped_ranges

MAX_INSTANTIATIONS = 32

# The library's UINT encodings and kernel-type ids (template_argument.h), which operators spell by name.
UI_RANGE, UI_LIST, UI_MIX = 0, 1, 2
LIBRARY_VALUES = {"ASCENDC_TPL_UI_RANGE": UI_RANGE, "ASCENDC_TPL_UI_LIST": UI_LIST, "ASCENDC_TPL_UI_MIX": UI_MIX}
KERNEL_TYPE_IDS = {0: "ASCENDC_TPL_AIV_ONLY", 1: "ASCENDC_TPL_AIC_ONLY", 4: "ASCENDC_TPL_MIX_AIV_1_0",
                   5: "ASCENDC_TPL_MIX_AIC_1_0", 6: "ASCENDC_TPL_MIX_AIC_1_1", 7: "ASCENDC_TPL_MIX_AIC_1_2"}


@dataclass(frozen=True)
class Instance:
    values: tuple            # ((kernel template parameter, int), ...): what the analysis folds
    shown: tuple             # ((declared name, value), ...) for the label, in declaration order
    kernel_type: str | None  # ASCENDC_TPL_MIX_AIC_1_1 ... or None (the kernel's own type rules)

    @property
    def core(self) -> str | None:
        return api.TEMPLATE_KERNEL_TYPES.get(self.kernel_type) if self.kernel_type else None

    @property
    def label(self) -> str:
        parts = [f"{n}={v}" for n, v in self.shown]
        if self.kernel_type:
            parts.append("KERNEL_TYPE=" + self.kernel_type.replace("ASCENDC_TPL_", "", 1))
        return ", ".join(parts)


def for_kernel(index, entry, skipped: list) -> list[Instance] | None:
    """The instantiations of `entry` to analyse one by one, or None: no selection applies, or too many
    (then a skipped entry says so and the kernel is analysed once over the union of the values)."""
    decls, groups = _read(index)
    if not groups:
        return None
    order = _declared_order(decls, groups, entry)
    names = _binding(order, entry, index)
    if not names and len(index.entries) > 1:
        return None             # the selection may be another kernel's: only its kernel types would apply
    where = (entry.file, entry.line)
    counts = [_count(g) for g in groups]
    if sum(counts) > MAX_INSTANTIATIONS:
        skipped.append(Skipped(*where, f"instantiations of {entry.name}",
                               f"the tiling-key template selects {sum(counts)} instantiations, more than "
                               f"{MAX_INSTANTIATIONS}: the kernel is analysed once with every template argument "
                               "ranging over its selected values (a path no instantiation has may be reported)"))
        return None
    found: dict = {}
    unknown = set()
    for group in groups:
        params, types = group
        choices = []
        for name in order:
            values = params.get(name)
            if values is None:
                unknown.add(name)
                choices.append([(name, None, "?")])
            else:
                choices.append([(name, v, text) for v, text in values])
        for combo in itertools.product(*choices, types or [None]):
            *args, kernel_type = combo
            values = tuple((names[n], v) for n, v, _ in args if v is not None and n in names)
            shown = tuple((n, v) for n, v, _ in args if v is not None and n in names)
            found.setdefault(Instance(values, shown, kernel_type), None)
    for name in sorted(unknown & set(names)):
        skipped.append(Skipped(*where, f"template argument {name} of {entry.name}",
                               "its selected values are not integer constants ascgen can fold; it is "
                               "analysed as a run-time value in every instantiation"))
    instances = list(found)
    if len(instances) < 2 and not any(i.values for i in instances):
        return None             # one analysis, nothing folded: the plain kernel
    return instances


def _count(group) -> int:
    params, types = group
    n = max(len(types), 1)
    for values in params.values():
        n *= max(getattr(values, "total", len(values or ())), 1)
    return n


class _Values(list):
    """Selected values, built up to MAX_INSTANTIATIONS + 1; `total` counts them all (a wide range is
    counted, not built: the kernel is then refused as too many instantiations)."""
    total = 0


def _declared_order(decls: list, groups: list, entry) -> list:
    """The argument names in declaration order: the declaration whose names the kernel's template
    parameters use (or whose count matches), else the first group's order."""
    for names in decls:
        if set(names) <= set(entry.tparams):
            return names
    for names in decls:
        if len(names) == len(entry.tparams):
            return names
    if decls:
        return decls[0]
    return list(groups[0][0])


def _binding(order: list, entry, index) -> dict:
    """Declared name -> the kernel's template value parameter it instantiates: by name when the kernel
    uses the declared names, else by position (the op compiler instantiates in declaration order)."""
    value_params = [p for p in entry.tparams if p in index.value_params]
    if set(order) <= set(entry.tparams):
        return {n: n for n in order if n in index.value_params}
    if len(order) == len(entry.tparams):
        return {n: p for n, p in zip(order, entry.tparams) if p in value_params}
    return {}


def _read(index) -> tuple[list, list]:
    """(declarations: [[name, ...]], groups: [({name: [(value, text)] | None}, [kernel type, ...])])
    from the user's files, cached on the index."""
    if "#tpl" in index.tokens:
        return index.tokens["#tpl"]
    decls, groups = [], []
    for name in sorted(index.user_files):
        data = index.file_bytes(name)
        if b"ASCENDC_TPL_" not in data:
            continue
        text = text_of(data)
        skipped = skipped_ranges(index.tu, name)
        for m in _DECL.finditer(text):
            if live(m.start(), text, skipped):
                args = macro_args(text, m.end() - 1)
                if args:
                    decls.append([_name(a) for a in args[1:] if _name(a)])
        for m in _GROUP.finditer(text):
            if live(m.start(), text, skipped):
                groups.append(_group(macro_args(text, m.end() - 1) or [], index))
    index.tokens["#tpl"] = (decls, [g for g in groups if g[0] or g[1]])
    return index.tokens["#tpl"]


def text_of(data: bytes) -> str:
    """Comments and line continuations blanked (same offsets), as text."""
    data = _COMMENTS.sub(lambda m: b" " * len(m.group(0)), data).replace(b"\\\n", b"  ")
    return data.decode("utf-8", "replace")


def live(offset: int, text: str, skipped) -> bool:
    """Not in code the preprocessor skipped, and not the library's own `#define` of the macro."""
    line = text[text.rfind("\n", 0, offset) + 1:offset].split()
    return not any(a <= offset < b for a, b in skipped) and line not in (["#define"], ["#", "define"])


def macro_args(text: str, open_at: int) -> list | None:
    """The top-level comma-separated arguments of the parenthesis at `open_at`."""
    depth, start, out = 0, open_at + 1, []
    for i in range(open_at, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(text[start:i].strip())
                return [a for a in out if a]
        elif c == "," and depth == 1:
            out.append(text[start:i].strip())
            start = i + 1
    return None


def _name(arg: str) -> str | None:
    m = _PARAM.match(arg)
    return m.group(2) if m else None


def _group(args: list, index) -> tuple:
    """One ASCENDC_TPL_ARGS_SEL: ({argument: [(value, text), ...] or None when unknown}, [kernel types])."""
    params, types = {}, []
    for arg in args:
        m = _PARAM_SEL.match(arg)
        if m:
            inner = macro_args(arg, m.end() - 1) or []
            if inner:
                params[inner[0]] = _values(m.group(1), inner[1:], index)
            continue
        m = _KERNEL_TYPE.match(arg)
        if m:
            for word in macro_args(arg, m.end() - 1) or []:
                value = fold(word, index)
                types.append(KERNEL_TYPE_IDS.get(value, word) if word not in api.TEMPLATE_KERNEL_TYPES else word)
    return params, types


def _values(kind: str, words: list, index) -> list | None:
    """The values one selection lists, as the library expands them; None when one does not fold."""
    folded = [fold(w, index) for w in words]
    if None in folded:
        return None
    if kind != "UINT":
        return list(zip(folded, words))
    if not folded:
        return None
    flag, rest = folded[0], folded[1:]
    if flag == UI_LIST:
        return list(zip(rest, words[1:]))
    if flag not in (UI_RANGE, UI_MIX) or not rest:
        return None
    n, bounds = rest[0], rest[1:]
    if n < 0 or 2 * n > len(bounds):
        return None
    ranges = [range(bounds[2 * i], bounds[2 * i + 1] + 1) for i in range(n)]
    extra = bounds[2 * n:] if flag == UI_MIX else []
    out = _Values((v, str(v)) for v in itertools.islice(itertools.chain(*ranges, extra), MAX_INSTANTIATIONS + 1))
    out.total = sum(len(r) for r in ranges) + len(extra)
    return out


def fold(word: str, index):
    word = word.strip()
    while word.startswith("(") and word.endswith(")"):
        word = word[1:-1].strip()
    value = consteval.literal(word)
    if value is None:
        value = index.constants.get(word, LIBRARY_VALUES.get(word))
    return value if isinstance(value, int) else None


_COMMENTS = re.compile(rb"//[^\n]*|/\*.*?\*/", re.DOTALL)
_DECL = re.compile(r"\bASCENDC_TPL_ARGS_DECL\s*\(")
_GROUP = re.compile(r"\bASCENDC_TPL_ARGS_SEL\s*\(")
_PARAM = re.compile(r"ASCENDC_TPL_(BOOL|UINT|DTYPE|DATATYPE|FORMAT|KERNEL_TYPE)_DECL\s*\(\s*(\w+)")
_PARAM_SEL = re.compile(r"ASCENDC_TPL_(BOOL|UINT|DTYPE|DATATYPE|FORMAT)_SEL\s*\(")
_KERNEL_TYPE = re.compile(r"ASCENDC_TPL_KERNEL_TYPE_SEL\s*\(")


def inherited(index, fn, values: dict) -> dict:
    """The instantiation's values visible in `fn` by name: its own template parameters and its class
    template's that are spelled like the kernel's (`Kernel<float, UPDATE_SLOTS> op;` in the entry, then
    `if constexpr (UPDATE_SLOTS)` in `Kernel::Process`). A class parameter is inherited only when every
    spelled use of the class passes the same name at its position (`Kernel<float, true>` elsewhere would
    give it another value); a function's explicit template arguments are bound at the call and win."""
    if not values:
        return {}
    own = set(fn.tparams) & set(values)
    params = index.class_tparams.get(fn.owner, ()) if fn.owner else ()
    own |= {p for p in params if p in values and _passed_through(index, fn.owner, params.index(p), p)}
    return {p: values[p] for p in own}


def _passed_through(index, cls: str, position: int, param: str) -> bool:
    key = ("#passes", cls, position, param)
    if key not in index.tokens:
        ok = True
        use = re.compile(r"\b" + re.escape(cls) + r"\s*<((?:[^<>;{}()]|<[^<>;{}]*>|\([^()]*\))*)>")
        for name in index.user_files:
            data = index.file_bytes(name)
            if cls.encode() not in data:
                continue
            text = text_of(data)
            uses = list(use.finditer(text))
            if len(uses) != len(re.findall(r"\b" + re.escape(cls) + r"\s*<", text)):
                ok = False          # a use the pattern cannot read (deeper nesting): assume nothing
            for m in uses:
                args = macro_args("(" + m.group(1) + ")", 0) or []
                if position < len(args) and args[position] != param:
                    ok = False
        index.tokens[key] = ok
    return index.tokens[key]
