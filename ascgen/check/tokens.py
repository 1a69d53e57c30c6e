"""Spelled tokens of the user's files, and the calls written in a run of tokens.

The checker reads calls from tokens rather than from resolved AST nodes: when headers are missing, clang
keeps the statements but loses the callee (a RecoveryExpr with no name), while the tokens still say
`op.Process()` or `AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX>()`. Macros stay as written
(`TILING_KEY_IS(2)`, `ASCEND_IS_AIV`), which is what the messages should quote anyway.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import NamedTuple


class Tok(NamedTuple):
    """One token (a named tuple: files have hundreds of thousands of them)."""
    kind: str        # "id" | "kw" | "punct" | "lit"
    text: str
    offset: int
    line: int
    col: int
    file: str = ""   # set only for tokens of macro bodies (they come from the macro's definition)


class FileTokens:
    """All tokens of one file, sliceable by byte offsets (cursor extents)."""

    def __init__(self, toks: list[Tok]):
        self.toks = toks
        self.offsets = [t.offset for t in toks]

    def index_at(self, offset: int) -> int:
        return bisect.bisect_left(self.offsets, offset)

    def between(self, start: int, end: int) -> list[Tok]:
        """Tokens starting in [start, end)."""
        return self.toks[self.index_at(start):self.index_at(end)]


_KINDS = {"IDENTIFIER": "id", "KEYWORD": "kw", "PUNCTUATION": "punct", "LITERAL": "lit"}


def directive_lines(text: str) -> set[int]:
    """Line numbers of preprocessor directives, continuation lines included."""
    lines, continued = set(), False
    for number, line in enumerate(text.splitlines(), start=1):
        if continued or line.lstrip().startswith("#"):
            lines.add(number)
            continued = line.rstrip().endswith("\\")
    return lines


def skipped_ranges(tu, filename: str) -> list[tuple[int, int]]:
    """Byte ranges of code the preprocessor skipped (#if 0, the false side of #ifdef)."""
    import ctypes
    from clang import cindex

    class RangeList(ctypes.Structure):
        _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(cindex.SourceRange))]

    lib = cindex.conf.lib
    try:
        fn = lib.clang_getSkippedRanges
    except AttributeError:
        return []
    fn.argtypes = [cindex.TranslationUnit, cindex.File]
    fn.restype = ctypes.POINTER(RangeList)
    found = fn(tu, cindex.File.from_name(tu, filename))
    if not found:
        return []
    out = [(found.contents.ranges[i].start.offset, found.contents.ranges[i].end.offset)
           for i in range(found.contents.count)]
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(RangeList)]
    lib.clang_disposeSourceRangeList(found)
    return out


KEYWORDS = frozenset("""alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class
    const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do
    double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept nullptr operator private protected public register reinterpret_cast requires return
    short signed sizeof static static_assert static_cast struct switch template this thread_local throw true try
    typedef typeid typename union unsigned using virtual void volatile wchar_t while""".split())

_TRIVIA = rb"(?>(?:[ \t\r\n\f\v]+|\\\n|//[^\n]*|/\*.*?\*/)*)"   # atomic: no backtracking
_LITERAL = (rb"(?:u8|u|U|L)?R\"([^(\s]*)\(.*?\)\2\""
            rb"|(?:u8|u|U|L)?\"(?:\\.|[^\"\\\n])*\""
            rb"|(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*'"
            rb"|\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.']|\\')*")
_IDENT = rb"[A-Za-z_$\x80-\xff][0-9A-Za-z_$\x80-\xff]*"
_PUNCT = (rb">>=|<<=|->\*|\.\.\.|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^="
          rb"|\#\#|\.\*|[^ \t\r\n\f\v]")
# One match per token, its leading whitespace and comments skipped: group 1 a literal (group 2 is a raw
# string's delimiter), group 3 an identifier or keyword, group 4 punctuation.
_LEX_BYTES = re.compile(_TRIVIA + rb"(?:(" + _LITERAL + rb")|(" + _IDENT + rb")|(" + _PUNCT + rb"))", re.DOTALL)
_LEX_TEXT = re.compile(_LEX_BYTES.pattern.decode("latin-1"), re.DOTALL)


def lex(data: bytes, base: int = 0, line_starts: list[int] | None = None) -> list[Tok]:
    """C++ tokens of a file's bytes, with clang's byte offsets and 1-based line/byte columns.

    Our own lexer (one regular expression) instead of clang's token API: the libclang bindings cost a
    foreign call per token, which made tokenizing a large operator header take seconds."""
    # Latin-1 maps each byte to one character, so str matching (faster than bytes) keeps byte offsets;
    # the rare token with non-ASCII bytes is decoded as UTF-8 afterwards.
    ascii_only = data.isascii()
    subject = data.decode("latin-1")
    pattern = _LEX_TEXT
    if line_starts is None:                        # lexing a whole file
        line_starts = newline_offsets(subject)
    toks = []
    find_line = bisect.bisect_right
    new_tok = tuple.__new__          # skips the named tuple's Python-level __new__ (a third of the time)
    for m in pattern.finditer(subject):
        group = m.lastindex or 0          # every alternative of the pattern is a group
        if group == 2:
            group = 1
        start = m.start(group) + base
        text = m.group(group)
        if not ascii_only and not text.isascii():
            text = text.encode("latin-1").decode("utf-8", errors="replace")
        if group == 1:
            kind = "lit"
        elif group == 3:
            kind = "kw" if text in KEYWORDS else "id"
        else:
            kind = "punct"
        line = find_line(line_starts, start)
        toks.append(new_tok(Tok, (kind, text, start, line, start - line_starts[line - 1] + 1, "")))
    return toks


def newline_offsets(text) -> list[int]:
    """Offsets where each line starts (line n starts at [n - 1])."""
    starts, newline = [0], "\n" if isinstance(text, str) else b"\n"
    pos = text.find(newline)
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find(newline, pos + 1)
    return starts


class LazyFile:
    """The code tokens of one file, lexed range by range on demand: a large operator's headers hold far
    more code than the kernel being checked runs, and lexing is the costliest step after clang."""

    def __init__(self, tu, filename: str, text: str | None = None):
        self.data = text.encode("utf-8") if text is not None else open(filename, "rb").read()
        self.line_starts = newline_offsets(self.data)
        self.directives = directive_lines(self.data.decode("utf-8", errors="replace"))
        self.skipped = skipped_ranges(tu, filename)
        self._ranges: dict = {}
        self._lexed: list = []          # (start, end, tokens) of ranges lexed, sorted by start

    def between(self, start: int, end: int) -> list[Tok]:
        """Code tokens in [start, end) (cursor extents start and end at token boundaries). A range
        inside one already lexed (a statement inside its function) is sliced from it, not lexed again."""
        key = (start, end)
        if key not in self._ranges:
            self._ranges[key] = self._slice(start, end)
        return self._ranges[key]

    def _slice(self, start: int, end: int) -> list[Tok]:
        i = bisect.bisect_right(self._lexed, (start, float("inf")))
        for s, e, toks in reversed(self._lexed[max(0, i - 8):i]):
            if s <= start and end <= e:
                lo = bisect.bisect_left(toks, start, key=lambda t: t.offset)
                hi = bisect.bisect_left(toks, end, key=lambda t: t.offset)
                return toks[lo:hi]
        toks = [t for t in lex(self.data[start:end], start, self.line_starts) if t.line not in self.directives]
        if self.skipped:
            toks = [t for t in toks if not any(a <= t.offset < b for a, b in self.skipped)]
        bisect.insort(self._lexed, (start, end, toks), key=lambda r: (r[0], r[1]))
        return toks

    def after(self, offset: int, count: int) -> list[Tok]:
        """The first `count` code tokens at or after `offset`."""
        window = 256
        while True:
            toks = self.between(offset, min(offset + window, len(self.data)))
            if len(toks) > count or offset + window >= len(self.data):
                return toks[:count]
            window *= 4


def tokenize(tu, filename: str, text: str | None = None) -> FileTokens:
    """The code tokens of a file (or of the edited text clang parsed for it): no comments, no
    directives, nothing from preprocessor-skipped blocks."""
    data = text.encode("utf-8") if text is not None else open(filename, "rb").read()
    directives = directive_lines(data.decode("utf-8", errors="replace"))
    skipped = skipped_ranges(tu, filename)
    toks = [t for t in lex(data) if t.line not in directives]
    if skipped:
        toks = [t for t in toks if not any(a <= t.offset < b for a, b in skipped)]
    return FileTokens(toks)


@dataclass(frozen=True)
class Call:
    """One call written in the source: `qualifier::name<targs>(args)` or `obj.name(args)`."""
    name: str
    tok: Tok                              # the name token: where diagnostics point
    qualifier: tuple[str, ...]            # ("AscendC",) for AscendC::DataCopy
    obj: str | None                       # nearest identifier of the object for `x.f()` / `x[i].f()` / `p->f()`
    template_args: tuple[tuple[Tok, ...], ...] | None
    args: tuple[tuple[Tok, ...], ...]
    assigned: bool                        # `name(...) = value` (GlobalTensor operator() as a store)
    end_offset: int                       # offset of the closing parenthesis
    end_index: int = 0                    # its index in the scanned tokens (evaluation order)
    declared_as: str | None = None        # `Type name(args)`: the type word before the name (a constructor)

    def text(self, limit: int = 60) -> str:
        """The call as written, shortened: for messages."""
        head = "::".join((*self.qualifier, self.name))
        if self.obj:
            head = f"{self.obj}.{self.name}"
        inner = ", ".join(join(a) for a in self.args)
        if len(inner) > limit:
            inner = inner[:limit - 3] + "..."
        return f"{head}({inner})"


_NO_SPACE_AFTER = {"(", "[", ".", "->", "::", "!", "~"}
_NO_SPACE_BEFORE = {")", "]", ",", ";", ".", "->", "::", "["}


def join(toks) -> str:
    """Readable source text of a token run: `DataCopy(yGm[i * TILE], o, TILE)`."""
    out, prev = "", None
    for t in toks:
        if prev is not None and prev.text not in _NO_SPACE_AFTER and t.text not in _NO_SPACE_BEFORE \
                and not (t.text == "(" and prev.kind in ("id", "kw") and prev.text not in ("if", "while", "for", "switch")):
            out += " "
        out += t.text
        prev = t
    return out


_STOP = {";", "{", "}", "&&", "||"}


def match_angle(toks: list[Tok], i: int) -> int | None:
    """Index of the `>` closing the `<` at toks[i] if it looks like a template argument list, else None."""
    depth, parens = 0, 0
    for j in range(i, len(toks)):
        t = toks[j].text
        if t in _STOP and parens == 0:
            return None
        if t in ("(", "["):
            parens += 1
        elif t in (")", "]"):
            parens -= 1
            if parens < 0:
                return None
        elif parens == 0 and t == "<":
            depth += 1
        elif parens == 0 and t in (">", ">>"):
            depth -= len(t)
            if depth <= 0:
                return j
    return None


def match_paren(toks: list[Tok], i: int) -> int | None:
    """Index of the bracket closing the one at toks[i]."""
    open_, close = toks[i].text, {"(": ")", "[": "]", "{": "}"}[toks[i].text]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return None


def split_args(toks: list[Tok]) -> tuple[tuple[Tok, ...], ...]:
    """Split the tokens between a call's parentheses at top-level commas."""
    if not toks:
        return ()
    args, depth = [], 0
    current: list = []
    for t in toks:
        if t.text in ("(", "[", "{", "<"):
            depth += 1
        elif t.text in (")", "]", "}", ">"):
            depth -= 1
        elif t.text == ">>":
            depth -= 2
        if t.text == "," and depth == 0:
            args.append(tuple(current))
            current = []
        else:
            current.append(t)
    args.append(tuple(current))
    return tuple(args)


def _qualifier(toks: list[Tok], i: int) -> tuple[str, ...]:
    names = []
    j = i - 1
    while j >= 1 and toks[j].text == "::":
        k = j - 1
        if toks[k].text == ">":          # X<T>::f: skip back over the template arguments
            depth = 0
            while k >= 0:
                depth += toks[k].text == ">"
                depth -= toks[k].text == "<"
                if depth == 0:
                    break
                k -= 1
            k -= 1
        if k < 0 or toks[k].kind != "id":
            break
        names.append(toks[k].text)
        j = k - 1
    return tuple(reversed(names))


def _object(toks: list[Tok], i: int) -> str | None:
    """The identifier naming the object of a member call (`xGm[i].GetValue` -> xGm, `this->op.f` -> op)."""
    j = i - 1
    if j < 0 or toks[j].text not in (".", "->"):
        return None
    j -= 1
    while j >= 0 and toks[j].text in ("]", ")"):
        depth = 0
        while j >= 0:
            depth += toks[j].text in ("]", ")")
            depth -= toks[j].text in ("[", "(")
            if depth == 0:
                break
            j -= 1
        j -= 1
    if j >= 0 and toks[j].kind in ("id", "kw"):
        return toks[j].text
    return None


def calls_in(toks: list[Tok]) -> list[Call]:
    """Every call written in `toks`, in evaluation order (a call after the calls in its arguments)."""
    found = []
    for i, t in enumerate(toks):
        if t.kind != "id":
            continue
        j, targs = i + 1, None
        if j < len(toks) and toks[j].text == "<":
            close = match_angle(toks, j)
            if close is None or close + 1 >= len(toks) or toks[close + 1].text != "(":
                continue
            targs = split_args(toks[j + 1:close])
            j = close + 1
        if j >= len(toks) or toks[j].text != "(":
            continue
        close = match_paren(toks, j)
        if close is None:
            continue
        assigned = close + 1 < len(toks) and toks[close + 1].text == "="
        found.append(Call(t.text, t, _qualifier(toks, i), _object(toks, i), targs,
                          split_args(toks[j + 1:close]), assigned, toks[close].offset, close,
                          _type_before(toks, i)))
    found.sort(key=lambda c: c.end_index)
    return found


def _type_before(toks: list[Tok], i: int) -> str | None:
    """The identifier right before toks[i], skipping one `<...>`: the type in `Type<T> name(args)`."""
    k = i - 1
    if k >= 0 and toks[k].text == ">":
        depth = 0
        while k >= 0:
            depth += toks[k].text == ">"
            depth -= toks[k].text == "<"
            if depth == 0:
                break
            k -= 1
        k -= 1
    return toks[k].text if k >= 0 and toks[k].kind == "id" else None


def arg_root(arg: tuple[Tok, ...]) -> str | None:
    """The variable an argument expression is based on: `xGm[i * n]` -> xGm, `this->yGm` -> yGm."""
    last = None
    depth = 0
    for t in arg:
        if t.text in ("[", "(") and depth == 0 and last is not None:
            break
        if t.text in ("(", "["):
            depth += 1
        elif t.text in (")", "]"):
            depth -= 1
        elif t.kind == "id" and depth == 0:
            last = t.text
    return last


def int_value(arg: tuple[Tok, ...], constants: dict[str, int]) -> int | None:
    """The value of a literal or a named integer constant argument, else None."""
    toks = [t for t in arg if t.text not in ("(", ")")]
    if len(toks) >= 2 and toks[-2].text == "::":
        toks = toks[-1:]
    if len(toks) == 2 and toks[0].text == "-":
        inner = int_value((toks[1],), constants)
        return None if inner is None else -inner
    if len(toks) != 1:
        return None
    text = toks[0].text
    if toks[0].kind == "lit":
        try:
            return int(text.rstrip("uUlL"), 0)
        except ValueError:
            return None
    return constants.get(text)


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None      # None: object-like
    body: tuple[Tok, ...]


def read_macro(cursor) -> Macro | None:
    """A #define from a MACRO_DEFINITION cursor (needs the detailed preprocessing record)."""
    raw = list(cursor.get_tokens())
    if not raw:
        return None
    file = cursor.location.file.name if cursor.location.file else ""
    toks = [Tok(_KINDS.get(t.kind.name, "punct"), t.spelling, t.location.offset, t.location.line,
                t.location.column, file) for t in raw if t.kind.name != "COMMENT"]
    name = toks[0]
    if len(toks) > 1 and toks[1].text == "(" and toks[1].offset == name.offset + len(name.text):
        close = match_paren(toks, 1)
        if close is None:
            return None
        params = tuple(t.text for t in toks[2:close] if t.text != ",")
        return Macro(name.text, params, tuple(toks[close + 1:]))
    return Macro(name.text, None, tuple(toks[1:]))


def expand(macro: Macro, call: Call) -> list[Tok]:
    """The body of a function-like macro with its parameters replaced by the call's argument tokens
    (stringizing dropped, token pasting left as separate tokens: enough to see the calls it makes)."""
    params = list(macro.params or ())
    args = list(call.args)
    values: dict[str, list[Tok]] = {}
    for i, p in enumerate(params):
        if p == "...":
            rest = []
            for j, a in enumerate(args[i:]):
                if j:
                    rest.append(Tok("punct", ",", a[0].offset if a else 0, 0, 0))
                rest.extend(a)
            values["__VA_ARGS__"] = rest
        else:
            values[p] = list(args[i]) if i < len(args) else []
    out: list[Tok] = []
    for t in macro.body:
        if t.text in ("#", "##"):
            continue
        out.extend(values.get(t.text, [t]) if t.kind == "id" else [t])
    return out
