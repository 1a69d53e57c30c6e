"""The path state shared by the AST interpreter (paths) and the token statement reader (tokstmt):
the state key, its witness steps, and the flow of states out of a statement."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ascgen.check import api
from ascgen.check.tokens import Tok


@dataclass(frozen=True)
class Step:
    """One decision or call on a path, for witnesses and notes."""
    file: str
    line: int
    col: int
    text: str
    decision: bool = True        # a branch/return/loop decision (False: a task-sync call or a call site)
    call: bool = False           # the call of one of the kernel's own functions (for "reached through")


@dataclass(frozen=True)
class Key:
    waits: int                   # 0, 1, 2 (= two or more)
    sets: int
    core: str                    # "*" both core types, "aiv", "aic"
    keys: frozenset | None       # TilingKeys still possible, None when the kernel has none

    def bump(self, kind: str) -> "Key":
        if kind == api.WAIT:
            return Key(min(self.waits + 1, 2), self.sets, self.core, self.keys)
        return Key(self.waits, min(self.sets + 1, 2), self.core, self.keys)

    def count(self, kind: str) -> int:
        return self.waits if kind == api.WAIT else self.sets


States = dict          # Key -> tuple[Step, ...] (the witness)


def merge(into: States, states: States) -> None:
    for key, witness in states.items():
        if key not in into or len(witness) < len(into[key]):
            into[key] = witness


@dataclass
class Flow:
    fall: States = field(default_factory=dict)
    ret: States = field(default_factory=dict)
    brk: States = field(default_factory=dict)
    cont: States = field(default_factory=dict)


def step(tok: Tok, file: str, text: str, decision: bool = True) -> Step:
    return Step(file, tok.line, tok.col, text, decision)


def index_at(toks: list[Tok], offset: int) -> int:
    """Index of the first token at or after `offset` (tokens are in offset order)."""
    return bisect.bisect_left(toks, offset, key=lambda t: t.offset)
