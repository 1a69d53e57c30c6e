"""What each of the kernel's functions may do, summarised once per source file and shared by all its
kernels: its callees (through the user's macros too), the task-sync calls below it, whether it has
core-type or TilingKey conditions, and whether interpreting it can change a verdict at all.

The path model (paths.py) asks these questions to skip or memoise work: a helper with nothing that
matters below it is recorded as run instead of interpreted, and a helper is interpreted on the part of
the path state it can observe. Everything here depends only on the source, never on a path.
"""
from __future__ import annotations

from ascgen.check import api
from ascgen.check.index import FuncDef, Index
from ascgen.check.tokens import Call, Tok, calls_in, expand, match_angle

MAX_MACRO_DEPTH = 4


def is_sync(call: Call) -> bool:
    """A call of WaitPreTaskEnd / SetNextTaskStart (plain or AscendC::, not a method of some object)."""
    return call.name in api.TASK_SYNC and (not call.qualifier or call.qualifier[-1] == "AscendC") \
        and call.obj is None


class Summaries:
    def __init__(self, index: Index):
        self.index = index
        self._calls: dict = {}          # token run -> its calls (and ("sync", ...) -> task-sync kinds)
        self._has_sync: dict = {}
        self._observes: dict = {}
        self._inert: dict = {}
        self._callees: dict = {}
        self._own_names: dict = {}

    def callees(self, fn: FuncDef) -> list[FuncDef]:
        """The user's functions `fn` may call directly (cached)."""
        if id(fn) not in self._callees:
            found: dict = {}
            for call in self.calls_expanded(self.index.cursor_tokens(fn.cursor), fn):
                for callee in self.index.resolve(call, fn):
                    found.setdefault(id(callee), callee)
            self._callees[id(fn)] = list(found.values())
        return self._callees[id(fn)]

    def calls_expanded(self, toks, fn: FuncDef, depth: int = 0) -> list[Call]:
        """The calls written in `toks`, and those in the expansions of the user's macros among them."""
        out = []
        for call in self.calls_of(toks, fn):
            out.append(call)
            if depth < MAX_MACRO_DEPTH and self.macro(call, fn) is not None:
                body = expand(self.index.macros[call.name], call)
                self.declare_locals(body, fn)
                out += self.calls_expanded(body, fn, depth + 1)
        return out

    def reachable(self, root: FuncDef) -> list[FuncDef]:
        seen, todo = {id(root): root}, [root]
        while todo:
            for callee in self.callees(todo.pop()):
                if id(callee) not in seen:
                    seen[id(callee)] = callee
                    todo.append(callee)
        return list(seen.values())

    def names(self, fn: FuncDef) -> set:
        """Identifiers written in `fn` and in the user's macros it uses (cached)."""
        if id(fn) not in self._own_names:
            names = {t.text for t in self.index.cursor_tokens(fn.cursor) if t.kind == "id"}
            for macro in [self.index.macros.get(n) for n in names]:
                if macro is not None:
                    names |= {t.text for t in macro.body}
            self._own_names[id(fn)] = names
        return self._own_names[id(fn)]

    def expanded_tokens(self, fn: FuncDef, depth: int = 0) -> list[Tok]:
        """The tokens of `fn` followed by the expansions of the user's macros it calls."""
        toks = list(self.index.cursor_tokens(fn.cursor))
        out, todo = list(toks), [(toks, 0)]
        while todo:
            run, level = todo.pop()
            for call in self.calls_of(run, fn):
                if level < MAX_MACRO_DEPTH and self.macro(call, fn) is not None:
                    body = expand(self.index.macros[call.name], call)
                    out += body
                    todo.append((body, level + 1))
        return out

    def has_sync(self, fn: FuncDef) -> frozenset:
        """The task-sync calls `fn` may execute, directly or through its callees."""
        if id(fn) not in self._has_sync:
            self._has_sync[id(fn)] = frozenset()            # cycle guard
            kinds = self.toks_sync(self.index.cursor_tokens(fn.cursor), fn)
            self._has_sync[id(fn)] = frozenset(kinds)
        return self._has_sync[id(fn)]

    def toks_sync(self, toks, fn: FuncDef, depth: int = 0) -> frozenset:
        """The task-sync calls a run of tokens may execute (through calls and the user's macros)."""
        if not toks:
            return frozenset()
        key = ("sync", toks[0].file or fn.file, toks[0].offset, toks[-1].offset, len(toks), depth)
        if key not in self._calls:
            self._calls[key] = self._scan_sync(toks, fn, depth)
        return self._calls[key]

    def _scan_sync(self, toks, fn: FuncDef, depth: int) -> frozenset:
        kinds = set()
        for call in self.calls_of(toks, fn):
            if is_sync(call):
                kinds.add(call.name)
            elif depth < MAX_MACRO_DEPTH and self.macro(call, fn) is not None:
                body = expand(self.index.macros[call.name], call)
                self.declare_locals(body, fn)
                kinds |= self.toks_sync(body, fn, depth + 1)
            for callee in self.index.resolve(call, fn):
                kinds |= self.has_sync(callee)
        return frozenset(kinds)

    def inert(self, fn: FuncDef) -> bool:
        """True when interpreting `fn` cannot produce an event or change a path key (see call_function)."""
        if id(fn) not in self._inert:
            interesting = set(api.TASK_SYNC) | set(api.CROSS_CORE_FLAG_CALLS) | {api.HARDWARE_SYNC_ALL} \
                | self.index.global_tensors
            self._inert[id(fn)] = self.observes(fn) == (False, False) and not any(
                self.names(callee) & interesting for callee in self.reachable(fn))
        return self._inert[id(fn)]

    def observes(self, fn: FuncDef) -> tuple[bool, bool]:
        """(has core-type conditions, has TilingKey conditions), through callees and macros."""
        if id(fn) not in self._observes:
            self._observes[id(fn)] = (False, False)          # cycle guard
            names = self.names(fn)
            core = bool(names & set(api.CORE_CONDITIONS))
            keys = api.TILING_KEY_MACRO in names
            for callee in self.callees(fn):
                c, k = self.observes(callee)
                core, keys = core or c, keys or k
            self._observes[id(fn)] = (core, keys)
        return self._observes[id(fn)]

    def declare_locals(self, toks: list[Tok], fn: FuncDef) -> None:
        """`Class<...> name(...)` in a macro expansion: clang's declaration has no spelled type there, so
        read the object's class from the expanded tokens (it decides which Process() runs)."""
        for i, t in enumerate(toks):
            if t.kind != "id" or t.text not in self.index.classes:
                continue
            j = i + 1
            if j < len(toks) and toks[j].text == "<":
                closing = match_angle(toks, j)
                if closing is None:
                    continue
                j = closing + 1
            if j + 1 < len(toks) and toks[j].kind == "id" and toks[j + 1].text in ("(", ";", "{", "=", ","):
                self.index.scoped[(fn.cursor.hash, toks[j].text)] = {t.text}

    def calls_of(self, toks: list[Tok], fn: FuncDef) -> list[Call]:
        """calls_in(toks), cached per token run: statements are revisited once per path state, and
        whole functions are scanned by several summaries."""
        if not toks:
            return []
        key = (toks[0].file or fn.file, toks[0].offset, toks[-1].offset, len(toks))
        calls = self._calls.get(key)
        if calls is None:
            calls = self._calls[key] = calls_in(toks)
        return calls

    def macro(self, call: Call, fn: FuncDef):
        """The user's function-like macro a call expands, unless it names a function we follow."""
        macro = self.index.macros.get(call.name)
        if macro is None or call.obj is not None or call.qualifier or is_sync(call):
            return None
        return macro
