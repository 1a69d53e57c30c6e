"""The path model of one kernel: an abstract interpretation of its statements, counting task-sync calls.

A path state is a small key: how many times WaitPreTaskEnd and SetNextTaskStart ran so far (0, 1 or
"2 or more"), which core type the path runs on (ASCEND_IS_AIV / ASCEND_IS_AIC decisions) and which
TilingKeys it is still valid for (TILING_KEY_IS decisions; a path no key satisfies is infeasible, since
one binary is compiled per key). Each state carries one witness: the branch decisions and calls that
lead to it, for messages. There are few possible keys, so every statement is visited a bounded number of
times and calls into the kernel's own functions are memoised per (function, input key, loop).

An `if constexpr` whose branch calls the task-sync pair and that has no else is a compile-time
configuration selector, like a TilingKey chain: the path where no configuration is selected is not a path
of any binary that runs, so it is dropped (constexpr_chain_end).

Loops: a loop without task-sync calls may run zero or more times; one that contains them is reported by
the in-loop rule and counted as running its calls once, so the other rules are not buried under
consequences of the same mistake. The interpreter records events (sync calls, GM accesses, other library
calls) with the states that reach them; rules.py turns events and exit states into diagnostics.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ascgen.check import api, consteval, instances
from ascgen.check.index import FuncDef, Index
from ascgen.check.instances import Instance
from ascgen.check.parse import Skipped
from ascgen.check.tokens import Call, Tok, arg_root, expand, int_value, join, match_paren
from ascgen.check.summary import MAX_MACRO_DEPTH, Summaries, is_sync
from ascgen.check.state import (Flow, Key, States, Step, index_at as _index_at, merge as _merge,
                                selects_configuration, step as _step)
from ascgen.check.tokstmt import TokenStatements



@dataclass
class Event:
    kind: str                    # "sync" | "gm" | "lib"
    call: Call
    file: str
    function: FuncDef
    states: States
    loop: Step | None
    access: str = ""             # gm: "read" | "write" | "access"
    tensor: str = ""             # gm: the GlobalTensor variable
    ident: tuple = ()            # (kind, file, offset, tensor): the id carried in Key.pre


@dataclass
class KernelTrace:
    kernel: FuncDef
    exits: States
    events: list
    visited: list                # FuncDefs the kernel runs
    unreliable: set              # task-sync kinds whose counts cannot be trusted (unparsed statements)
    initial_core: str
    tracked: set = field(default_factory=set)     # hazard ids followed to the exits through Key.pre
    untracked: set = field(default_factory=set)   # hazard ids dropped on some path (MAX_HAZARDS reached)
    reached: set = field(default_factory=set)     # (hazard id, kind): some path through it called kind
    kernel_type: str | None = None                # the instantiation's ASCENDC_TPL_ kernel type, if selected

    def counted_exits(self) -> States:
        """The exit states without their hazard marks: what the path counts are judged on."""
        out: States = {}
        for k, w in self.exits.items():
            _merge(out, {k.with_(pre=frozenset()): w})
        return out

    def hazard_reaches(self, ident, kinds=(api.WAIT,)) -> bool | None:
        """Whether some path through the hazard goes on to call one of `kinds`; None when not followed."""
        if ident not in self.tracked or ident in self.untracked:
            return None
        return any((ident, kind) in self.reached for kind in kinds)


MAX_HAZARDS = 4          # pre-wait hazards carried per path state (beyond: the old, path-blind verdict)


def _is_hazard(event: Event, index: Index) -> bool:
    """A GM write, a hardware SyncAll or a cross-core call on flag 11-14: wrong before the wait."""
    call = event.call
    if event.kind == "gm":
        return event.access == "write"
    if call.name == api.HARDWARE_SYNC_ALL:
        return not any(call.args)
    if call.name in api.CROSS_CORE_FLAG_CALLS and call.args:
        flag = int_value(call.args[0], index.constants)
        return flag is not None and flag in api.SK_FLAGS
    return False


# Statements whose handler reads children and tokens by position.
_STRUCTURED = frozenset({"IF_STMT", "SWITCH_STMT", "FOR_STMT", "WHILE_STMT", "DO_STMT", "CXX_FOR_RANGE_STMT",
                         "LABEL_STMT"})


class Interpreter(TokenStatements):
    def __init__(self, index: Index, kernel: FuncDef, skipped: list, product=None, side: str | None = None,
                 deadline=None, instance: Instance | None = None):
        self.index = index
        # One instantiation selected by the tiling-key template: its template arguments are constants
        # (in the kernel and in the templates that pass them on by name) and its kernel type is fixed.
        self.instance = instance
        self.instance_values = dict(instance.values) if instance is not None else {}
        self.deadline = deadline               # budget.Deadline: the analysis stops past its CPU time
        # On coupled products one core does cube and vector work: ASCEND_IS_AIV and ASCEND_IS_AIC are both
        # true there, so core-type branches are not alternatives.
        self.coupled = product is not None and not product.separated
        self.kernel = kernel
        self.side = side                       # "aic" / "aiv": this analysis is one core side's binary
        self.skipped = skipped
        self.events: dict = {}                 # (kind, file, offset) -> Event
        self.memo: dict = {}
        self.stack: list = []
        self.visited: dict = {}
        self.seen_sync: set = set()            # (file, offset) of task-sync calls interpreted
        self.prefix: tuple = ()
        self.tracked: set = set()
        self.bindings: dict = {}               # template parameter -> user classes, in the function run
        self.untracked: set = set()
        # What each function may do, shared by every kernel of the file.
        self.summary = index.summaries.setdefault("summaries", Summaries(index))
        self.reached: set = set()               # (hazard id, task-sync kind) settled on some path
        self._facts_cache: dict = {}
        self._chain_kinds: dict = {}           # else-if cursor -> the task-sync calls its chain's arms make
        self.track_hazards = bool(self.summary.has_sync(kernel))

    # ---- entry point ----
    def run(self) -> KernelTrace | None:
        """The kernel's trace; None when it does not run on the core side being analysed."""
        core = self._initial_core()
        if self.side is not None:
            if core not in ("*", self.side):
                return None
            core = self.side
        keys = frozenset(self.index.tiling_keys) if self.index.tiling_keys else None
        exits = self.call_function(self.kernel, {Key(0, 0, core, keys): ()}, None,
                                   bindings=tuple(sorted(self.instance_values.items())))
        return KernelTrace(self.kernel, exits, list(self.events.values()), list(self.visited.values()),
                           self._unparsed_sync(), core, self.tracked, self.untracked, self.reached,
                           self.instance.kernel_type if self.instance is not None else None)

    def _initial_core(self) -> str:
        """The core types the kernel runs on: its qualifier, else KERNEL_TASK_TYPE_DEFAULT anywhere it
        runs, else the per-template kernel types, else inferred like the toolchain (cube API names in
        the code it runs, seen through type aliases and macros: MIX; otherwise vector only)."""
        for tok in self.kernel.leading:
            if tok in api.QUALIFIER_CORES:
                return api.QUALIFIER_CORES[tok]
        reachable = self.summary.reachable(self.kernel)
        for fn in reachable:
            body = self.summary.expanded_tokens(fn)
            for i, t in enumerate(body):
                if t.text == "KERNEL_TASK_TYPE_DEFAULT" and i + 2 < len(body):
                    return api.KERNEL_TYPE_CORES.get(body[i + 2].text, "*")
        if self.instance is not None and self.instance.core is not None:
            return self.instance.core
        template_types = self.index.template_kernel_types()
        if template_types:
            cores = {api.TEMPLATE_KERNEL_TYPES[t] for t in template_types}
            return cores.pop() if len(cores) == 1 else "*"
        names = set()
        for fn in reachable:
            names |= self.summary.names(fn)
        if self.index.alias_closure(names) & api.CUBE_NAMES:
            return "*"
        return "aiv"

    # ---- functions ----
    def call_function(self, fn: FuncDef, states: States, loop: Step | None, site: Step | None = None,
                      bindings: tuple = ()) -> States:
        if fn in self.stack:
            self.skipped.append(Skipped(fn.file, fn.line, f"recursive call of {fn.name}",
                                        "recursion is not followed; the call is treated as doing nothing"))
            return states
        self.visited.setdefault(id(fn), fn)
        body = next((c for c in self.index.children(fn.cursor) if c.kind.name == "COMPOUND_STMT"), None)
        if body is None and fn.macro_body is None:
            return states
        if self.summary.inert(fn):
            # Nothing in it (or below it) can change a verdict: no task-sync call, no GM tensor, no
            # SyncAll or cross-core flag, no core-type or TilingKey condition. Record it as run.
            for callee in self.summary.reachable(fn):
                self.visited.setdefault(id(callee), callee)
            return states
        if not self.summary.has_sync(fn):
            loop = None           # only task-sync calls care which loop they are in
        out: States = {}
        uses_core, uses_keys = self.summary.observes(fn)
        for key, witness in states.items():
            # Run the callee on the part of the state it can observe: a helper without core-type or
            # TilingKey conditions is interpreted once, not once per TilingKey still possible.
            # Facts about compile-time names are kept per function (see _fact_names): the callee starts
            # without the caller's and the caller gets its own back.
            seen = key.with_(core=key.core if uses_core else "*", keys=key.keys if uses_keys else None,
                             facts=frozenset(), exit=None, skip=None)
            memo_key = (id(fn), seen, loop, bindings)
            if memo_key not in self.memo:
                saved, saved_bindings = self.prefix, self.bindings
                self.prefix = saved + witness + ((site,) if site else ())
                self.bindings = {**instances.inherited(self.index, fn, self.instance_values), **dict(bindings)}
                self.stack.append(fn)
                flow = self.exec_tokens(fn.macro_body, {seen: ()}, fn, loop) if fn.macro_body is not None \
                    else self.exec(body, {seen: ()}, fn, loop)
                self.stack.pop()
                self.prefix, self.bindings = saved, saved_bindings
                result: States = {}
                _merge(result, flow.fall)
                _merge(result, flow.ret)
                self.memo[memo_key] = result
            for k, suffix in self.memo[memo_key].items():
                restored = k.with_(core=k.core if uses_core else key.core, keys=k.keys if uses_keys else key.keys,
                                   facts=key.facts, exit=k.exit or key.exit,
                                   skip=k.skip or (key.skip if not (k.waits and k.sets) else None))
                _merge(out, {restored: witness + suffix})
        return out

    # ---- statements ----
    def exec(self, cur, states: States, fn: FuncDef, loop: Step | None) -> Flow:
        if self.deadline is not None:
            self.deadline.check()
        kind = self.index.info(cur)[0]
        toks = self.index.cursor_tokens(cur)
        if kind != "COMPOUND_STMT" and toks and toks[0].text in self.index.macros:
            # A statement expanded from the user's macro: its AST nodes all map onto the invocation, so
            # read the expansion from tokens once instead of walking them.
            return self.exec_tokens(toks, states, fn, loop)
        handler = getattr(self, "_exec_" + kind.lower(), None)
        if handler is not None and kind in _STRUCTURED and not self._well_formed(cur, kind, toks):
            # clang gave a statement without its parts (e.g. an empty `case` when the body instantiates a
            # template with a type the headers do not declare): read the statement from its tokens.
            return self.exec_tokens(toks, states, fn, loop)
        if handler is not None:
            return handler(cur, states, fn, loop)
        return Flow(fall=self.leaf(toks, states, fn, loop))

    def _well_formed(self, cur, kind: str, toks: list[Tok]) -> bool:
        """The AST node has the parts its handler reads: tokens, children, and tokens for each case."""
        children = self.index.children(cur)
        if not toks or not children:
            return False
        if kind != "SWITCH_STMT":
            return True
        body = children[-1]
        for child in (self.index.children(body) if body.kind.name == "COMPOUND_STMT" else [body]):
            while child.kind.name in ("CASE_STMT", "DEFAULT_STMT"):
                if not self.index.cursor_tokens(child):
                    return False
                inner = self.index.children(child)
                if not inner:
                    break
                child = inner[-1]
        return True

    def _exec_compound_stmt(self, cur, states, fn, loop) -> Flow:
        flow = Flow()
        current = states
        toks = self.index.cursor_tokens(cur)
        own_file = self.index.info(cur)[1]
        pos = toks[0].offset + 1 if toks else 0
        for child in [*self.index.children(cur), None]:
            # Tokens between statements belong to statements clang dropped (unparsable without the
            # missing headers): read them as token statements rather than lose their calls.
            if child is not None:
                _, child_file, child_start, child_end = self.index.info(child)
            end = child_start if child is not None else (toks[-1].offset if toks else 0)
            gap = toks[_index_at(toks, pos):_index_at(toks, end)]
            same_file = child is None or child_file == own_file
            if same_file and any(t.text != ";" for t in gap):
                sub = self.exec_tokens(gap, current, fn, loop)
                _merge(flow.ret, sub.ret)
                _merge(flow.brk, sub.brk)
                _merge(flow.cont, sub.cont)
                current = sub.fall
            if child is None:
                break
            pos = max(pos, child_end)
            sub = self.exec(child, current, fn, loop)
            _merge(flow.ret, sub.ret)
            _merge(flow.brk, sub.brk)
            _merge(flow.cont, sub.cont)
            current = sub.fall
        flow.fall = current
        return flow

    _exec_cxx_try_stmt = _exec_compound_stmt

    def _exec_null_stmt(self, cur, states, fn, loop) -> Flow:
        return Flow(fall=states)

    def _exec_label_stmt(self, cur, states, fn, loop) -> Flow:
        children = list(self.index.children(cur))
        return self.exec(children[-1], states, fn, loop) if children else Flow(fall=states)

    def _exec_return_stmt(self, cur, states, fn, loop) -> Flow:
        toks = self.index.cursor_tokens(cur)
        after = self.leaf(toks[1:], states, fn, loop)
        where = self._file(cur)
        step = _step(toks[0], where, f"the return at line {toks[0].line} is taken") if toks else None
        if step is None:
            return Flow(ret=dict(after))
        site = (step.file, step.line)
        return Flow(ret={(k.with_(exit=site) if self.track_hazards and (k.waits == 0 or k.sets == 0) else k):
                         w + (step,) for k, w in after.items()})

    def _exec_break_stmt(self, cur, states, fn, loop) -> Flow:
        return Flow(brk=dict(states))

    def _exec_continue_stmt(self, cur, states, fn, loop) -> Flow:
        return Flow(cont=dict(states))

    def _exec_goto_stmt(self, cur, states, fn, loop) -> Flow:
        self.skipped.append(Skipped(self._file(cur), cur.location.line, "goto",
                                    "goto is not modelled; the path continues after it"))
        return Flow(fall=states)

    def _exec_if_stmt(self, cur, states, fn, loop) -> Flow:
        toks = self.index.cursor_tokens(cur)
        children = list(self.index.children(cur))
        if not toks or not children:
            return Flow(fall=self.leaf(toks, states, fn, loop))
        then, other = self._if_parts(children)
        start = 2 if len(toks) > 1 and toks[1].text == "constexpr" else 1
        cond = toks[start:_index_at(toks, then.extent.start.offset)]
        states = self.leaf(cond, states, fn, loop)
        true_states, false_states = self.branch(cond, toks[0], self._file(cur), states, fn)
        if start == 2 and other is None and true_states \
                and selects_configuration(self.index.cursor_tokens(then), self.summary, fn):
            false_states = {}       # no configuration selected: not a path (see constexpr_chain_end)
        if self.track_hazards:
            true_states, false_states = self._mark_skips(cur, toks[0], then, other, true_states, false_states, fn)
        flow = self.exec(then, true_states, fn, loop)
        other_flow = self.exec(other, false_states, fn, loop) if other is not None else Flow(fall=false_states)
        for name in ("fall", "ret", "brk", "cont"):
            _merge(getattr(flow, name), getattr(other_flow, name))
        return flow

    def _mark_skips(self, cur, at: Tok, then, other, true_states, false_states, fn):
        """Mark the paths entering an arm of an if / else-if chain that lacks a task-sync call another
        arm makes (Key.skip), so each such arm is its own finding. An `else if` is one arm per
        condition: the chain's calls are handed down to it instead of marking the whole else."""
        sync = self.summary.toks_sync
        then_kinds = sync(self.index.cursor_tokens(then), fn)
        chain = self._chain_kinds.pop(cur.hash, frozenset()) | then_kinds
        nested = other is not None and self.index.info(other)[0] == "IF_STMT"
        other_kinds = sync(self.index.cursor_tokens(other), fn) if other is not None else frozenset()
        if nested:
            self._chain_kinds[other.hash] = chain
        else:
            chain |= other_kinds

        def mark(states, lacking):
            if not lacking:
                return states
            site = (self._file(cur), at.line, frozenset(lacking))
            return {(k.with_(skip=site) if k.waits == 0 or k.sets == 0 else k): w for k, w in states.items()}

        true_states = mark(true_states, chain - then_kinds)
        if not nested:
            false_states = mark(false_states, chain - other_kinds)
        return true_states, false_states

    def _if_parts(self, children):
        if len(children) >= 2:
            nxt = self.index.file_tokens(self._file(children[-2])).after(children[-2].extent.end.offset, 2)
            if nxt and (nxt[0].text == "else" or (nxt[0].text == ";" and len(nxt) > 1 and nxt[1].text == "else")):
                return children[-2], children[-1]
        return children[-1], None

    def _exec_switch_stmt(self, cur, states, fn, loop) -> Flow:
        toks = self.index.cursor_tokens(cur)
        children = list(self.index.children(cur))
        body = children[-1]
        header = toks[:_index_at(toks, body.extent.start.offset)]
        states = self.leaf(header, states, fn, loop)
        where = self._file(cur)
        label = join(header[1:])
        flow, has_default = Flow(), False
        current: dict = {}
        for child in (self.index.children(body) if body.kind.name == "COMPOUND_STMT" else [body]):
            stmt = child
            while stmt.kind.name in ("CASE_STMT", "DEFAULT_STMT"):
                has_default |= stmt.kind.name == "DEFAULT_STMT"
                ctoks = self.index.cursor_tokens(stmt)
                text = join(ctoks[:next((i for i, t in enumerate(ctoks) if t.text == ":"), 1)])
                step = _step(ctoks[0], where, f"`{text}` of `switch {label}` is taken")
                _merge(current, {k: w + (step,) for k, w in states.items()})
                inner = list(self.index.children(stmt))
                if not inner:
                    break
                stmt = inner[-1]
            if stmt.kind.name in ("CASE_STMT", "DEFAULT_STMT"):
                continue
            sub = self.exec(stmt, current, fn, loop)
            _merge(flow.ret, sub.ret)
            _merge(flow.brk, sub.brk)
            _merge(flow.cont, sub.cont)
            current = sub.fall
        _merge(flow.brk, current)
        if not has_default:
            step = _step(toks[0], where, f"no case of `switch {label}` matches")
            _merge(flow.brk, {k: w + (step,) for k, w in states.items()})
        return Flow(fall=flow.brk, ret=flow.ret, cont=flow.cont)

    def _loop(self, cur, states, fn, body, header, at_least_once: bool) -> Flow:
        toks = self.index.cursor_tokens(cur)
        body_toks = self.index.cursor_tokens(body) if body is not None else []
        run_body = (lambda st, step: self.exec(body, st, fn, step)) if body is not None else None
        return self.loop_flow(toks[0], self._file(cur), states, fn, header, body_toks, run_body, at_least_once)

    def loop_flow(self, keyword: Tok, where: str, states, fn, header, body_toks, run_body, at_least_once) -> Flow:
        """A loop: its body may run zero times (unless do-while) or more; see the module docstring."""
        if at_least_once and [t.text for t in header] in (["0"], ["false"]):
            # do { ... } while (0): the statement-macro idiom, a block that runs once, not a loop.
            states = self.leaf(header, states, fn, None)
            return run_body(states, None) if run_body is not None else Flow(fall=states)
        loop_step = _step(keyword, where, f"the {keyword.text} loop at line {keyword.line}")
        states = self.leaf(header, states, fn, loop_step)
        body_flow = run_body(states, loop_step) if run_body is not None else Flow(fall=states)
        kinds = self.summary.toks_sync(body_toks, fn)
        out = Flow(ret=body_flow.ret)
        if kinds:
            # Reported by the in-loop rule; counted once here so later rules are not its echoes.
            for key, witness in states.items():
                bumped = key
                for kind in sorted(kinds):
                    bumped = bumped.bump(kind)
                _merge(out.fall, {bumped: witness})
            return out
        if not at_least_once:
            zero = _step(keyword, where, f"the {keyword.text} loop at line {keyword.line} runs zero times")
            _merge(out.fall, {k: w + (zero,) for k, w in states.items()})
        for part in (body_flow.fall, body_flow.brk, body_flow.cont):
            _merge(out.fall, part)
        return out

    def _loop_header(self, cur, body) -> list[Tok]:
        toks = self.index.cursor_tokens(cur)
        if len(toks) > 1 and toks[1].text == "(":
            close = match_paren(toks, 1)
            return toks[2:close] if close else []
        return []

    def _exec_for_stmt(self, cur, states, fn, loop) -> Flow:
        body = list(self.index.children(cur))[-1]
        return self._loop(cur, states, fn, body, self._loop_header(cur, body), False)

    _exec_while_stmt = _exec_for_stmt
    _exec_cxx_for_range_stmt = _exec_for_stmt

    def _exec_do_stmt(self, cur, states, fn, loop) -> Flow:
        body = list(self.index.children(cur))[0]
        toks = self.index.cursor_tokens(cur)
        cond = toks[_index_at(toks, body.extent.end.offset):]
        # `while ( cond ) ;` after the body: the header is what the parentheses hold, so the
        # do { ... } while (0) idiom is recognised as a block (loop_flow), as the token path does.
        if len(cond) > 1 and cond[0].text == "while" and cond[1].text == "(":
            cond = cond[2:match_paren(cond, 1) or len(cond)]
        return self._loop(cur, states, fn, body, cond, True)

    # ---- conditions ----
    def branch(self, cond: list[Tok], at: Tok, where: str, states: States, fn: FuncDef | None = None
               ) -> tuple[States, States]:
        """Split states by a condition: core-type and TilingKey conditions constrain the key."""
        toks = list(cond)
        negate = False
        while toks and toks[0].text == "(" and match_paren(toks, 0) == len(toks) - 1:
            toks = toks[1:-1]
        text = join(toks)
        if toks and toks[0].text == "!":
            negate, toks = True, toks[1:]
            while toks and toks[0].text == "(" and match_paren(toks, 0) == len(toks) - 1:
                toks = toks[1:-1]
        true_s: dict = {}
        false_s: dict = {}
        t_step = _step(at, where, f"`{text}` is true")
        f_step = _step(at, where, f"`{text}` is false")
        core = api.CORE_CONDITIONS.get(toks[0].text) if len(toks) == 1 else None
        keyset = _tiling_keys(toks)
        compile_time = self._fact_names(fn) - set(self.bindings) if fn is not None else set()
        values = self.index.known_values(self.bindings)
        for key, witness in states.items():
            decided = None if core is not None or keyset is not None else \
                consteval.evaluate(list(cond), consteval.Env(values, key.facts, self.index.bool_params,
                                                             self.index.template_domains()))
            outcomes = ((True, t_step), (False, f_step))
            for value, step in outcomes:
                if decided is not None and value != bool(decided):
                    continue        # the compiler decides it: the other side is no path of any binary
                taken = value != negate
                new = key
                if compile_time:
                    new = new.with_(facts=new.facts | consteval.facts_of(cond, value, compile_time, values))
                if core is not None and self.coupled:
                    if taken != (not toks[0].text.startswith("ASCEND_IS_NOT")):
                        continue
                elif core is not None:
                    want = core[0] if taken else core[1]
                    if key.core not in ("*", want):
                        continue
                    new = new.with_(core=want)
                elif keyset is not None and key.keys is not None:
                    keys = key.keys & keyset if taken else key.keys - keyset
                    if not keys:
                        continue
                    new = new.with_(keys=frozenset(keys))
                _merge(true_s if value else false_s, {new: witness + (step,)})
        return true_s, false_s

    def _fact_names(self, fn: FuncDef) -> set:
        """Template value parameters written at least twice in `fn` (with its macros): only those can
        have a later condition that a recorded fact decides. Facts about the others would only split
        path states that the join points should merge (exponential in the number of `if constexpr`)."""
        found = self._facts_cache.get(id(fn))
        if found is None:
            counts: dict = {}
            for t in self.summary.expanded_tokens(fn):
                if t.text in self.index.value_params:
                    counts[t.text] = counts.get(t.text, 0) + 1
            found = self._facts_cache[id(fn)] = {name for name, n in counts.items() if n >= 2}
        return found

    # ---- leaf statements: the calls they make ----
    def leaf(self, toks: list[Tok], states: States, fn: FuncDef, loop: Step | None, depth: int = 0) -> States:
        if not toks:
            return states
        calls = self.summary.calls_of(toks, fn)
        macros = [c for c in calls if self.summary.macro(c, fn) is not None] if depth < MAX_MACRO_DEPTH else []
        spans = [(c.tok.offset, c.end_offset, c.tok.file) for c in macros]
        for call in calls:
            if any(a < call.tok.offset < b and call.tok.file == f for a, b, f in spans):
                continue                  # inside a macro's arguments: seen in its expansion instead
            # Statements are in their function's file; tokens of a macro body carry their own.
            where = call.tok.file or self._file(fn.cursor)
            if call in macros:
                body = expand(self.index.macros[call.name], call)
                if depth + 1 < MAX_MACRO_DEPTH:
                    self.summary.declare_locals(body, fn)
                flow = self.exec_tokens(body, states, fn, loop, depth + 1)
                # A return inside a macro body is approximated as falling through (documented).
                states = {}
                for part in (flow.fall, flow.ret, flow.brk, flow.cont):
                    _merge(states, part)
                continue
            if is_sync(call):
                self.seen_sync.add((where, call.tok.offset))     # reached by the walk, even if dead code
            if states:
                states = self.on_call(call, where, states, fn, loop)
        if states and depth == 0:
            for access in raw_gm_accesses(toks, self.index.raw_gm_pointers):
                where = access.tok.file or self._file(fn.cursor)
                self._record("gm", access, where, fn, states, loop, access.kind, access.name)
        return states

    def on_call(self, call: Call, where: str, states: States, fn: FuncDef, loop) -> States:
        if is_sync(call):
            self._record("sync", call, where, fn, states, loop)
            step = _step(call.tok, where, f"{call.name} at line {call.tok.line}", decision=False)
            out: States = {}
            for key, witness in states.items():
                _merge(out, {self._settle_hazards(key, call.name).bump(call.name): witness + (step,)})
            return out
        callees = self.index.resolve(call, fn, self.bindings)
        if callees:
            out = {}
            site = Step(where, call.tok.line, call.tok.col, f"the call of {call.name} at line {call.tok.line}",
                        decision=False, call=True)
            for callee in callees:
                # Methods of the same object keep the caller's bindings (a class template's members).
                bindings = self.index.bind(call, callee, self.bindings) or \
                    (tuple(self.bindings.items()) if callee.owner is not None and callee.owner == fn.owner else ())
                _merge(out, self.call_function(callee, states, loop, site, bindings))
            return out
        return self._classify_library_call(call, where, fn, states, loop)

    def _classify_library_call(self, call: Call, where: str, fn, states, loop) -> States:
        """Record the GM accesses and library calls; returns the states, marked with pre-wait hazards."""
        # Untyped `auto` tensors count for the GM calls and methods, not as any library call's argument.
        gts = self.index.global_tensors | self.index.inferred_gm if self.index.inferred_gm \
            else self.index.global_tensors
        if call.name in gts and call.obj is None and not call.qualifier:
            return self._record("gm", call, where, fn, states, loop, "write" if call.assigned else "read",
                                call.name)
        if call.obj is not None and call.obj in gts and call.name in api.GM_METHODS:
            return self._record("gm", call, where, fn, states, loop, api.GM_METHODS[call.name], call.obj)
        if call.name in api.GM_CALLS:
            for position, access in api.GM_CALLS[call.name]:
                if position < len(call.args) and arg_root(call.args[position]) in gts:
                    states = self._record("gm", call, where, fn, states, loop, access,
                                          arg_root(call.args[position]))
            return self._record("lib", call, where, fn, states, loop)
        if call.name not in api.GM_NON_ACCESS and call.obj not in gts:
            gts = self.index.global_tensors
            for arg in call.args:
                root = arg_root(arg)
                if root in gts and not any(t.text in ("&", "GetPhyAddr") for t in arg):
                    states = self._record("gm", call, where, fn, states, loop, "access", root)
                    break
        return self._record("lib", call, where, fn, states, loop)

    def _record(self, kind, call, where, fn, states, loop, access="", tensor="") -> States:
        key = (kind, where, call.tok.offset, tensor)
        full = {k: self.prefix + w for k, w in states.items()}
        if key in self.events:
            _merge(self.events[key].states, full)
            if loop is not None and self.events[key].loop is None:
                self.events[key].loop = loop
        else:
            self.events[key] = Event(kind, call, where, fn, full, loop, access, tensor, key)
        return self._mark_hazard(key, self.events[key], states)

    def _settle_hazards(self, key: Key, kind: str) -> Key:
        """A task-sync call settles the hazards it answers: record that their path went on to `kind`
        and drop them from the key, so hazards live only between themselves and the first call (the
        state space stays small after the wait)."""
        if not key.pre:
            return key
        settled = {h for h in key.pre if kind == api.WAIT or h[0] != "gm"}   # a GM write waits for the wait
        self.reached |= {(h, kind) for h in settled}
        return key.with_(pre=key.pre - settled)

    def _mark_hazard(self, ident, event: Event, states: States) -> States:
        """Carry a pre-wait hazard in the states that pass it (see Key.pre); bounded per path, and only
        in kernels that can reach a task-sync call (the others have no wait to be before)."""
        if not self.track_hazards or not _is_hazard(event, self.index):
            return states
        out: States = {}
        for k, w in states.items():
            before = k.waits == 0 and (event.kind == "gm" or k.sets == 0)
            if before and len(k.pre) < MAX_HAZARDS:
                self.tracked.add(ident)
                k = k.with_(pre=k.pre | {ident})
            elif before:
                self.untracked.add(ident)
            _merge(out, {k: w})
        return out

    # ---- helpers ----
    def _file(self, cur) -> str:
        f = cur.extent.start.file or cur.location.file
        return f.name if f is not None else self.kernel.file

    def _unparsed_sync(self) -> set:
        """Task-sync calls written in the kernel's functions that the AST walk never reached."""
        lost = set()
        for fn in self.visited.values():
            for call in self.summary.calls_of(self.index.cursor_tokens(fn.cursor), fn):
                if is_sync(call) and (fn.file, call.tok.offset) not in self.seen_sync \
                        and (self._file(fn.cursor), call.tok.offset) not in self.seen_sync:
                    lost.add(call.name)
                    self.skipped.append(Skipped(fn.file, call.tok.line, f"{call.name} in {fn.name}",
                                                "the statement holding it could not be parsed; "
                                                f"path counts of {call.name} in this kernel are not checked"))
        return lost


# ---- raw GM pointer accesses ----------------------------------------------------------------------------

_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}


@dataclass(frozen=True)
class RawAccess(Call):
    """`p[i]`, `*p` or `((__gm__ T*)x)[i]` on a raw GM pointer: a GM access no library call makes. Its
    access kind is "raw write" / "raw read", so the GM-order rule reports it as a warning (the checker
    cannot tell a GM pointer's buffer from a workspace the task owns)."""
    kind: str = "raw read"
    source: str = ""

    def text(self, limit: int = 60) -> str:
        return self.source if len(self.source) <= limit else self.source[:limit - 3] + "..."


def raw_gm_accesses(toks: list[Tok], pointers: set) -> list[RawAccess]:
    """Raw GM loads and stores in a statement's tokens: an index or a dereference of a name declared
    `__gm__ T*`, or of an inline `(__gm__ T*)` cast. An assignment operator after it makes it a write."""
    out = []
    for i, t in enumerate(toks):
        name, first, after = None, i, None
        if t.text in pointers and i + 1 < len(toks) and toks[i + 1].text == "[" \
                and not (i > 0 and toks[i - 1].text in (".", "->", "::")):
            name, after = t.text, (match_paren(toks, i + 1) or len(toks) - 1) + 1
        elif t.text == "*" and i + 1 < len(toks) and toks[i + 1].text in pointers \
                and (i == 0 or toks[i - 1].text in ("=", "(", ",", ";", "{", "return", *_ASSIGN)):
            name, after = toks[i + 1].text, i + 2
        elif t.text == "__gm__" and i > 0 and toks[i - 1].text == "(":
            close = match_paren(toks, i - 1)        # (__gm__ T*) x  or  ((__gm__ T*)x)[i]
            if close and close + 2 < len(toks) and toks[close + 1].kind == "id" \
                    and toks[close + 2].text == ")" and i > 1 and toks[i - 2].text == "(" \
                    and close + 3 < len(toks) and toks[close + 3].text == "[":
                name, first = toks[close + 1].text, i - 2
                after = (match_paren(toks, close + 3) or len(toks) - 1) + 1
        if name is None or first is None or after is None:
            continue
        write = after < len(toks) and toks[after].text in _ASSIGN
        end = after if not write else min(len(toks), after + 4)
        out.append(RawAccess(name=name, tok=toks[first], qualifier=(), obj=None, template_args=None, args=(),
                             assigned=write, end_offset=toks[min(end, len(toks)) - 1].offset,
                             kind="raw write" if write else "raw read", source=join(toks[first:end])))
    return out


def _tiling_keys(toks: list[Tok]) -> frozenset | None:
    """{k, ...} for `TILING_KEY_IS(k) || TILING_KEY_IS(m) ...`, else None."""
    keys, i = set(), 0
    while i < len(toks):
        if i + 3 < len(toks) and toks[i].text == api.TILING_KEY_MACRO and toks[i + 1].text == "(" \
                and toks[i + 2].kind == "lit" and toks[i + 3].text == ")":
            try:
                keys.add(int(toks[i + 2].text.rstrip("uUlL"), 0))
            except ValueError:
                return None
            i += 4
            if i < len(toks):
                if toks[i].text != "||":
                    return None
                i += 1
            continue
        return None
    return frozenset(keys) if keys else None
