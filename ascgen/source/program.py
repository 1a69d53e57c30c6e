"""Facts about a host program's `main`, read from its text.

The runtime renames a program's `main` (runtime/build/wrapper.py), and a renamed `main` loses the one rule only
`main` has: flowing off its end returns 0. For any other function that is undefined behaviour, and g++ at
-O2 takes it at its word: the end of the body becomes unreachable and control runs into whatever code
the compiler placed next (batch_matmul's host main ran into an exception cleanup path and freed a string
twice). host_rewrite.py therefore puts the `return 0;` back, where `main_body_end` says.
"""
from __future__ import annotations

import re

from ascgen.source.signature import strip_comments

_MAIN = re.compile(r"\bmain\s*\(")
# Preprocessor lines, continuation lines included (their text may hold unbalanced braces).
_DIRECTIVE = re.compile(r"^[ \t]*#(?:\\\n|[^\n])*", re.M)
_ENDS_WITH_RETURN = re.compile(r"(?:^|[;{}])\s*return\b[^;{}]*;\s*$")


def _code(text: str) -> str:
    """The text with comments, literal contents and directives blanked; offsets and newlines kept."""
    return _DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), strip_comments(text))


def _closing(code: str, open_at: int, open_ch: str, close_ch: str) -> int:
    """Offset of the bracket closing the one at code[open_at], or -1."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == open_ch:
            depth += 1
        elif code[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    return -1


def main_body_end(text: str) -> int | None:
    """Offset of the `}` that closes the body of the file-scope `main` definition, or None (no definition,
    a `void main`, or brackets that do not balance: nothing to do, the compiler will say)."""
    code = _code(text)
    for m in _MAIN.finditer(code):
        if code.count("{", 0, m.start()) != code.count("}", 0, m.start()):
            continue                                    # inside a body or a namespace: not the program's main
        if re.search(r"(?:\bvoid|[.:>,(=])\s*$", code[max(0, m.start() - 40):m.start()]):
            continue                                    # `void main` (left to the compiler), a call, a member
        close_paren = _closing(code, m.end() - 1, "(", ")")
        if close_paren < 0:
            return None
        body = re.compile(r"[{;]").search(code, close_paren + 1)
        if body is None or body.group(0) == ";":
            continue                                    # a declaration
        end = _closing(code, body.start(), "{", "}")
        return end if end >= 0 else None
    return None


def with_main_return(text: str) -> str:
    """The text with `return 0;` just before the closing brace of `main`'s body (same line, so every line
    number stays), as the language gives `main` and nothing else. Unchanged when there is no definition."""
    end = main_body_end(text)
    if end is None or _ENDS_WITH_RETURN.search(_code(text[:end])):
        return text                                      # a body that ends in a return keeps its bytes
    return text[:end] + "return 0; " + text[end:]
