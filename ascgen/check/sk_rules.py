"""SuperKernel-readiness rules: what a kernel fused into a SuperKernel must do beyond the task-sync pair.

Each rule enforces one restriction of the SuperKernel development guide (CANN "Ascend C operator
development", SuperKernel development: full-core syncs and the sub-kernel's core count, MIX 1:1 kernels
launched 1:2, DataCacheCleanAndInvalid after GM scalar writes) or of the host tiling (keys the kernel
has no code for). Rule ids and limits are documented in docs/check.md.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ascgen.check import api, instances, opfolder
from ascgen.check.index import FuncDef, Index
from ascgen.check.opfolder import OpFolder
from ascgen.check.paths import Event, Interpreter, KernelTrace
from ascgen.check.rules import code_run
from ascgen.check.tokens import Tok, arg_root, calls_in, int_value, match_paren
from ascgen.errors import Diagnostic

# With this macro the library flushes each GM scalar access itself (kernel_tensor_impl.h).
LIBRARY_DCCI_MACRO = "__ASCENDC_SUPER_KERNEL_ENABLE_GM_GET_SET_VALUE_DCCI__"
DCCI_CALLS = frozenset({"DataCacheCleanAndInvalid", "dcci"})
BLOCK_INDEX = frozenset({"GetBlockIdx", "get_block_idx", "block_idx"})
SUB_BLOCK_INDEX = frozenset({"GetSubBlockIdx", "get_subblockid"})
# Matmul high-level API calls that drive the cube from a vector core (the client side of a MIX kernel).
MATMUL_DRIVE = frozenset({"SetTensorA", "SetTensorB", "SetBias", "Iterate", "IterateAll", "IterateBatch",
                          "GetTensorC", "SetTail", "SetOrgShape", "SetSingleShape"})
MIX_1_1 = ("KERNEL_TYPE_MIX_AIC_1_1", "ASCENDC_TPL_MIX_AIC_1_1")


@dataclass
class Context:
    """What the SuperKernel rules know beyond the kernel's own source."""
    op: OpFolder | None = None     # the operator's host side (opfolder.find), None outside that layout
    defines: tuple = ()            # the -D macros of this check


def run_all(trace: KernelTrace, index: Index, product, ctx: Context | None) -> list[Diagnostic]:
    ctx = ctx or Context()
    if product is not None and not product.superkernel:
        return []               # no SuperKernel on this product: nothing to get ready for
    return [*syncall_fewer_cores(trace, index, ctx), *gm_scalar_no_dcci(trace, index, product, ctx),
            *mix_ratio(trace, index), *tiling_key_uncovered(trace, index, product, ctx),
            *pipe_destroy_barrier(trace, index)]


def _diag(file, tok, severity, rule, message, notes=()) -> Diagnostic:
    return Diagnostic(file, tok.line, tok.col, severity, rule, message, list(notes))


def _note(file, line, col, rule, message) -> Diagnostic:
    return Diagnostic(_shown(file), line, col, "note", rule, message)


def _shown(file: str) -> str:
    """A host file as a path relative to the current directory when it is below it."""
    rel = os.path.relpath(file) if os.path.isabs(file) else file
    return file if rel.startswith("..") else rel


def _lib_events(trace: KernelTrace, names) -> list[Event]:
    found = [e for e in trace.events if e.kind == "lib" and e.call.name in names]
    return sorted(found, key=lambda e: (e.file, e.call.tok.offset))


# ---- guards: `if (<names> ...)` around a position, or an early return under one before it ----

def _aliases(trace: KernelTrace, index: Index, names: frozenset) -> frozenset:
    """The names plus variables and members assigned from them anywhere in the code the kernel runs
    (`auto sub = GetSubBlockIdx();`, `this->blockIdx = GetBlockIdx();`)."""
    key = ("#aliases", trace.kernel.name, names)
    if key not in index.tokens:
        found = set(names)
        for _, cursor in code_run(trace, index):
            toks = index.cursor_tokens(cursor)
            for i in range(len(toks) - 2):
                if toks[i].kind == "id" and toks[i + 1].text == "=" and _assigned_from(toks, i + 2, found):
                    found.add(toks[i].text)
        index.tokens[key] = frozenset(found)
    return index.tokens[key]


_CAST_WORDS = frozenset({"static_cast", "reinterpret_cast", "int32_t", "uint32_t", "int64_t", "uint64_t", "int",
                         "uint16_t", "int16_t", "uint8_t"})


def _assigned_from(toks: list[Tok], i: int, found: set) -> bool:
    """Whether the value starting at toks[i] leads with one of `found`, past qualifiers and casts
    (`AscendC::GetBlockIdx()`, `static_cast<int32_t>(GetBlockIdx())`)."""
    for j in range(i, min(i + 14, len(toks))):
        t = toks[j]
        if t.text == ";":
            return False
        if t.kind != "id" or t.text in _CAST_WORDS or (j + 1 < len(toks) and toks[j + 1].text == "::"):
            continue
        return t.text in found
    return False


def _guards(toks: list[Tok], names: frozenset) -> list[tuple]:
    """[(if token, the name, body start, body end, is an early return, else start, else end)] for each
    `if` whose condition mentions one of the names."""
    out = []
    for i, t in enumerate(toks):
        if t.text != "if":
            continue
        j = i + 1 + (i + 1 < len(toks) and toks[i + 1].text == "constexpr")
        close: int | None
        if j < len(toks) and toks[j].text in api.CORE_CONDITIONS:
            close = j                   # `if ASCEND_IS_AIV {`: the macro spells its own parentheses
        elif j < len(toks) and toks[j].text == "(":
            close = match_paren(toks, j)
        else:
            continue
        if close is None:
            continue
        named = next((x.text for x in toks[j:close + 1] if x.text in names), None)
        if named is None:
            continue
        start, end = _statement(toks, close + 1)
        if end is None:
            continue
        body = [x.text for x in toks[start:end + 1] if x.text not in ("{", "}")]
        early = bool(body) and body[0] == "return"
        e_start = e_end = None
        if end + 1 < len(toks) and toks[end + 1].text == "else":
            e_start, e_end = _statement(toks, end + 2)
        else_tokens = (toks[e_start], toks[e_end]) if e_start is not None and e_end is not None else (None, None)
        out.append((t, named, toks[start], toks[end], early, *else_tokens))
    return out


def _statement(toks: list[Tok], i: int) -> tuple:
    """(first, last) token index of the statement starting at i: a braced block or up to its `;`."""
    if i >= len(toks):
        return i, None
    if toks[i].text == "{":
        return i, match_paren(toks, i)
    if toks[i].text in ("if", "for", "while", "switch"):
        j = i + 1 + (i + 1 < len(toks) and toks[i + 1].text == "constexpr")
        if j < len(toks) and toks[j].text == "(":
            close = match_paren(toks, j)
        else:                           # `if ASCEND_IS_AIV {`
            close = next((k - 1 for k in range(j, len(toks)) if toks[k].text == "{"), None)
        if close is None:
            return i, None
        _, end = _statement(toks, close + 1)
        if end is not None and toks[i].text == "if" and end + 1 < len(toks) and toks[end + 1].text == "else":
            _, end = _statement(toks, end + 2)
        return i, end
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text in "([{":
            depth += 1
        elif toks[j].text in ")]}":
            depth -= 1
        elif toks[j].text == ";" and depth == 0:
            return i, j
    return i, None


def _pos(tok) -> tuple:
    return tok.line, tok.col


def _later_calls(index: Index, fn: FuncDef, pos: tuple) -> list:
    """The calls of `fn` after `pos` in source order, less those in the else branch of an `if` whose
    then branch holds pos (that code runs on other paths, not after it)."""
    toks = index.cursor_tokens(fn.cursor)
    body = next((i for i, t in enumerate(toks) if t.text == "{"), len(toks))
    toks = toks[body:]                  # the declarator `name(params)` is no call
    skip = []
    for i, t in enumerate(toks):
        if t.text != "if" or i + 1 >= len(toks):
            continue
        j = i + 1 + (toks[i + 1].text == "constexpr")
        if j < len(toks) and toks[j].text == "(":
            close = match_paren(toks, j)
        else:
            close = next((k - 1 for k in range(j, len(toks)) if toks[k].text == "{"), None)
        if close is None:
            continue
        start, end = _statement(toks, close + 1)
        if end is None or not _pos(toks[start]) <= pos <= _pos(toks[end]):
            continue
        if end + 1 < len(toks) and toks[end + 1].text == "else":
            e_start, e_end = _statement(toks, end + 2)
            if e_end is not None:
                skip.append((_pos(toks[e_start]), _pos(toks[e_end])))
    calls = [c for c in calls_in(toks) if _pos(c.tok) > pos and not any(a <= _pos(c.tok) <= b for a, b in skip)]
    return sorted(calls, key=lambda c: _pos(c.tok))


def _guard_at(index: Index, fn: FuncDef, pos: tuple, names: frozenset) -> tuple | None:
    """(the `if` token, side, the name it tests) of the `if` of `fn` that decides whether `pos` runs: side
    "then" when pos is in its branch, "else" in its else branch or after an early return under it."""
    for t, named, start, end, early, e_start, e_end in _guards(index.cursor_tokens(fn.cursor), names):
        if _pos(start) <= pos <= _pos(end):
            return t, "then", named
        if (e_end is not None and _pos(e_start) <= pos <= _pos(e_end)) or (early and _pos(end) < pos):
            return t, "else", named
    return None


def _function_at(trace: KernelTrace, file: str, line: int) -> FuncDef | None:
    best = None
    for fn in trace.visited:
        ext = fn.cursor.extent
        if ext.start.file is None or ext.start.file.name != file or not ext.start.line <= line <= ext.end.line:
            continue
        if best is None or ext.end.line - ext.start.line < best.cursor.extent.end.line - best.cursor.extent.start.line:
            best = fn
    return best


def _stack(trace: KernelTrace, e: Event, witness) -> list[tuple]:
    """[(function, (line, col))]: the event in its function, then each call site up to the entry, read
    from the witness (the last call of each function before the event)."""
    out = [(e.function, _pos(e.call.tok))]
    current = e.function
    calls = [s for s in witness if s.call]
    for s in reversed(calls):
        if s.text.startswith(f"the call of {current.name} "):
            caller = _function_at(trace, s.file, s.line)
            if caller is None or caller is current:
                break
            out.append((caller, (s.line, s.col)))
            current = caller
    return out


def _guarded(trace, index, e: Event, witness, names) -> tuple | None:
    for fn, pos in _stack(trace, e, witness):
        found = _guard_at(index, fn, pos, names)
        if found is not None:
            return found
    return None


# ---- sk-syncall-fewer-cores ----

def _fewer_cores(trace: KernelTrace, index: Index, ctx: Context) -> tuple | None:
    """(file, line, col, what) showing the kernel may run on fewer cores than the SuperKernel launches:
    an early return of the cores past a count (`if (GetBlockIdx() >= usedCoreNum) return;`), or a host
    SetBlockDim whose argument is not the platform's full core count (GetCoreNum*, or a name every host
    assignment gives one)."""
    names = _aliases(trace, index, BLOCK_INDEX)
    for file, cursor in code_run(trace, index):
        for t, _, start, end, early, _, _ in _guards(index.cursor_tokens(cursor), names):
            if early:
                return file, t.line, t.col, "cores past a count return early here"
    if ctx.op is not None:
        for call in ctx.op.block_dims:
            arg = call.args[0] if call.args else ""
            last = re.findall(r"\w+", arg)[-1:] or [""]
            if arg and opfolder.FULL_CORE_COUNT not in arg and last[0] not in ctx.op.full_counts:
                return call.file, call.line, call.col, f"the host sets the block dim to `{call.args[0]}` here"
    return None


def syncall_fewer_cores(trace: KernelTrace, index: Index, ctx: Context) -> list[Diagnostic]:
    """A hard full-core sync in a kernel that may run on fewer cores than the SuperKernel: the
    SuperKernel launches the largest core count of its sub-kernels, and a full-core sync waits for every
    core launched, so the cores this kernel does not use never arrive (a hang). Hardware SyncAll() can be
    rescued by the SuperKernel's feed-sync-all option (a warning); a full-core CrossCoreSetFlag (mode 0)
    cannot (an error)."""
    rule = "sk-syncall-fewer-cores"
    out: list = []
    syncs = [e for e in _lib_events(trace, (api.HARDWARE_SYNC_ALL, "CrossCoreSetFlag"))
             if (e.call.name == api.HARDWARE_SYNC_ALL and not any(e.call.args)) or _mode(e, index) == 0]
    if not syncs:
        return out
    evidence = _fewer_cores(trace, index, ctx)
    if evidence is None:
        return out
    file, line, col, what = evidence
    for e in syncs:
        hard = e.call.name != api.HARDWARE_SYNC_ALL
        message = (f"{e.call.text()} is a full-core hard sync in a kernel that may run on fewer cores than the "
                   "SuperKernel launches (the largest core count of its sub-kernels): the cores beyond this "
                   "kernel's count never arrive and it hangs; ")
        message += ("a CrossCoreSetFlag full-core sync works only when the kernel's core count equals the "
                    "SuperKernel's" if hard else
                    "enable feed-sync-all for the SuperKernel scope, or use the software SyncAll(gm, ub, usedCores)")
        out.append(_diag(e.file, e.call.tok, "error" if hard else "warning", rule, message,
                         [_note(file, line, col, rule, f"may run on fewer cores: {what}")]))
    return out


def _mode(e: Event, index: Index) -> int | None:
    args = e.call.template_args or ()
    return int_value(args[0], index.constants) if args and args[0] else None


# ---- sk-gm-scalar-no-dcci ----

def _scalar_writes(trace: KernelTrace) -> list[Event]:
    found = [e for e in trace.events if e.kind == "gm" and e.access in ("write", "raw write")
             and (e.call.name == "SetValue" or e.access == "raw write" or e.call.name == e.tensor)]
    return sorted(found, key=lambda e: (e.file, e.call.tok.offset))


def _dcci_of(call, tensor: str) -> bool:
    """A DataCacheCleanAndInvalid that flushes `tensor`: given it (or an element of it), or the entire
    data cache."""
    if call.name not in DCCI_CALLS:
        return False
    if any(t.text == "ENTIRE_DATA_CACHE" for arg in call.template_args or () for t in arg) or \
            any(t.text == "ENTIRE_DATA_CACHE" for arg in call.args for t in arg):
        return True
    return bool(call.args) and arg_root(call.args[0]) == tensor


def _flushes(index: Index, fn: FuncDef, tensor: str, cache: dict) -> bool:
    """Whether a call of `fn` may flush `tensor` (directly or through its callees)."""
    if (id(fn), tensor) not in cache:
        summary = index.summaries.get("summaries")
        reach = summary.reachable(fn) if summary is not None else [fn]
        cache[(id(fn), tensor)] = any(_dcci_of(c, tensor) for g in reach
                                      for c in calls_in(index.cursor_tokens(g.cursor)))
    return cache[(id(fn), tensor)]


def _flushed_after(index: Index, stack: list, tensor: str, cache: dict) -> bool:
    """A DataCacheCleanAndInvalid of `tensor` (or a call of the user's that runs one) after the write in
    its function or after the call site in a caller, before the kernel returns."""
    for fn, pos in stack:
        for call in _later_calls(index, fn, pos):
            if _dcci_of(call, tensor) or any(_flushes(index, f, tensor, cache)
                                             for f in index.functions.get(call.name, [])):
                return True
    return False


def gm_scalar_no_dcci(trace: KernelTrace, index: Index, product, ctx: Context) -> list[Diagnostic]:
    """A scalar GM write (GlobalTensor SetValue / operator(), a raw __gm__ pointer store) with no
    DataCacheCleanAndInvalid after it: a single operator gets one at its end from the compiler, a
    sub-kernel of a SuperKernel does not, so the value may stay in this core's data cache while the next
    task reads GM. Needs --product of a product with SuperKernel support."""
    rule = "sk-gm-scalar-no-dcci"
    out: list = []
    if product is None or any(str(d).split("=")[0] == LIBRARY_DCCI_MACRO for d in ctx.defines):
        return out
    cache: dict = {}
    for e in _scalar_writes(trace):
        unflushed = [w for w in e.states.values() if not _flushed_after(index, _stack(trace, e, w), e.tensor, cache)]
        if not unflushed:
            continue
        out.append(_diag(e.file, e.call.tok, "warning", rule,
                         f"GM scalar write of `{e.tensor}` by {e.call.text()} is not followed by "
                         "DataCacheCleanAndInvalid before the kernel ends: in a SuperKernel the compiler adds "
                         "no cache flush at the end of a sub-kernel, so the next task may read stale GM "
                         f"(flush the line after the last write, or build with -D{LIBRARY_DCCI_MACRO})"))
    return out


# ---- sk-mix-ratio ----

def _is_mix_1_1(trace: KernelTrace, index: Index) -> bool:
    if trace.kernel_type is not None:
        return trace.kernel_type in MIX_1_1
    if trace.initial_core != "*":
        return False
    summary = index.summaries.get("summaries")
    for fn in (summary.reachable(trace.kernel) if summary is not None else [trace.kernel]):
        body = summary.expanded_tokens(fn) if summary is not None else index.cursor_tokens(fn.cursor)
        if any(t.text in MIX_1_1 for t in body):
            return True
    return any(t in MIX_1_1 for t in index.template_kernel_types())


def mix_ratio(trace: KernelTrace, index: Index) -> list[Diagnostic]:
    """A KERNEL_TYPE_MIX_AIC_1_1 kernel runs 1:2 in a SuperKernel (two vector cores per cube core): a
    hard sync only one vector core reaches leaves the cube core's count short (a hang), and Matmul driven
    by both vector cores sends the second one's messages to a server that never answers (a hang)."""
    rule = "sk-mix-ratio"
    out: list = []
    if not _is_mix_1_1(trace, index):
        return out
    names = _aliases(trace, index, SUB_BLOCK_INDEX)
    # The same handshake (call and flag) made at several sites counts once: one site per sub-block
    # (`if (GetSubBlockIdx() > 0) { Set(f); return; } ... Set(f);`) is every vector core making it.
    sites: dict = {}
    for e in _lib_events(trace, (*api.CROSS_CORE_FLAG_CALLS, api.HARDWARE_SYNC_ALL)):
        witnesses = [w for k, w in e.states.items() if k.core != "aic"]
        if witnesses:
            flag = " ".join(t.text for arg in e.call.args for t in arg)
            sites.setdefault((e.call.name, flag), []).append(
                (e, [_guarded(trace, index, e, w, names) for w in witnesses]))
    for found in sites.values():
        guards = [g[:2] if g else None for _, gs in found for g in gs]
        if not all(guards) or any((g[0], "then") in guards and (g[0], "else") in guards for g in guards if g):
            continue
        for e, gs in found:
            g = gs[0][0]
            out.append(_diag(e.file, e.call.tok, "error", rule,
                             f"{e.call.text()} is reached by one vector core only (the sub-block condition at "
                             f"line {g.line}): launched 1:2 inside a SuperKernel, this MIX 1:1 kernel's other "
                             "vector core never makes this hard sync and its cube core waits forever; call it "
                             "on every vector core"))
    user = set(index.functions)
    for e in _lib_events(trace, MATMUL_DRIVE):
        if e.call.obj is None or e.call.name in user:
            continue
        unguarded = [w for k, w in e.states.items() if k.core != "aic" and not _on_cube(trace, index, e, w)
                     and _guarded(trace, index, e, w, names) is None]
        if unguarded:
            out.append(_diag(e.file, e.call.tok, "error", rule,
                             f"{e.call.text()} drives Matmul on every vector core: launched 1:2 inside a "
                             "SuperKernel, this MIX 1:1 kernel's second vector core (AIV1) also sends Matmul "
                             "messages no cube server receives, and it hangs; guard it with "
                             "`if (GetSubBlockIdx() == 0)`"))
    return out


def _on_cube(trace, index, e: Event, witness) -> bool:
    """The position runs on cube cores only, by the core-type test that decides it (`if ASCEND_IS_AIV
    { return; }` before it, or inside `if ASCEND_IS_AIC { ... }`): read from the source, since a path
    state keeps one witness per key and may not have narrowed its core type."""
    found = _guarded(trace, index, e, witness, frozenset(api.CORE_CONDITIONS))
    if found is None:
        return False
    _, side, name = found
    return api.CORE_CONDITIONS[name][0 if side == "then" else 1] == "aic"


# ---- sk-tiling-key-uncovered ----

def tiling_key_uncovered(trace: KernelTrace, index: Index, product, ctx: Context) -> list[Diagnostic]:
    """Tiling keys the op's host tiling sets that the kernel has no code for: a SetTilingKey(<constant>)
    key no TILING_KEY_IS branch (nor an else that writes GM) takes, or a GET_TPL_TILING_KEY(...) whose
    constant arguments no ASCENDC_TPL_ARGS_SEL selects. The kernel then runs nothing for that key and
    leaves its outputs untouched (TILING_KEY_IS), or no binary exists for it (template)."""
    rule = "sk-tiling-key-uncovered"
    out: list = []
    if ctx.op is None:
        return out
    k = trace.kernel
    if index.tiling_keys:
        for call in ctx.op.tiling_keys:
            key = ctx.op.fold(call.args[0], index) if len(call.args) == 1 else None
            if key is None or key in index.tiling_keys or key in ctx.op.other_kernel_keys:
                continue
            if _writes_for_key(trace, index, product, key):
                continue
            out.append(Diagnostic(
                k.file, k.line, k.col, "error", rule,
                f"the host tiling sets TilingKey {key}, but kernel `{k.name}` has no TILING_KEY_IS({key}) branch "
                "and writes no GM for it: that key's binary runs nothing and leaves the outputs untouched",
                [_note(call.file, call.line, call.col, rule, f"SetTilingKey({call.args[0]}) is here")]))
    decls, groups = instances._read(index)
    for call in ctx.op.tpl_keys if groups else ():
        order = next((d for d in decls if len(d) == len(call.args)), None)
        if order is None:
            continue
        values = {n: ctx.op.fold(a, index) for n, a in zip(order, call.args)}
        values = {n: v for n, v in values.items() if v is not None}
        if not values or any(_selects(g, values) for g in groups):
            continue
        shown = ", ".join(f"{n}={v}" for n, v in values.items())
        out.append(Diagnostic(
            k.file, k.line, k.col, "error", rule,
            f"the host tiling builds a template tiling key with {shown}, which no ASCENDC_TPL_ARGS_SEL of "
            f"`{k.name}` selects: no binary is built for that key",
            [_note(call.file, call.line, call.col, rule, f"GET_TPL_TILING_KEY({', '.join(call.args)}) is here")]))
    return out


def _selects(group, values: dict) -> bool:
    params, _ = group
    for name, value in values.items():
        chosen = params.get(name)
        if chosen is not None and value not in {v for v, _ in chosen}:
            return False
    return True


def _writes_for_key(trace: KernelTrace, index: Index, product, key: int) -> bool:
    """Whether the kernel writes GM on some path of TilingKey `key` (one the kernel never names: every
    TILING_KEY_IS is false there), read from a second path analysis with `key` among the keys."""
    cached = ("#key-writes", trace.kernel.name, key)
    if cached not in index.tokens:
        saved = set(index.tiling_keys)
        index.tiling_keys.add(key)
        try:
            other = Interpreter(index, trace.kernel, [], product).run()
        finally:
            index.tiling_keys.clear()
            index.tiling_keys.update(saved)
        index.tokens[cached] = other is None or any(
            e.kind == "gm" and e.access != "read" and not e.access.endswith("read")
            and any(s.keys is None or key in s.keys for s in e.states) for e in other.events)
    return index.tokens[cached]


# ---- sk-pipe-destroy-barrier ----

_TPIPE_DECL = re.compile(r"\bTPipe\s*[*&]?\s*(\w+)")
# What reuses the memory or the GM a destroyed TPipe's pipelines may still be working on.
_PIPE_WORK = frozenset({api.INIT_BUFFER, *api.GM_CALLS, "AllocTensor", "Get"})


def _tpipes(index: Index) -> set:
    """Names declared as a TPipe (object, pointer or reference) in the user's files."""
    if "#tpipes" not in index.tokens:
        names = set()
        for name in index.user_files:
            names |= set(_TPIPE_DECL.findall(instances.text_of(index.file_bytes(name))))
        index.tokens["#tpipes"] = names
    return index.tokens["#tpipes"]


def _is_barrier(call) -> bool:
    """PipeBarrier<PIPE_ALL>, or a SyncAll (hardware and software SyncAll both start with one)."""
    if call.name == api.HARDWARE_SYNC_ALL:
        return True
    return call.name == "PipeBarrier" and any(t.text == "PIPE_ALL" for a in call.template_args or () for t in a)


def _next_after(index: Index, stack: list, cache: dict):
    """The first barrier or pipe work after the position, in its function and then after each call site
    up the stack: ("barrier" | "work", call), or None when the kernel ends first."""
    for fn, pos in stack:
        for call in _later_calls(index, fn, pos):
            if _is_barrier(call):
                return "barrier", call
            if call.name in _PIPE_WORK or any(_works(index, f, cache) for f in index.functions.get(call.name, [])):
                return "work", call
    return None


def _works(index: Index, fn: FuncDef, cache: dict) -> bool:
    if id(fn) not in cache:
        summary = index.summaries.get("summaries")
        reach = summary.reachable(fn) if summary is not None else [fn]
        cache[id(fn)] = any(c.name in _PIPE_WORK for g in reach for c in calls_in(index.cursor_tokens(g.cursor)))
    return cache[id(fn)]


def pipe_destroy_barrier(trace: KernelTrace, index: Index) -> list[Diagnostic]:
    """`TPipe::Destroy()` followed by more pipe work with no PipeBarrier<PIPE_ALL> between: in a
    SuperKernel build the library drops the PIPE_ALL barrier that ends Destroy (asc-devkit
    kernel_tpipe_impl.h, `#ifndef __ASCENDC_ENABLE_SUPER_KERNEL__`), since the SuperKernel syncs the
    pipes between tasks itself. Inside a task nothing then orders the old pipe's last transfers before
    the next phase's: its reads of GM the first phase wrote, or its buffers over the same UB."""
    rule, out = "sk-pipe-destroy-barrier", []
    pipes = _tpipes(index)
    cache: dict = {}
    for e in _lib_events(trace, ("Destroy",)):
        if e.call.obj not in pipes:
            continue
        for w in e.states.values():
            found = _next_after(index, _stack(trace, e, w), cache)
            if found is None or found[0] != "work":
                continue
            out.append(_diag(e.file, e.call.tok, "warning", rule,
                             f"{e.call.text()} is followed by more pipe work ({found[1].text()} at line "
                             f"{found[1].tok.line}) with no PipeBarrier<PIPE_ALL> between: in a SuperKernel build "
                             "TPipe::Destroy no longer ends with one, so the next phase may overtake this pipe's "
                             "last transfers; add AscendC::PipeBarrier<PIPE_ALL>() after it"))
            break
    return out
