"""The path state shared by the AST interpreter (paths) and the token statement reader (tokstmt):
the state key, its witness steps, and the flow of states out of a statement."""
from __future__ import annotations

import bisect
import dataclasses
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
    # Pre-wait hazards on this path (event ids: GM writes before any wait, hardware SyncAll and flag 11-14
    # before any task-sync call). At the exit they say whether the path through a hazard went on to call
    # the pair, so one early return elsewhere does not hide it (and a path that never syncs is no echo).
    pre: frozenset = frozenset()
    # What this path decided about compile-time names (consteval.facts_of): a configuration is one binary.
    facts: frozenset = frozenset()
    # The last early return this path took before completing the pair ((file, line), or None): paths
    # that leave through different returns are distinct findings, so one witness cannot mask another.
    exit: tuple | None = None
    # The last branch arm this path took that lacks a task-sync call a sibling arm of its if / else-if
    # chain makes ((file, line, kinds), or None; cleared once the pair is complete): paths skipping the
    # call at different arms are distinct findings, reported at their arm, not one masking the other.
    skip: tuple | None = None

    def bump(self, kind: str) -> "Key":
        if kind == api.WAIT:
            done = self.with_(waits=min(self.waits + 1, 2))
        else:
            done = self.with_(sets=min(self.sets + 1, 2))
        return done.with_(skip=None) if done.waits and done.sets else done

    def with_(self, **changes) -> "Key":
        return dataclasses.replace(self, **changes)

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


def selects_configuration(then: list[Tok], summary, fn) -> bool:
    """An `if constexpr` branch that calls the task-sync pair and does not return early: one arm of a
    configuration selector. (A branch that returns is an early exit of one configuration; the code after
    it is the others' path. A condition the compiler decided selects nothing.)"""
    return bool(summary.toks_sync(then, fn)) and not any(t.text == "return" for t in then)
