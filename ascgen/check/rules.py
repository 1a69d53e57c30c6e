"""The task-sync rules: from a kernel's path model (paths.KernelTrace) to diagnostics.

Each rule is one function over the trace; rule ids are documented in docs/check.md. Product facts come
from the product's fields (task_sync, superkernel, default_pipes), never from its id.
"""
from __future__ import annotations

import ast
import os
import re

from ascgen.check import api, consteval, instances
from ascgen.check.index import Index
from ascgen.check.paths import Event, KernelTrace
from ascgen.check.state import Step
from ascgen.check.tokens import Tok, calls_in, int_value, join, skipped_ranges
from ascgen.errors import Diagnostic

MAX_PATH_STEPS = 4


def _diag(file: str, tok, severity: str, rule: str, message: str, notes=()) -> Diagnostic:
    return Diagnostic(file, tok.line, tok.col, severity, rule, message, list(notes))


def _note(step_or_file, tok=None, message: str = "", rule: str = "") -> Diagnostic:
    if isinstance(step_or_file, Step):
        s = step_or_file
        return Diagnostic(s.file, s.line, s.col, "note", rule, message or s.text)
    return Diagnostic(step_or_file, tok.line, tok.col, "note", rule, message)


def _path_text(witness) -> str:
    decisions = [s.text for s in witness if s.decision]
    if not decisions:
        return "every path"
    if len(decisions) > MAX_PATH_STEPS:
        decisions = ["..."] + decisions[-MAX_PATH_STEPS:]
    return "the path where " + " and ".join(decisions)


def _sync_events(trace: KernelTrace, kind: str | None = None) -> list[Event]:
    found = [e for e in trace.events if e.kind == "sync" and (kind is None or e.call.name == kind)]
    return sorted(found, key=lambda e: (e.file, e.call.tok.offset))


def uses(trace: KernelTrace) -> set:
    return {e.call.name for e in _sync_events(trace)}


def once_per_path(trace: KernelTrace) -> list[Diagnostic]:
    rule, out = "tasksync-once-per-path", []
    for kind in sorted(uses(trace) - trace.unreliable):
        first = _sync_events(trace, kind)[0]
        reported = set()
        for key, witness in sorted(trace.counted_exits().items(), key=lambda kv: len(kv[1])):
            count = key.count(kind)
            if count == 1:
                continue
            decisions = [s for s in witness if s.decision]
            calls = [s for s in witness if not s.decision and s.text.startswith(kind + " ")]
            if count == 0:
                # Reported at the early return the path left through, else at the branch arm that skips
                # the call (each one is its own finding), else at its last decision.
                skip = key.skip[:2] if key.skip and kind in key.skip[2] else None
                at = next((s for s in reversed(decisions) if key.exit == (s.file, s.line)), None) or \
                    next((s for s in reversed(decisions) if skip == (s.file, s.line)), None) or \
                    (decisions[-1] if decisions else Step(trace.kernel.file, trace.kernel.line, trace.kernel.col, ""))
                message = f"{kind} is not reached on {_path_text(witness)}{_variant(key, trace)}"
                notes = [_note(s, rule=rule, message=f"on this path: {s.text}") for s in decisions[-MAX_PATH_STEPS:]]
                notes.append(_note(first.file, first.call.tok, rule=rule,
                                   message=f"{kind} is called here on other paths; every core must call it "
                                           "exactly once, or the SuperKernel boundary hangs"))
            else:
                if not calls:       # repeated by a loop: the in-loop rule reports it
                    continue
                at = calls[1] if len(calls) > 1 else calls[-1]
                message = f"{kind} is executed more than once on {_path_text(witness)}"
                notes = [_note(s, rule=rule, message=f"{kind} executed here") for s in calls[:-1]]
                notes.append(_note(at, rule=rule, message="a second call starts an extra boundary round: the next "
                                                          "task is released early or a later wait starves"))
            if (at.file, at.line, count) in reported:
                continue
            reported.add((at.file, at.line, count))
            out.append(Diagnostic(at.file, at.line, at.col, "error", rule, message, notes))
    return out


def every_variant(traces: list) -> list[tuple[int, str, Diagnostic]]:
    """[(trace number, kind, finding)] for each instantiation (label, trace) that never calls a task-sync
    call other instantiations of the same kernel call. Each instantiation is its own binary, selected by
    tiling key, and the SuperKernel compiler decides op-wide that the task uses the call: that binary's
    cores never make it and the boundary hangs (docs/semantics.md; the TilingKey form of the rule is
    once_per_path's "not reached on the path where TILING_KEY_IS(k) ...")."""
    rule = "tasksync-every-variant"
    out: list[tuple[int, str, Diagnostic]] = []
    for kind in api.TASK_SYNC:
        callers = [label for label, trace in traces if kind in uses(trace)]
        if not callers or len(callers) == len(traces) or any(kind in t.unreliable for _, t in traces):
            continue
        named = "; ".join(f"[{c}]" for c in callers[:3]) + (f" and {len(callers) - 3} more" if len(callers) > 3 else "")
        first = next(_sync_events(t, kind)[0] for _, t in traces if kind in uses(t))
        for i, (label, trace) in enumerate(traces):
            if kind in uses(trace):
                continue
            k = trace.kernel
            out.append((i, kind, Diagnostic(
                k.file, k.line, k.col, "error", rule,
                f"this instantiation of `{k.name}` never calls {kind}, while {named} "
                f"{'does' if len(callers) == 1 else 'do'}: every instantiation the tiling-key template selects "
                "must call it exactly once, or its SuperKernel boundary hangs",
                [_note(first.file, first.call.tok, rule=rule,
                       message=f"{kind} is called here in the other instantiations")])))
    return out


def _variant(key, trace: KernelTrace) -> str:
    """` (TilingKey 2)` when the path belongs to some of the kernel's TilingKeys only: one binary each."""
    every = frozenset().union(*(k.keys for k in trace.exits if k.keys))
    if not key.keys or key.keys == every:
        return ""
    return f" (TilingKey {', '.join(str(k) for k in sorted(key.keys))})"


def op_wide(trace: KernelTrace, index: Index, reported=frozenset()) -> list[Diagnostic]:
    """A kernel that never reaches a task-sync call the operator's source contains elsewhere. The
    SuperKernel compiler (and ascgen's runtime) decide per operator, by text, that the task uses the call,
    so the boundary waits for every core of this kernel's task to make it: none does (a hang on a
    device, SyncCountError or a hang in the emulator). Typical: a build configuration or a second kernel
    whose code path never calls the pair."""
    rule, out = "tasksync-op-wide", []
    for kind, tok in index.op_wide_sync().items():
        if kind in uses(trace) or kind in trace.unreliable or kind in reported:
            continue
        k = trace.kernel
        file = tok.file or k.file
        out.append(Diagnostic(
            k.file, k.line, k.col, "error", rule,
            f"kernel `{k.name}` never calls {kind}, but the operator's source does (line {tok.line}): the "
            f"SuperKernel compiler decides op-wide, by text, that this task uses {kind}, so the boundary waits "
            "for calls its cores never make and hangs",
            [_note(file, tok, rule=rule, message=f"{kind} is written here; call it exactly once on every path "
                                                 "of this kernel too, or move it out of this operator's "
                                                 "source")]))
    return out


def in_loop(trace: KernelTrace) -> list[Diagnostic]:
    rule, out = "tasksync-in-loop", []
    for e in _sync_events(trace):
        if e.loop is None:
            continue
        out.append(_diag(e.file, e.call.tok, "error", rule,
                         f"{e.call.name} is inside {e.loop.text.replace('the ', 'a ', 1)}: it runs once per "
                         "iteration, and not at all on a core whose loop runs zero times",
                         [_note(e.loop, rule=rule, message="the loop is here; call it once, before (wait) or "
                                                           "after (set) the loop")]))
    return out


def _missing_wait_decisions(trace: KernelTrace) -> set:
    """The last decision of each path that never waits: accesses on those paths are echoes of that error."""
    return {next((s for s in reversed(w) if s.decision), None)
            for k, w in trace.exits.items() if k.waits == 0} - {None}


def _gm_finding(e: Event, bad: list, rule: str, side: str, anchor: Event, anchor_note: str) -> Diagnostic:
    """One misplaced GM access. Writes are errors (a neighbouring task reads or writes that output);
    reads are warnings: a read before the wait is the documented prefetch of host-written data and a read
    after the set is harmless unless a later task overwrites the buffer, which the checker cannot see."""
    witness = bad[0]
    decisions = [s for s in witness if s.decision]
    where = f" on {_path_text(witness)}" if decisions and len(bad) < len(e.states) else ""
    neighbour = "previous" if side == "before" else "next"
    message = f"GM {e.access} of `{e.tensor}` by {e.call.text()} comes {side} {anchor.call.name}{where}: it " \
              f"may overlap the {neighbour} task"
    severity = "error" if e.access == "write" else "warning"
    if e.access.startswith("raw"):
        message += (" (a raw __gm__ pointer: fine only if it addresses memory no neighbouring task uses, "
                    "e.g. this task's own workspace)")
    elif severity == "warning":
        message += (f" (fine only if no earlier task writes `{e.tensor}`, e.g. host-written weights)"
                    if side == "before" else f" (fine only if no later task writes `{e.tensor}`)")
    partial = len(bad) < len(e.states)        # some call sites or paths are fine: say which one is not
    notes = [_note(s, rule=rule, message=f"reached through {s.text}") for s in witness if s.call and partial][-2:]
    notes.append(_note(anchor.file, anchor.call.tok, rule=rule, message=anchor_note))
    return _diag(e.file, e.call.tok, severity, rule, message, notes)


def _anchor(e: Event, calls: list[Event]) -> Event:
    """The task-sync call to name for a misplaced access: one on the access's own path when the path
    state says so (a wait reached after this write), else one in the same function, else the first."""
    on_path = [c for c in calls if any(e.ident in k.pre for k in c.states)]
    same_function = [c for c in calls if c.function is e.function]
    return (on_path or same_function or calls)[0]


def gm_order(trace: KernelTrace) -> list[Diagnostic]:
    used, out = uses(trace), []
    waits, sets = _sync_events(trace, api.WAIT), _sync_events(trace, api.SET)
    echoes = _missing_wait_decisions(trace) if api.WAIT not in trace.unreliable else set()
    for e in sorted((e for e in trace.events if e.kind == "gm"), key=lambda e: (e.file, e.call.tok.offset)):
        if api.WAIT in used:
            # A write followed to the exits counts when some path through it goes on to wait (one early
            # return elsewhere hides nothing); on paths that never wait it is an echo of that error.
            goes_on = trace.hazard_reaches(e.ident) if e.access == "write" else None
            bad = [w for k, w in e.states.items() if k.waits == 0
                   and (goes_on if goes_on is not None else not echoes.intersection(w))]
            if bad:
                out.append(_gm_finding(e, bad, "tasksync-gm-before-wait", "before", _anchor(e, waits),
                                       "WaitPreTaskEnd is here; call it before the first GM access"))
        if api.SET in used:
            bad = [w for k, w in e.states.items() if k.sets >= 1]
            if bad:
                out.append(_gm_finding(e, bad, "tasksync-gm-after-set", "after", _anchor(e, sets),
                                       "SetNextTaskStart is here; call it after the last GM access"))
    return out


def _template_value(arg, index: Index) -> str | None:
    """A pipe or bool template argument as a name (PIPE_MTE3, true), or None if it cannot be evaluated."""
    toks = [t for t in arg if t.text not in ("(", ")")]
    if not toks:
        return None
    last = toks[-1]
    if last.text in api.PIPE_NUMBERS or last.text in ("true", "false"):
        return last.text
    value = int_value(tuple(toks), index.constants)
    if value is None:
        return None
    return api.PIPE_NAMES.get(value, str(value))


def template_args(trace: KernelTrace, index: Index, product, skipped: list) -> list[Diagnostic]:
    from ascgen.check.parse import Skipped
    out = []
    for e in _sync_events(trace):
        params = api.SET_PARAMS if e.call.name == api.SET else api.WAIT_PARAMS
        for param, arg in zip(params, e.call.template_args or ()):
            value = _template_value(arg, index)
            tok = arg[0] if arg else e.call.tok
            if value is None:
                skipped.append(Skipped(e.file, tok.line, f"{param} of {e.call.name}",
                                       f"`{join(arg)}` could not be evaluated; the template-argument rules skip it"))
                continue
            if param == "FORCE":
                if value in ("true", "1") and product is not None and not product.superkernel:
                    out.append(_diag(e.file, tok, "error", "tasksync-force",
                                     f"FORCE=true on {e.call.name} needs SuperKernel support (SK_BIND), which "
                                     f"{product.id} does not have"))
                continue
            allowed = api.VALID_PIPES[param]
            core = "vector" if param == "AIV_PIPE" else "cube"
            if value not in allowed:
                out.append(_diag(e.file, tok, "error", "tasksync-pipe",
                                 f"{param} = {value} is not a {core}-core pipe; use one of {', '.join(allowed)}"))
                continue
            if product is not None:
                default = product.default_pipes[params.index(param)]
                if value != default:
                    out.append(_diag(e.file, tok, "warning", "tasksync-pipe",
                                     f"{param} = {value} differs from the {product.id} default {default}: the "
                                     f"arrival fires once {value} drains, so it must be the pipe of the last GM "
                                     f"write on {core} cores"))
    return out


def _declared_here(tok: Tok, toks: list[Tok], i: int, index: Index) -> bool:
    if i > 0 and toks[i - 1].text in (".", "->", "::"):
        return True
    return tok.text in index.declared


def forbidden_intrinsics(trace: KernelTrace, index: Index) -> list[Diagnostic]:
    rule, out = "sk-forbidden-intrinsic", []
    severity = "error" if uses(trace) else "warning"
    why = "this kernel uses task sync, so it is meant for a SuperKernel" if uses(trace) else \
        "such a kernel cannot be fused into a SuperKernel"
    for file, cursor in code_run(trace, index):
        toks = index.cursor_tokens(cursor)
        for i, tok in enumerate(toks):
            if tok.kind == "id" and tok.text in api.FORBIDDEN_INTRINSICS and not _declared_here(tok, toks, i, index):
                out.append(_diag(file, tok, severity, rule,
                                 f"`{tok.text}` is rejected by the SuperKernel compiler ({why}); use "
                                 f"{api.FORBIDDEN_INTRINSICS[tok.text]}"))
    return out


def code_run(trace: KernelTrace, index: Index) -> list:
    """(file, cursor) of the code a kernel runs, for flow-insensitive rules: the functions the path
    model followed, plus, for every user class named there (`Tiler t;`, `Tiler t{n}`, `Reducer()(n)`,
    `ForEach(n, Step())`), its constructors, operator() and default member initializers (with its bases),
    and what those call in turn. The path model does not follow default or braced construction, nor
    functors passed as arguments; the compiler still compiles and runs them."""
    summary = index.summaries.get("summaries")
    functions = {id(fn): fn for fn in trace.visited}
    todo, fields = list(functions.values()), []
    named: set[str] = set()

    def add(fn):
        for callee in (summary.reachable(fn) if summary is not None else [fn]):
            if id(callee) not in functions:
                functions[id(callee)] = callee
                todo.append(callee)

    def classes_in(cursor) -> set:
        return {t.text for t in index.cursor_tokens(cursor) if t.kind == "id"} & index.classes

    pending: set = set()
    while todo or pending:
        if todo:
            pending |= classes_in(todo.pop().cursor) - named
            continue
        for cls in index.with_bases({pending.pop()}) - named:
            named.add(cls)
            for fn in [*index.functions.get(cls, []), *index.functions.get("operator()", [])]:
                if fn.owner == cls:
                    add(fn)
            for decl in index.fields.get(cls, []):
                fields.append(decl)
                pending |= classes_in(decl) - named
    out = [(fn.file, fn.cursor) for fn in functions.values()]
    out += [(decl.location.file.name, decl) for decl in fields if decl.location.file is not None]
    return out


def flag_alias(trace: KernelTrace, index: Index) -> list[Diagnostic]:
    rule = "tasksync-flag-alias"
    out: list[Diagnostic] = []
    if not uses(trace):
        return out
    every_path_syncs = all(k.waits or k.sets for k in trace.exits)
    for e in sorted((e for e in trace.events if e.kind == "lib"), key=lambda e: (e.file, e.call.tok.offset)):
        # Compile-time configurations are separate binaries: a SyncAll on a path that never calls the
        # pair may belong to a configuration without task sync. Report it when its path has called
        # one already or goes on to call one (Key.pre), or when every path of the kernel calls them.
        if not every_path_syncs and not any(k.waits or k.sets for k in e.states) \
                and not trace.hazard_reaches(e.ident, api.TASK_SYNC):
            continue
        if e.call.name == api.HARDWARE_SYNC_ALL and not any(e.call.args):
            out.append(_diag(e.file, e.call.tok, "error", rule,
                             "hardware SyncAll in a kernel that uses task sync: it counts on cross-core flags "
                             "11-14 like the SuperKernel boundary, so their rounds alias (and it hangs when the "
                             "task runs on fewer cores than the SuperKernel); use the software "
                             "SyncAll(gmWorkspace, ubWorkspace, usedCores)"))
        elif e.call.name in api.CROSS_CORE_FLAG_CALLS and e.call.args:
            flag = int_value(e.call.args[0], index.constants)
            if flag is not None and flag in api.SK_FLAGS:
                out.append(_diag(e.file, e.call.tok, "error", rule,
                                 f"{e.call.name} on flag {flag} in a kernel that uses task sync: flags 11-14 "
                                 "carry the SuperKernel boundary, so its rounds alias; use a flag id below 11"))
    return out


def buffer_capacity(trace: KernelTrace, index: Index, product) -> list[Diagnostic]:
    """`pipe.InitBuffer(que, num, len)` whose constant size (num * len) exceeds the memory of the queue's
    position on the product (UB usable bytes, L1, L0A/B/C from ascgen.products): the memory cannot hold
    the buffers, so they run past the end of it. Needs --product."""
    rule = "sk-buffer-capacity"
    out: list[Diagnostic] = []
    if product is None:
        return out
    # Flow-insensitive: set-up code without task sync or GM access is not interpreted path by path.
    calls = [(file, call) for file, cursor in code_run(trace, index)
             for call in calls_in(index.cursor_tokens(cursor)) if call.name == api.INIT_BUFFER]
    for file, call in sorted(calls, key=lambda fc: (fc[0], fc[1].tok.offset)):
        args = call.args
        if len(args) not in (2, 3) or not args[0]:
            continue
        position = index.positions.get(args[0][-1].text)
        capacity = getattr(product, api.BUFFER_MEMORY.get(position, ""), 0) if position else 0
        sizes = [_constant(a, index) for a in args[1:]]
        if not capacity or position is None or None in sizes:
            continue
        total = sizes[0] * (sizes[1] if len(sizes) == 2 else 1)
        memory = api.BUFFER_MEMORY[position].replace("_total", "").replace("_bytes", "").upper()
        physical = product.ub_total if memory == "UB" else capacity
        if total > physical:
            out.append(_diag(file, call.tok, "error", rule,
                             f"{call.text()} asks for {total} bytes of {position} ({memory}), more than the "
                             f"{physical} bytes {product.id} has there: the buffers cannot fit"))
        elif total > capacity:
            # Within the UB but over what the library leaves to kernels (ub_reserved): it collides with
            # the library's own use of the top of UB only when that is in use, so a warning.
            out.append(_diag(file, call.tok, "warning", rule,
                             f"{call.text()} asks for {total} bytes of {position} (UB), more than the {capacity} "
                             f"bytes {product.id} leaves to kernel buffers ({product.ub_total} less "
                             f"{product.ub_reserved} the library reserves)"))
    return out


def _constant(arg, index: Index):
    """An integer size expression with named constants and sizeof(scalar type) folded, else None."""
    toks, i = list(arg), 0
    folded = []
    while i < len(toks):
        t = toks[i]
        if t.text == "sizeof" and i + 2 < len(toks) and toks[i + 1].text == "(":
            close = next((j for j in range(i + 2, len(toks)) if toks[j].text == ")"), None)
            if close is None:
                return None
            words = [x.text for x in toks[i + 2:close] if x.kind in ("id", "kw") and x.text != "const"]
            if len(words) != 1 or words[-1] not in api.SCALAR_SIZES:
                return None
            folded.append(Tok("lit", str(api.SCALAR_SIZES[words[-1]]), t.offset, t.line, t.col))
            i = close + 1
            continue
        folded.append(t)
        i += 1
    text = []
    for t in folded:
        value = consteval.literal(t.text.rstrip("uUlL")) if t.kind == "lit" else index.constants.get(t.text)
        if value is not None and not isinstance(value, bool):
            text.append(str(int(value)))
        elif t.text in _ARITHMETIC:
            text.append("//" if t.text == "/" else t.text)
        else:
            return None                 # a run-time value (a tiling field) or something unknown
    try:
        value = _fold(ast.parse(" ".join(text), mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError):
        return None
    return value if value >= 0 else None


_ARITHMETIC = {"+", "-", "*", "/", "%", "<<", ">>", "(", ")"}
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << min(b, 64),
        ast.RShift: lambda a, b: a >> b}


def _fold(node) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_fold(node.left), _fold(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_fold(node.operand)
    raise ValueError("not integer arithmetic")


def sk_bind_bits(trace: KernelTrace, index: Index) -> list[Diagnostic]:
    """`SK_BIND(kernel, cap, ...)` whose task-sync bits (1 WaitPreTaskEnd, 2 SetNextTaskStart) differ from
    the calls the bound kernel makes: the SuperKernel learns from `cap` which boundary calls the task
    makes, so an advertised call the kernel never makes leaves the boundary waiting (a hang) and an
    unadvertised one is not waited for (the next task may start before this one's writes land)."""
    rule = "sk-bind-bits"
    out: list[Diagnostic] = []
    made = uses(trace)
    if made & trace.unreliable:
        return out
    want = sum(bit for kind, bit in api.SK_CAP_BITS.items() if kind in made)
    mask = sum(api.SK_CAP_BITS.values())
    for file, tok, kernel, cap in _sk_binds(index):
        if kernel != trace.kernel.name or cap is None or cap & mask == want:
            continue
        if os.path.realpath(trace.kernel.file) == file:
            file = trace.kernel.file            # the name the user gave, as the other findings print it
        extra = [k for k, bit in api.SK_CAP_BITS.items() if cap & bit and k not in made]
        missing = [k for k, bit in api.SK_CAP_BITS.items() if not cap & bit and k in made]
        said = "; ".join([f"it advertises {k} (bit {api.SK_CAP_BITS[k]}), which `{kernel}` never calls: the "
                          "boundary waits for it and hangs" for k in extra] +
                         [f"`{kernel}` calls {k}, which it does not advertise (bit {api.SK_CAP_BITS[k]}): the "
                          "boundary does not wait for it, so a neighbouring task may overlap this one's data"
                          for k in missing])
        out.append(_diag(file, tok, "error", rule, f"SK_BIND cap {cap} does not match the task-sync calls: {said}; "
                         f"use cap {want | (cap & ~mask)}"))
    return out


def _sk_binds(index: Index) -> list:
    """[(file, token, kernel name, cap or None)] for each SK_BIND(...) in the user's active code."""
    if "#sk_bind" not in index.tokens:
        found = []
        for name in sorted(index.user_files):
            data = index.file_bytes(name)
            if api.SK_BIND.encode() not in data:
                continue
            text, skipped = instances.text_of(data), skipped_ranges(index.tu, name)
            for m in _SK_BIND_CALL.finditer(text):
                args = instances.macro_args(text, m.end() - 1) or []
                if len(args) < 2 or not instances.live(m.start(), text, skipped):
                    continue
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                found.append((name, Tok("id", api.SK_BIND, m.start(), line, col, name),
                              args[0].split("<")[0].split("::")[-1].strip(), instances.fold(args[1], index)))
        index.tokens["#sk_bind"] = found
    return index.tokens["#sk_bind"]


_SK_BIND_CALL = re.compile(r"\b" + api.SK_BIND + r"\s*\(")


def product_notes(trace: KernelTrace, product) -> list[Diagnostic]:
    if product is None or product.task_sync != "compile-only" or not uses(trace):
        return []
    first = _sync_events(trace)[0]
    extra = f" ({product.note})" if product.note else ""
    return [_diag(first.file, first.call.tok, "note", "tasksync-no-effect",
                  f"WaitPreTaskEnd/SetNextTaskStart compile but have no effect on {product.id}: task sync is "
                  f"compile-only there{extra}")]


def run_all(trace: KernelTrace, index: Index, product, skipped: list, reported=frozenset()) -> list[Diagnostic]:
    """Every rule on one trace; `reported`: task-sync kinds every_variant already reports it missing."""
    return [*once_per_path(trace), *op_wide(trace, index, reported), *in_loop(trace), *gm_order(trace),
            *template_args(trace, index, product, skipped), *forbidden_intrinsics(trace, index),
            *flag_alias(trace, index), *buffer_capacity(trace, index, product), *sk_bind_bits(trace, index),
            *product_notes(trace, product)]
