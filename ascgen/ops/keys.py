"""The tiling keys an operator's kernel handles, read from its source as the op build compiles it.

The source is preprocessed in full (`-E`, macros expanded) with the kernel build's include path and macros
(ops/kernel.py, `compile_path`) and `__CHECK_FEATURE_AT_PRECOMPILE`, the op compiler's own pass that
collects the keys (asc-devkit `cmake/asc/legacy_modules/device_preprocess_project`): so `#if` branches per
dtype or product are the binary's, and a key written as a macro is its number. `TILING_KEY_VAR` (which the
library only defines when nothing did) is defined as a marker, so every `TILING_KEY_IS(k)`,
`TILING_KEY_LIST(a, b)` and hand-written `TILING_KEY_VAR == k` reads `MARKER == (k)` in the output. Only the
lines of the op's own files count (line markers), not the library's.

What counts as handled (docs/ops.md, "Tiling-key coverage"):

* a key a test names (TILING_KEY_IS / TILING_KEY_LIST / `TILING_KEY_VAR == k`): handled;
* a final `else` of an `if` / `else if` chain whose conditions test the key handles every other key, unless
  its body is empty or only returns, or tests the key itself (then its own tests decide);
* `REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == k", S)` registers a struct for k: the key is listed,
  and handled only by a kernel with no key test at all (the registration is then its dispatch);
* a template kernel (ASCENDC_TPL): a key handled when it decodes to an instance its ASCENDC_TPL_SEL selects
  (ops/tpl.py), the binaries the op compiler builds;
* a kernel with no key test: any key (the kernel ignores it); but when its files do test the key and every
  test is in an `#if` branch this binary does not take (a body under `#if __CCE_AICORE__ == 220`), no key:
  the kernel runs no branch;
* a use of the key the reading does not follow (`switch (TILING_KEY_VAR)`, `>=`, a constant it cannot
  fold, `#if TILING_KEY_VAR == ...` in a file): a key no test names is then unknown, never unhandled.
"""
from __future__ import annotations

import functools
import itertools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ascgen import products
from ascgen.errors import OpTilingError
from ascgen.ops import kernel, tpl

MARKER = "ASCGEN_TILING_KEY"
ENUMERATE_LIMIT = 4096          # template instances listed one by one up to this many
_LINE_MARKER = re.compile(r'^# (\d+) "((?:\\.|[^"\\])*)"((?: \d)*)\s*$')
_TEST = re.compile(MARKER + r"\s*==\s*")
_REGISTERED = re.compile(r'\bauto\s+__enable_custom_tiling\s+\w+\s*=\s*"([^"]*)"')
_REGISTERED_KEY = re.compile(r"\bTILING_KEY_VAR\s*==\s*([^|&)\s]+)")
_DIRECTIVE_TEST = re.compile(r"^[ \t]*#[ \t]*(?:el)?if\b[^\n]*\bTILING_KEY_VAR\b", re.M)
_CONSTANT = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+(\w+)\s*=\s*([^;,{}]+);")
_SOURCE_TEST = re.compile(r"^(?![ \t]*//).*?\bTILING_KEY_(?:IS|LIST)\s*\(", re.M)
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_ONLY_RETURNS = re.compile(r"^(?:\s*(?:return\s*;|;))*\s*$")


@dataclass(frozen=True)
class Site:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class KernelKeys:
    """What one kernel binary (source, product, dtype macros) handles; `handles(key)` applies the rules."""
    source: str
    named: dict = field(default_factory=dict)          # key -> Site of its first test
    registered: dict = field(default_factory=dict)     # key -> Site of REGISTER_TILING_FOR_TILINGKEY
    else_all: Site | None = None                       # a final else taking every key no test names
    template: tpl.Template | None = None
    unread: list = field(default_factory=list)         # "file:line: text" of key uses not followed
    compiled_out: list = field(default_factory=list)   # Sites of key tests in #if branches this binary skips

    @property
    def dispatch(self) -> str:
        if self.template is not None:
            return "template"
        if self.named or self.unread:
            return "keys"
        if self.registered:
            return "registered"
        return "compiled-out" if self.compiled_out else "none"

    def handles(self, key: int) -> bool | None:
        """True, False, or None when a key use the reading did not follow may take it."""
        if self.dispatch == "template":
            assert self.template is not None
            try:
                values = tpl.decode(key, list(self.template.arguments), str(self.template.header))
            except OpTilingError:
                return False
            return self.template.selected(values)
        if self.dispatch == "none" or key in self.named or self.else_all is not None:
            return True
        if self.dispatch == "registered":
            return key in self.registered
        return None if self.unread else False       # "compiled-out" included: no branch is left

    def handled_keys(self) -> list[int] | None:
        """Every key handled, or None when that is any key (no dispatch, an else-all) or too many to list."""
        if self.dispatch == "template":
            return _instance_keys(self.template)
        if self.dispatch == "none" or self.else_all is not None:
            return None
        return sorted(self.registered if self.dispatch == "registered" else self.named)

    def describe(self) -> str:
        """One line: how the kernel dispatches on the key."""
        if self.dispatch == "template":
            assert self.template is not None
            listed = self.handled_keys()
            count = "more than %d" % ENUMERATE_LIMIT if listed is None else str(len(listed))
            return (f"template kernel: {count} instance(s) ASCENDC_TPL_SEL selects "
                    f"({self.template.header.name})")
        if self.dispatch == "none":
            return "no key dispatch: any key (the kernel ignores it)"
        if self.dispatch == "compiled-out":
            return f"no key test in this binary: the source's ({self._compiled_out()}) are in #if branches it skips"
        if self.dispatch == "registered":
            return f"no key test; REGISTER_TILING_FOR_TILINGKEY for {listing(self.registered)}"
        text = f"key tests for {listing(self.named)}"
        if self.else_all is not None:
            text += f"; a final else at {self.else_all} takes every other key"
        if self.unread:
            text += f"; {len(self.unread)} key use(s) not followed ({self.unread[0]})"
        return text

    def _compiled_out(self) -> str:
        return ", ".join(map(str, self.compiled_out[:3])) + (" ..." if len(self.compiled_out) > 3 else "")

    def why_not(self, key: int) -> str:
        """Why a key is not handled, for the error."""
        if self.dispatch == "template":
            assert self.template is not None
            try:
                values = tpl.decode(key, list(self.template.arguments), str(self.template.header))
            except OpTilingError as exc:
                return str(exc)
            return (f"it decodes to {tpl.instance_name('instance', values)}, which no ASCENDC_TPL_ARGS_SEL of "
                    f"{self.template.header} selects: the op compiler builds no binary for it")
        if self.dispatch == "registered":
            return f"REGISTER_TILING_FOR_TILINGKEY registers {listing(self.registered)} only"
        if self.dispatch == "compiled-out":
            return (f"every key test of the source ({self._compiled_out()}) is in an #if branch this binary does not "
                    "take, so the kernel runs no branch and would leave its outputs untouched")
        return (f"its key tests name {listing(self.named)} and no final else takes other keys: the kernel would "
                "leave its outputs untouched")


def read(build: kernel.KernelBuild, product) -> KernelKeys:
    """The keys the kernel of a build handles (cached per build in this process)."""
    return _read(build, products.get(product).id)


@functools.lru_cache(maxsize=64)
def _read(build: kernel.KernelBuild, product_id: str) -> KernelKeys:
    include_dirs, defines = kernel.compile_path(build, product_id)
    found = read_source(build.source, include_dirs, defines, build.tiling_header)
    info = kernel.source_info(build, product_id)
    entry = info.kernel(kernel.entry_of([k.name for k in info.kernels], found.source, _op_dir(build)))
    if entry is not None and entry.template is not None:
        found.template = kernel.template_of(build, product_id, f"{found.source}: the kernel is a template",
                                            "the keys it handles")
    return found


def read_source(source: Path, include_dirs, defines: dict, forced: Path | None = None) -> KernelKeys:
    """The key tests of a kernel source preprocessed with these folders and macros (and a force-included
    header), in the op compiler's precompile mode with the key marked (module docstring)."""
    defines = {**defines, "__CHECK_FEATURE_AT_PRECOMPILE": None, "TILING_KEY_VAR": MARKER}
    text = _preprocess(source, include_dirs, defines, forced)
    user, where, files = _own_lines(text, kernel.library_roots())
    found = read_text(user, where, _original(source))
    no_test = found.dispatch == "none"      # then: were there tests the #if branches removed?
    for path in files:
        own = Path(path).read_text(errors="replace")
        for m in _DIRECTIVE_TEST.finditer(own):
            line = own.count("\n", 0, m.start()) + 1
            found.unread.append(f"{_original(path)}:{line}: {m.group(0).strip()} (a preprocessor test of the key)")
        if no_test:
            found.compiled_out += [Site(_original(path), own.count("\n", 0, m.start()) + 1)
                                   for m in _SOURCE_TEST.finditer(own)]
    return found


def read_text(text: str, where=None, source: str = "<source>") -> KernelKeys:
    """The key tests, registrations and else-alls of preprocessed text (the marker in place of the key).
    `where(offset) -> Site` places a finding; by default, lines of `text` in `source`."""
    where = where or (lambda pos: Site(source, text.count("\n", 0, pos) + 1))
    found = KernelKeys(source)
    constants = {m.group(1): m.group(2) for m in _CONSTANT.finditer(text)}
    for m in re.finditer(r"\b" + MARKER + r"\b", text):
        test = _TEST.match(text, m.start())
        value = _operand(text, test.end()) if test else None
        key = _fold(value, constants) if value is not None else None
        if key is None:
            found.unread.append(f"{where(m.start())}: {_snippet(text, m.start())}")
            continue
        found.named.setdefault(key, where(m.start()))
        tail = _final_else(text, m.start())
        if tail is not None and found.else_all is None:
            found.else_all = where(tail)
    for m in _REGISTERED.finditer(text):
        for k in _REGISTERED_KEY.finditer(m.group(1)):
            key = _fold(k.group(1), constants)
            if key is None:
                found.unread.append(f"{where(m.start())}: REGISTER_TILING_FOR_TILINGKEY(\"{m.group(1)}\")")
            else:
                found.registered.setdefault(key, where(m.start()))
    return found


# ---- the preprocessor's output ------------------------------------------------------------------------

def _preprocess(source: Path, include_dirs, defines: dict, forced: Path | None) -> str:
    from ascgen.runtime import build as builds
    flags = ["-E", "-x", "c++", "-std=c++17", *(f"-I{d}" for d in include_dirs),
             *(f"-D{k}" if v is None else f"-D{k}={v}" for k, v in defines.items()),
             *(["-include", str(forced)] if forced is not None else [])]
    with tempfile.TemporaryDirectory(prefix="ascgen-keys-") as tmp:
        out = Path(tmp) / "kernel.ii"
        proc = subprocess.run([builds.find_preprocessor(), *flags, str(source), "-o", str(out)],
                              capture_output=True, text=True, errors="replace", timeout=300)
        if proc.returncode != 0:
            first = [ln for ln in proc.stderr.splitlines() if "error" in ln][:3] or proc.stderr.splitlines()[:3]
            raise OpTilingError(f"{_original(source)}: preprocessing the kernel to read its tiling keys failed "
                                "(the same include path and macros as its build): " + " | ".join(first))
        return out.read_text(errors="replace")


def _own_lines(text: str, library: tuple[str, ...]):
    """The op's own lines of preprocessed text, a `where(offset) -> Site` for them, and its files."""
    keep, index, files = [], [], set()
    offset, cur_file, cur_line, own = 0, "", 1, False
    for raw in text.split("\n"):
        m = _LINE_MARKER.match(raw)
        if m:
            cur_line, cur_file = int(m.group(1)), m.group(2)
            own = "3" not in m.group(3).split() and not cur_file.startswith("<") and _own_file(cur_file, library)
            if own:
                files.add(cur_file)
            continue
        if own:
            index.append((offset, cur_file, cur_line))
            keep.append(raw)
            offset += len(raw) + 1
        cur_line += 1
    offsets = [o for o, _, _ in index]

    def where(pos: int) -> Site:
        import bisect
        k = max(bisect.bisect_right(offsets, pos) - 1, 0)
        return Site(_original(index[k][1]), index[k][2]) if index else Site("<source>", 1)
    return "\n".join(keep), where, sorted(files)


@functools.lru_cache(maxsize=4096)
def _own_file(path: str, library: tuple[str, ...]) -> bool:
    """Whether a file of the line markers is the op's (not under the library's or ascgen's folders); once per
    file, as a kernel's output has thousands of markers."""
    real = os.path.realpath(path)
    return not any(real.startswith(root + os.sep) for root in library)


def _original(path) -> str:
    """A file of the build's kernel tree by its original path (the tree links to the op's files)."""
    return os.path.realpath(path)


def _op_dir(build: kernel.KernelBuild) -> Path:
    """The op folder of a build: its kernel source's op_kernel folder's parent (through the tree's link)."""
    here = Path(_original(build.source)).parent
    while here.name != "op_kernel" and here.parent != here:
        here = here.parent
    return here.parent


# ---- one key test ---------------------------------------------------------------------------------

def _operand(text: str, pos: int) -> str | None:
    """The operand of `== ...` at pos: a parenthesized expression, or one literal or name."""
    if pos < len(text) and text[pos] == "(":
        end = _match(text, pos, "(", ")")
        return text[pos + 1:end] if end is not None else None
    m = re.compile(r"[\w:.]+").match(text, pos)
    return m.group(0) if m else None


def _fold(expr: str, constants: dict, depth: int = 0) -> int | None:
    """An integer: the expression after preprocessing, or a constant the op's own text defines."""
    try:
        return tpl.integer(expr, "")
    except OpTilingError:
        pass
    if depth > 4:
        return None
    names = {n: constants.get(n.split("::")[-1]) for n in _IDENT.findall(expr)}
    if not names or any(v is None for v in names.values()):
        return None
    folded = _IDENT.sub(lambda m: f"({names[m.group(0)]})", expr)
    return _fold(folded, constants, depth + 1) if folded != expr else None


def _snippet(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    return " ".join(text[line_start:line_end if line_end >= 0 else None].replace(MARKER, "TILING_KEY_VAR").split())[:120]


# ---- the if / else chain around a test ------------------------------------------------------------------

def _final_else(text: str, pos: int) -> int | None:
    """The offset of the final `else` of the if / else-if chain whose condition holds the test at pos, when
    that else takes keys (rules in the module docstring); else None."""
    cond = _enclosing_if(text, pos)
    if cond is None:
        return None
    end = _match(text, cond, "(", ")")
    while end is not None:
        body_end = _statement_end(text, end + 1)
        if body_end is None:
            return None
        m = re.compile(r"\s*else\b\s*").match(text, body_end + 1)
        if not m:
            return None
        nxt = re.compile(r"if\s*(?:constexpr\s*)?\(").match(text, m.end())
        if nxt:
            end = _match(text, nxt.end() - 1, "(", ")")
            continue
        tail_end = _statement_end(text, m.end() - 1)
        body = text[m.end():(tail_end or m.end()) + 1].strip()
        body = body[1:-1] if body.startswith("{") else body
        if MARKER in body or _ONLY_RETURNS.match(body):
            return None
        return m.start() + len(m.group(0)) - len(m.group(0).lstrip())
    return None


def _enclosing_if(text: str, pos: int) -> int | None:
    """The offset of the `(` of the if condition holding pos, or None (a test outside an if condition)."""
    depth = 0
    for i in range(pos - 1, -1, -1):
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth:
                depth -= 1
            elif re.search(r"\bif\s*(?:constexpr\s*)?$", text[max(0, i - 30):i]):
                return i
        elif c in ";{}" and depth == 0:
            return None
    return None


def _statement_end(text: str, pos: int) -> int | None:
    """The offset of the last character of the statement starting at or after pos: a `{...}` block's `}`,
    else its `;` (an `if` statement's own else chain is not followed: rare as a branch body)."""
    m = re.compile(r"\s*").match(text, pos)
    start = m.end() if m else pos
    if start < len(text) and text[start] == "{":
        return _match(text, start, "{", "}")
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == ";" and depth == 0:
            return i
    return None


def _match(text: str, pos: int, open_: str, close: str) -> int | None:
    """The offset of the bracket closing the one at pos (string literals skipped)."""
    depth, i, n = 0, pos, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _skip_literal(text: str, i: int) -> int:
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def listing(keys) -> str:
    listed = sorted(keys)
    return ", ".join(map(str, listed[:24])) + (f" ... ({len(listed)} keys)" if len(listed) > 24 else "") or "none"


def _instance_keys(template: tpl.Template | None) -> list[int] | None:
    """The keys of the instances ASCENDC_TPL_SEL selects (EncodeTilingKey), or None past ENUMERATE_LIMIT."""
    if template is None:
        return None
    args = list(template.arguments)
    keys: set[int] = set()
    selections = template.selections or ({a.name: set(a.values) for a in args},)
    for sel in selections:
        choices = [sorted(sel.get(a.name, set(a.values)) & set(a.values) if a.kind == "UINT"
                          else sel.get(a.name, set(a.values))) for a in args]
        count = 1
        for c in choices:
            count *= len(c)
        if count + len(keys) > ENUMERATE_LIMIT:
            return None
        for combo in itertools.product(*choices):
            keys.add(_encode(args, combo))
    return sorted(keys)


def _encode(args: list[tpl.Argument], values) -> int:
    """EncodeTilingKey: each value in its field from bit 0 up (a UINT's field holds its index)."""
    key, shift = 0, 0
    for arg, value in zip(args, values):
        key |= (arg.values.index(value) if arg.kind == "UINT" else value) << shift
        shift += arg.width
    return key
