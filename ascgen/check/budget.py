"""What `ascgen check` refuses to analyse, said up front with a clear reason instead of a crash or a hang.

The path model walks statements and conditions recursively (one Python frame chain per nesting level),
so a source nested deeper than MAX_NESTING is refused before parsing rather than failing with a
RecursionError halfway, possibly inside a libclang callback that swallows it. A giant source (the user's
own files over `config.check_max_source_bytes()`) is refused before libclang spends minutes and
gigabytes on it, and the path analysis stops after `config.check_time_limit()` CPU seconds.
"""
from __future__ import annotations

import os
import re
import time

from ascgen import config
from ascgen.errors import AscgenError

# Brackets of all kinds ((, [, {) open at once. Production kernels nest under 30; the model handles
# about 200 nested `if` blocks in Python's default recursion limit, so this keeps a 2x margin.
MAX_NESTING = 100

# Comments, string and character literals (their brackets do not count), then single brackets.
_SCAN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[][(){}]', re.DOTALL)
_OPEN = frozenset("([{")


def check_file_size(path, name: str) -> None:
    """Refuse a giant main file before reading it (`name`: how the user gave it)."""
    limit = config.check_max_source_bytes()
    try:
        size = os.path.getsize(path)
    except OSError:
        return                      # the parse names the missing or unreadable file
    if size > limit:
        raise AscgenError(_too_big(name, size, limit))


def _too_big(name, size: int, limit: int) -> str:
    return (f"{name}: the source and its own headers hold {size / (1 << 20):.1f} MiB, more than the "
            f"{limit >> 20} MiB ascgen check analyses (ASCGEN_CHECK_MAX_SOURCE_MB raises the limit); "
            "not analysed")


def check_sources(texts: dict[str, str], path, main: str) -> None:
    """Raise AscgenError when the user's files of `path` (file -> text, `main` the name of `path`'s own
    entry there) are too big or too deeply nested."""
    limit = config.check_max_source_bytes()
    total = sum(len(text) for text in texts.values())
    if total > limit:
        raise AscgenError(_too_big(path, total, limit))
    for name, text in texts.items():
        depth, line = max_nesting(text)
        if depth > MAX_NESTING:
            raise AscgenError(
                f"{path if name == main else name}:{line}: brackets nested {depth} deep here, more than the {MAX_NESTING} levels "
                "ascgen check follows; not analysed (move the inner blocks into functions)")


def max_nesting(text: str) -> tuple[int, int]:
    """(deepest bracket nesting, the line where it is first reached)."""
    depth = deepest = 0
    at = 0
    for m in _SCAN.finditer(text):
        token = m.group()
        if len(token) != 1:
            continue
        if token in _OPEN:
            depth += 1
            if depth > deepest:
                deepest, at = depth, m.start()
        elif depth:
            depth -= 1
    return deepest, text.count("\n", 0, at) + 1


class Deadline:
    """The CPU time the path analysis of one source may take (CPU, not wall: a loaded machine must not
    turn a normal file into a refusal)."""

    def __init__(self, path, seconds: float | None = None):
        self.path = path
        self.seconds = config.check_time_limit() if seconds is None else seconds
        self.end = time.process_time() + self.seconds
        self.calls = 0

    def check(self) -> None:
        self.calls += 1
        if self.calls % 256 == 0 and time.process_time() > self.end:
            raise AscgenError(
                f"{self.path}: the path analysis took more than {self.seconds:g} CPU seconds "
                "(ASCGEN_CHECK_TIME_LIMIT raises the limit); not analysed")
