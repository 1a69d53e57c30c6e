"""Find the kernel entry points of an Ascend C source and what they need, without compiling it.

The input is the *user part* of the source after `g++ -E -fdirectives-only` (see analysis.py): `#if`
branches are resolved and local headers are pulled in, but macros such as `__global__`, `__vector__`
or `KERNEL_TASK_TYPE_DEFAULT` stay as written, so this module can read them the way the toolchain does.

What it decides, and how:
* entry points: every function declared `__global__` (extern "C", C++ linkage and templates alike);
  the names and C types of their parameters as written (the compiled trampoline reports the types the
  compiler resolved; see module.py);
* the kernel type: `KERNEL_TASK_TYPE_DEFAULT(...)` in the body, else `__mix__(a, b)` / `__vector__` /
  `__cube__`, else inferred from the APIs the source uses (cube APIs -> AIC, vector APIs -> AIV, both
  -> MIX 1:2), like the toolchain; op-wide, because kernels put their work in helper classes;
* whether the source calls WaitPreTaskEnd / SetNextTaskStart: a regex over the text, op-wide, exactly
  like the SuperKernel compiler's detection.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ascgen.source.kernel_types import KERNEL_TYPES, QUALIFIER_TYPES, TASK_TYPE_ENUMS  # noqa: F401 - re-exported

# APIs that only a cube core executes (matrix path: L1/L0 buffers, Mmad, Fixpipe, the matmul library).
_CUBE_API = re.compile(
    r"\b(Mmad\w*|LoadData\w*|Fixpipe\w*|Matmul\w*|MatmulImpl|REGIST_MATMUL_OBJ|SetFixpipe\w*|"
    r"(?:TPosition|QuePosition)::(?:A1|A2|B1|B2|C1|C2|CO1|CO2)|Hardware::(?:L1|L0A|L0B|L0C|BIAS|FIXBUF))\b")
# The Matmul API's registration, and the define that makes its object cube-only (no AIV client).
_MATMUL_OBJ = re.compile(r"\bREGIST_MATMUL_OBJ\b")
_CUBE_ONLY = re.compile(r"^\s*#\s*define\s+ASCENDC_CUBE_ONLY\b", re.M)
# APIs that only a vector core executes (UB buffers and vector instructions).
_VECTOR_API = re.compile(
    r"\b((?:TPosition|QuePosition)::VEC(?:IN|OUT|CALC)|Hardware::UB|"
    r"Adds|Muls|Maxs|Mins|Add|Sub|Mul|Div|Max|Min|Exp|Ln|Abs|Sqrt|Rsqrt|Reciprocal|Relu|LeakyRelu|"
    r"Cast|Duplicate|Compare|CompareScalar|Select|ReduceSum|ReduceMax|ReduceMin|WholeReduce\w*|"
    r"BlockReduce\w*|PairReduce\w*|Brcb|Gather\w*|Axpy|And|Or|Not|ShiftLeft|ShiftRight|"
    r"DataCopyPad|CreateVecIndex|Transpose|MrgSort\w*|Sort\w*|Interleave|DeInterleave)\s*(?:<[^;{}()]*>)?\s*\(")

_USES_WAIT = re.compile(r"\bWaitPreTaskEnd\b")
_USES_SET = re.compile(r"\bSetNextTaskStart\b")
_USES_SYNC_ALL = re.compile(r"\bSyncAll\b")


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str              # as written, e.g. "GM_ADDR", "__gm__ float*", "uint32_t"


@dataclass(frozen=True)
class KernelEntry:
    name: str
    params: tuple[Param, ...]
    kernel_type: str        # one of KERNEL_TYPES
    type_source: str        # why: "KERNEL_TASK_TYPE_DEFAULT", "__vector__", "inferred: vector APIs", ...
    template: str | None    # the template parameter list text, e.g. "uint32_t blockLength", or None
    extern_c: bool
    file: str
    line: int
    scope: str = ""         # enclosing named namespaces, "ns::inner::" (the wrapper takes &scope+name)
    # (param, element ctype, file, line): a GM_ADDR parameter the source casts to one element type, as in
    # `(__gm__ half*)x` or `SetGlobalBuffer((__gm__ half*)x, n)` (see gm_casts_of)
    gm_casts: tuple = ()


@dataclass(frozen=True)
class SourceInfo:
    kernels: tuple[KernelEntry, ...]
    uses_wait: bool
    uses_set: bool
    uses_sync_all: bool = False     # the source calls SyncAll (feed-sync-all complements only such tasks)

    def kernel(self, name: str) -> KernelEntry | None:
        base = name.split("<", 1)[0].strip()
        for k in self.kernels:
            if k.name == base:
                return k
        return None


# ---- text cleaning ---------------------------------------------------------------------------------

_TOKEN_STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def strip_comments(text: str) -> str:
    """Blank out comments and the insides of string/char literals, keeping every offset and newline."""
    def blank(m: re.Match) -> str:
        s = m.group(0)
        if s[0] in "\"'":
            return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
        return re.sub(r"[^\n]", " ", s)
    return _TOKEN_STRIP.sub(blank, text)


# ---- entry point discovery --------------------------------------------------------------------------

_GLOBAL = re.compile(r"\b__global__\b")
_IDENT = re.compile(r"[A-Za-z_]\w*")
# Qualifier-like macros that take a parenthesised argument and are not the kernel's name.
_PAREN_QUALIFIERS = {"__mix__", "__attribute__", "__declspec", "alignas", "__launch_bounds__"}


def _match_paren(text: str, i: int, open_ch: str = "(", close_ch: str = ")") -> int:
    """Index just past the bracket matching the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _decl_start(text: str, pos: int) -> int:
    """Start of the declaration containing `pos`: after the previous ';', '{' or '}'."""
    j = pos
    while j > 0 and text[j - 1] not in ";{}":
        j -= 1
    return j


def _without_directives(text: str) -> str:
    """Drop preprocessor lines (#include, #line markers...) that sit between declarations."""
    return "\n".join("" if ln.lstrip().startswith("#") else ln for ln in text.split("\n"))


_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


def _directive_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every preprocessor directive, its backslash-continued lines included: a `__global__`
    inside a `#define` body is a macro's text, not a kernel (ops-nn fused_patch_mlp's UT defines its kernels
    with `#define DEFINE_..._KERNEL(NAME, T) extern "C" __global__ ... void NAME(...)`)."""
    return [(m.start(), m.end()) for m in _DIRECTIVE.finditer(text)]


def _split_params(text: str) -> list[str]:
    parts, depth = [], 0
    cur: list[str] = []
    for c in text:
        if c in "(<[":
            depth += 1
        elif c in ")>]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _param(text: str, index: int) -> Param:
    text = text.split("=", 1)[0].strip()          # default arguments are not part of the type
    text = re.sub(r"\s+", " ", text)
    if text in ("void", ""):
        return Param("", "void")
    m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", text)
    head = text[:m.start()].strip() if m else ""
    # "uint32_t n" -> name n; "GM_ADDR" alone (unnamed) -> keep the type, invent a name.
    if m and head and not head.endswith("::"):
        return Param(m.group(1), head + (m.group(2) or ""))
    return Param(f"arg{index}", text)


def _kernel_type(qualifiers: str, body: str, file_text: str) -> tuple[str, str]:
    m = re.search(r"\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(\w+)\s*\)", body)
    if m and m.group(1) in TASK_TYPE_ENUMS:
        return TASK_TYPE_ENUMS[m.group(1)], f"KERNEL_TASK_TYPE_DEFAULT({m.group(1)})"
    m = re.search(r"\b__mix__\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)", qualifiers)
    if m:
        ratio = (int(m.group(1)), int(m.group(2)))
        kinds = {(1, 1): "mix_1_1", (1, 2): "mix_1_2", (1, 0): "aic", (0, 1): "aiv"}
        if ratio in kinds:
            return kinds[ratio], f"__mix__({ratio[0]}, {ratio[1]})"
    for qualifier, kind in QUALIFIER_TYPES.items():
        if re.search(rf"\b{qualifier}\b", qualifiers):
            return kind, qualifier
    cube = bool(_CUBE_API.search(file_text))
    vector = bool(_VECTOR_API.search(file_text))
    if uses_matmul_object(file_text) and not _CUBE_ONLY.search(file_text):
        # the library's Matmul object is a client on the AIVs and a server on the AIC (its KFC messages)
        return "mix_1_2", "inferred: the Matmul API without ASCENDC_CUBE_ONLY"
    if cube and vector:
        return "mix_1_2", "inferred: uses cube and vector APIs"
    if cube:
        return "aic", "inferred: uses cube APIs only"
    return "aiv", "inferred: uses vector APIs only" if vector else "inferred: no cube API (default AIV)"


def uses_matmul_object(file_text: str) -> bool:
    """The source registers the library's Matmul object (REGIST_MATMUL_OBJ): its AIC server and AIV clients
    exchange KFC messages through cross-core flags and the system workspace."""
    return bool(_MATMUL_OBJ.search(file_text))


_NAMESPACE = re.compile(r"\bnamespace\s+([A-Za-z_][\w:]*)?\s*\{")


def _namespaces(text: str) -> list[tuple[int, int, str]]:
    """(body start, body end, name) of every namespace block; anonymous ones have name ""."""
    out = []
    for m in _NAMESPACE.finditer(text):
        brace = m.end() - 1
        out.append((brace, _match_paren(text, brace, "{", "}"), m.group(1) or ""))
    return out


def _scope_at(blocks, pos: int) -> str:
    """The qualified scope at `pos`: "a::b::" (anonymous namespaces add nothing: same TU, same access)."""
    names = [name for start, end, name in sorted(blocks) if start < pos < end and name]
    return "".join(f"{n}::" for n in names)


def find_kernels(text: str, file_of=lambda pos: ("<source>", 1)) -> list[KernelEntry]:
    """Every `__global__` function in `text` (comments already stripped). Definitions win over
    declarations of the same name; `file_of(pos)` maps an offset to (file, line) for messages."""
    found: dict[str, KernelEntry] = {}
    defined: set[str] = set()
    blocks = _namespaces(text)
    file_casts = _casts(text)
    directives = _directive_spans(text)
    for g in _GLOBAL.finditer(text):
        if any(a <= g.start() < b for a, b in directives):
            continue
        start = _decl_start(text, g.start())
        i = g.end()
        name = None
        while i < len(text):
            m = _IDENT.match(text, i)
            if m:
                word = m.group(0)
                j = m.end()
                while j < len(text) and text[j] in " \t\n":
                    j += 1
                if j < len(text) and text[j] == "(":
                    if word in _PAREN_QUALIFIERS:
                        i = _match_paren(text, j)
                        continue
                    name = word
                    i = j
                    break
                i = m.end()
                continue
            if text[i] in ";{}":
                break
            i += 1
        if name is None:
            continue
        params_end = _match_paren(text, i)
        params_text = text[i + 1:params_end - 1]
        rest = text[params_end:].lstrip()
        is_definition = rest.startswith("{")
        body = text[params_end:_match_paren(text, params_end + text[params_end:].index("{"), "{", "}")] \
            if is_definition else ""
        qualifiers = _without_directives(text[start:i])
        template = None
        t = re.match(r"\s*template\s*<", qualifiers)
        if t:
            lt = t.end() - 1
            template = qualifiers[lt + 1:_match_paren(qualifiers, lt, "<", ">") - 1].strip()
        kernel_type, why = _kernel_type(qualifiers, body, text)
        params = tuple(_param(p, k) for k, p in enumerate(_split_params(params_text)))
        params = tuple(p for p in params if p.ctype != "void")
        file, line = file_of(g.start())
        casts = gm_casts_of(params, body, params_end, file_casts, file_of) if is_definition else ()
        kernel = KernelEntry(name, params, kernel_type, why, template, bool(re.search(r'extern\s*"', qualifiers)),
                        file, line, _scope_at(blocks, g.start()), casts)
        if name in defined and not is_definition:
            continue
        found[name] = kernel
        if is_definition:
            defined.add(name)
    return list(found.values())


_GM_CAST = re.compile(
    r"\(\s*__gm__\s+(?:const\s+)?([A-Za-z_][\w:]*)\s*\*\s*\)\s*\(?\s*([A-Za-z_]\w*)"
    r"|reinterpret_cast\s*<\s*__gm__\s+(?:const\s+)?([A-Za-z_][\w:]*)\s*\*\s*>\s*\(\s*([A-Za-z_]\w*)")


def _casts(text: str, offset: int = 0) -> dict[str, list[tuple[str, int]]]:
    """name -> [(element ctype, offset)] of every `(__gm__ T*)name` / `reinterpret_cast<__gm__ T*>(name)`."""
    out: dict[str, list[tuple[str, int]]] = {}
    for m in _GM_CAST.finditer(text):
        ctype, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.setdefault(name, []).append((ctype.split("::")[-1], offset + m.start()))
    return out


def gm_casts_of(params, body: str, body_start: int, file_casts: dict, file_of) -> tuple:
    """The element type each parameter is cast to: in the kernel's body, else (the usual Init(x, ...)
    style, where the name is passed on unchanged) anywhere in the file. Only a single, unambiguous type
    counts; parameters cast to several types are left out."""
    in_body = _casts(body, body_start)
    found = []
    for p in params:
        uses = in_body.get(p.name) or file_casts.get(p.name) or []
        types = {t for t, _ in uses}
        if len(types) == 1:
            file, line = file_of(uses[0][1])
            found.append((p.name, uses[0][0], file, line))
    return tuple(found)


def analyse(text: str, file_of=lambda pos: ("<source>", 1)) -> SourceInfo:
    """Kernels, and whether the task-sync calls appear (op-wide, textual, like the SK compiler)."""
    clean = strip_comments(text)
    return SourceInfo(tuple(find_kernels(clean, file_of)), bool(_USES_WAIT.search(clean)),
                      bool(_USES_SET.search(clean)), bool(_USES_SYNC_ALL.search(clean)))
