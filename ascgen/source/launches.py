"""Host-side kernel launches, `kernel<<<blocks, l2ctrl, stream>>>(args)`: the one reader of them.

The runtime rewrites each launch into a call g++ can compile (runtime/host_rewrite.py); the checker
blanks them, since they are not C++ libclang can parse (check/parse.py). Comments and string literals are
never taken for launches.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ascgen.source.signature import strip_comments

_IDENT_END = re.compile(r"[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Launch:
    line: int             # 1-based line of the `<<<`
    callee_start: int     # offset of the callee expression (`ns::name<T, 4>`), -1 if it cannot be read
    open: int             # offset of `<<<`
    close: int            # offset of the matching `>>>`, -1 if there is none before a `;`

    @property
    def readable(self) -> bool:
        return self.callee_start >= 0 and self.close >= 0

    @property
    def end(self) -> int:
        """Offset just past `>>>`."""
        return self.close + 3


def find_launches(text: str) -> list[Launch]:
    """Every `<<<...>>>` launch in the source, in order (offsets into `text`)."""
    clean = strip_comments(text)
    found, last = [], 0
    for m in re.finditer(r"<<<", clean):
        if m.start() < last:
            continue
        launch = Launch(clean.count("\n", 0, m.start()) + 1, _callee_start(clean, m.start()), m.start(),
                        _config_end(clean, m.end()))
        found.append(launch)
        last = launch.end if launch.close >= 0 else m.end()
    return found


def has_launches(text: str) -> bool:
    return "<<<" in strip_comments(text)


def _callee_start(clean: str, end: int) -> int:
    """Start of the callee expression that ends at `end` (exclusive): `ns::name<T, 4>`."""
    i = end
    while i > 0 and clean[i - 1] in " \t\n":
        i -= 1
    if i > 0 and clean[i - 1] == ">":                    # template arguments: match '<' backwards
        depth = 0
        j = i - 1
        while j >= 0:
            if clean[j] == ">":
                depth += 1
            elif clean[j] == "<":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        i = j
        while i > 0 and clean[i - 1] in " \t":
            i -= 1
    while True:                                          # identifier, possibly qualified with ::
        m = _IDENT_END.search(clean, 0, i)
        if not m:
            return -1
        i = m.start()
        if clean[max(0, i - 2):i] == "::":
            i -= 2
            continue
        return i


def _config_end(clean: str, start: int) -> int:
    """Index of the `>>>` closing the launch configuration that starts at `start`."""
    depth = 0
    i = start
    while i < len(clean):
        if clean.startswith(">>>", i) and depth == 0:
            return i
        c = clean[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";":
            break
        i += 1
    return -1
