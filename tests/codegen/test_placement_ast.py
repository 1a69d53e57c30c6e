"""For every example kernel and product: the emitted source parses with libclang against runtime/include,
and on its AST there is exactly one WaitPreTaskEnd and one SetNextTaskStart (as the kernel's mode asks),
each a straight-line statement of Process() (no loop, branch or ?: around it), the wait before every
statement that reads GM and the set after every statement that writes GM, with the product's pipes."""
from __future__ import annotations

import functools
import warnings
from pathlib import Path

import pytest

from clang.cindex import CursorKind, Index  # noqa: E402  (libclang is a dependency)

import ascgen  # noqa: E402
from ascgen import products  # noqa: E402
from ascgen.check import parse as check_parse
from ascgen.builder import load_spec  # noqa: E402
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning  # noqa: E402
from tests.paths import REPO

ROOT = REPO
PRODUCTS = ("ascend910_93", "ascend910b", "ascend950", "ascend310p")
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
BRANCHY = {CursorKind.FOR_STMT, CursorKind.WHILE_STMT, CursorKind.DO_STMT, CursorKind.IF_STMT,
           CursorKind.SWITCH_STMT, CursorKind.CONDITIONAL_OPERATOR, CursorKind.CXX_FOR_RANGE_STMT}
SYNC = ("WaitPreTaskEnd", "SetNextTaskStart")
# no bfloat16 / no DataCopyPad for unaligned rows there: test_golden_generated.py checks the errors
REFUSED = {("bf16_leaky", "ascend310p"), ("softmax", "ascend310p"), ("log_softmax", "ascend310p"),
           ("layernorm", "ascend310p"), ("row_stats", "ascend310p"),
           ("matmul_relu", "ascend310p"), ("matmul_bf16", "ascend310p"), ("matmul_int8", "ascend310p")}


@functools.lru_cache(maxsize=None)
def _kernels(path: Path):
    return tuple(load_spec(path))


def _cases():
    for path in EXAMPLES:
        for kernel in _kernels(path):
            for product in PRODUCTS:
                if (kernel.name, product) in REFUSED:
                    continue
                yield pytest.param(path, kernel.name, product, id=f"{kernel.name}-{product}")


def _parse(source: str, name: str):
    """Parse emitted text strictly (errors are reported, not blanked) with the checker's libclang setup:
    the compiler's builtin headers (the wheel ships none) and the emulated library precompiled once."""
    from clang import cindex
    args = ["-x", "c++", *check_parse.clang_args((), ())]
    pch = check_parse.precompiled_library(check_parse.clang_args((), ()), cindex)
    unsaved = [(f"{name}.cpp", source)]
    if pch is not None:
        try:
            return Index.create().parse(f"{name}.cpp", args=[*args, "-include-pch", pch], unsaved_files=unsaved)
        except cindex.TranslationUnitLoadError:
            pass            # a header changed after the PCH was built: parse the library from source
    return Index.create().parse(f"{name}.cpp", args=args, unsaved_files=unsaved)


def _walk(cursor, stack=()):
    yield cursor, stack
    for child in cursor.get_children():
        yield from _walk(child, stack + (cursor,))


def _walk_main(tu, name):
    """Walk only the declarations of the emitted file itself (the headers' AST is large and irrelevant)."""
    for top in tu.cursor.get_children():
        if _in_main_file(top, name):
            yield from _walk(top, (tu.cursor,))


def _in_main_file(cursor, name):
    return cursor.location.file is not None and cursor.location.file.name == f"{name}.cpp"


def _methods(tu, name):
    """Class method name -> its body (COMPOUND_STMT), for the methods defined in the emitted file."""
    out = {}
    for cur, _ in _walk_main(tu, name):
        if cur.kind == CursorKind.CXX_METHOD and _in_main_file(cur, name) and cur.is_definition():
            body = [c for c in cur.get_children() if c.kind == CursorKind.COMPOUND_STMT]
            if body:
                out[cur.spelling] = body[0]
    return out


def _gm_name(arg) -> str:
    """The GlobalTensor member an argument refers to (`xGm[offset]` -> "xGm")."""
    for cur, _ in _walk(arg):
        if cur.kind == CursorKind.MEMBER_REF_EXPR and "GlobalTensor" in cur.type.spelling:
            return cur.spelling
    return "?"


def _gm_effects(node, methods, seen=frozenset()):
    """(GM tensors read, GM tensors written) by a statement, following calls into the class's own methods."""
    reads, writes = set(), set()
    for cur, _ in _walk(node):
        if cur.kind != CursorKind.CALL_EXPR:
            continue
        if cur.spelling in ("DataCopy", "DataCopyPad", "Fixpipe"):
            args = list(cur.get_arguments())
            if args and "GlobalTensor" in args[0].type.spelling:
                writes.add(_gm_name(args[0]))
            if len(args) > 1 and "GlobalTensor" in args[1].type.spelling:
                reads.add(_gm_name(args[1]))
        elif cur.spelling in methods and cur.spelling not in seen:
            r, w = _gm_effects(methods[cur.spelling], methods, seen | {cur.spelling})
            reads, writes = reads | r, writes | w
    return reads, writes


@pytest.fixture(scope="module")
def emitted():
    cache = {}

    def get(path, kernel_name, product):
        key = (path, kernel_name, product)
        if key not in cache:
            kernel = next(k for k in _kernels(path) if k.name == kernel_name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
                cache[key] = (kernel, ascgen.emit(kernel, product))
        return cache[key]
    return get


def placement_problems(source: str, kernel_name: str, task_sync: str, product, prefetch=frozenset(),
                       set_early=False, force=False) -> list[str]:
    """Everything wrong with the task-sync placement of one emitted source, checked on its AST.
    `prefetch`: inputs whose GM may be read before the wait; `set_early`: the set must directly follow
    the wait instead of coming after every GM access."""
    tu = _parse(source, kernel_name)
    errors = [f"{d.location.file}:{d.location.line}:{d.location.column}: {d.spelling}"
              for d in tu.diagnostics if d.severity >= 3]
    if errors:
        return ["does not parse: " + "; ".join(errors[:10])]
    problems = []
    calls = [(cur, stack) for cur, stack in _walk_main(tu, kernel_name)
             if cur.kind == CursorKind.CALL_EXPR and cur.spelling in SYNC and _in_main_file(cur, kernel_name)]
    by_name = {n: [c for c in calls if c[0].spelling == n] for n in SYNC}
    want = {"WaitPreTaskEnd": task_sync in ("both", "wait"), "SetNextTaskStart": task_sync in ("both", "set")}
    for name in SYNC:
        if len(by_name[name]) != int(want[name]):
            problems.append(f"{name}: {len(by_name[name])} calls, mode {task_sync}")
    methods = _methods(tu, kernel_name)
    process = methods["Process"]
    top = list(process.get_children())
    effects = [_gm_effects(stmt, methods) for stmt in top]
    if not (any(r for r, _ in effects) and any(w for _, w in effects)):
        problems.append("Process() must read and write GM")
    for name in SYNC:
        for cur, stack in by_name[name]:
            if process not in stack:
                problems.append(f"{name} is not in Process()")
                continue
            inside = stack[stack.index(process) + 1:]
            if any(a.kind in BRANCHY for a in inside):
                problems.append(f"{name} sits in a loop or branch")
                continue
            index = next(i for i, stmt in enumerate(top) if stmt == (inside[0] if inside else cur))
            if name == "WaitPreTaskEnd":
                early = set().union(*[r | w for r, w in effects[:index]])
                if early - {p + "Gm" for p in prefetch}:
                    problems.append(f"GM access before WaitPreTaskEnd: {sorted(early)}")
                if any(w for _, w in effects[:index]):
                    problems.append("a GM write comes before WaitPreTaskEnd")
            elif set_early:
                wait_at = [i for i, stmt in enumerate(top) if "WaitPreTaskEnd" in "".join(t.spelling for t in stmt.get_tokens())]
                if wait_at != [index - 1]:
                    problems.append("the early SetNextTaskStart does not directly follow WaitPreTaskEnd")
            else:
                if any(r or w for r, w in effects[index + 1:]):
                    problems.append("a GM access comes after SetNextTaskStart")
                tokens = "".join(t.spelling for t in cur.get_tokens())
                aiv, aic = product.default_pipes
                if f"SetNextTaskStart<{aiv},{aic}{',true' if force else ''}>" not in tokens:
                    problems.append(f"wrong template arguments: {tokens}")
    return problems


SIDES = {"ProcessCube": "AIC", "ProcessVector": "AIV"}


def _calls_in(node, names):
    return [cur for cur, _ in _walk(node) if cur.kind == CursorKind.CALL_EXPR and cur.spelling in names]


def mix_placement_problems(source: str, kernel_name: str, task_sync: str, product) -> list[str]:
    """A MIX (Matmul) kernel: Process() runs ProcessCube() under ASCEND_IS_AIC and ProcessVector() under
    ASCEND_IS_AIV; each side makes one wait and one set (as the mode asks), straight-line statements of its
    method, the wait before its first GM access, the set after its last (on the AIC: after the last
    Fixpipe), with the product's pipes."""
    tu = _parse(source, kernel_name)
    errors = [d.spelling for d in tu.diagnostics if d.severity >= 3]
    if errors:
        return ["does not parse: " + "; ".join(errors[:10])]
    methods = _methods(tu, kernel_name)
    problems = []
    process_tokens = "".join(t.spelling for t in methods["Process"].get_tokens())
    for side, core in SIDES.items():
        if f"ifASCEND_IS_{core}{{{side}();}}" not in process_tokens:
            problems.append(f"Process() does not run {side}() under ASCEND_IS_{core}")
    want = {"WaitPreTaskEnd": task_sync in ("both", "wait"), "SetNextTaskStart": task_sync in ("both", "set")}
    main_calls = [c for c, _ in _walk_main(tu, kernel_name) if c.kind == CursorKind.CALL_EXPR and c.spelling in SYNC]
    for name in SYNC:
        total = len([c for c in main_calls if c.spelling == name])
        if total != 2 * int(want[name]):
            problems.append(f"{name}: {total} calls in the file, one per core type wanted (mode {task_sync})")
    for side, core in SIDES.items():
        body = methods[side]
        top = list(body.get_children())
        effects = [_gm_effects(stmt, methods) for stmt in top]
        for name in SYNC:
            found = [i for i, stmt in enumerate(top) if _calls_in(stmt, {name})]
            if len(found) != int(want[name]):
                problems.append(f"{core}: {name} {len(found)} times in {side}()")
                continue
            if not found:
                continue
            i = found[0]
            if top[i].kind != CursorKind.CALL_EXPR:
                problems.append(f"{core}: {name} sits in a loop or branch")
                continue
            if name == "WaitPreTaskEnd" and any(r or w for r, w in effects[:i]):
                problems.append(f"{core}: GM access before WaitPreTaskEnd")
            if name == "SetNextTaskStart":
                if any(r or w for r, w in effects[i + 1:]):
                    problems.append(f"{core}: a GM access comes after SetNextTaskStart")
                tokens = "".join(t.spelling for t in top[i].get_tokens())
                aiv, aic = product.default_pipes
                if f"SetNextTaskStart<{aiv},{aic}>" not in tokens:
                    problems.append(f"{core}: wrong template arguments: {tokens}")
                fixpipes = [j for j, stmt in enumerate(top) if _calls_in(stmt, {"Fixpipe"}) or
                            any("Fixpipe" in "".join(t.spelling for t in methods[m].get_tokens())
                                for m in {c.spelling for c in _calls_in(stmt, set(methods))})]
                if core == "AIC" and (not fixpipes or max(fixpipes) > i):
                    problems.append("AIC: SetNextTaskStart does not follow the last Fixpipe")
    return problems


def _is_mix(source: str) -> bool:
    return "ProcessCube()" in source


@pytest.mark.parametrize("path,kernel_name,product_id", list(_cases()))
def test_task_sync_placement_on_the_ast(emitted, path, kernel_name, product_id):
    kernel, source = emitted(path, kernel_name, product_id)
    check = mix_placement_problems if _is_mix(source) else placement_problems
    assert check(source, kernel_name, kernel.task_sync, products.get(product_id)) == []


# Seeded bugs: the checker above must catch each misplacement (so the passes above mean something).
def _add_relu(emitted, product="ascend910_93"):
    return emitted(ROOT / "examples" / "add_relu.py", "add_relu", product)


def _move(source, needle, after):
    line = next(l for l in source.splitlines(keepends=True) if needle in l)
    source = source.replace(line, "", 1)
    anchor = next(l for l in source.splitlines(keepends=True) if after in l)
    return source.replace(anchor, anchor + line, 1)


@pytest.mark.parametrize("product_id", ("ascend910_93", "ascend310p"))
def test_policy_variants_on_the_ast(product_id):
    from ascgen.codegen.tasksync import TaskSyncPolicy
    kernel = next(k for k in _kernels(ROOT / "examples" / "multi_out.py") if k.name == "multi_out")
    product = products.get(product_id)
    variants = {"prefetch y": TaskSyncPolicy(prefetch_inputs=frozenset({"y"})),
                "set early": TaskSyncPolicy(set_early=True),
                "force": TaskSyncPolicy(force=True),
                "prefetch both, set early": TaskSyncPolicy(prefetch_inputs=frozenset({"x", "y"}), set_early=True)}
    for what, policy in variants.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TaskSyncNoEffectWarning)
            source = ascgen.emit(kernel, product, policy=policy)
        assert placement_problems(source, kernel.name, "both", product, policy.prefetch_inputs,
                                  policy.set_early, policy.force) == [], what
        if policy.prefetch_inputs:       # the twin: without the allowance the early reads are flagged
            assert any(p.startswith("GM access before WaitPreTaskEnd")
                       for p in placement_problems(source, kernel.name, "both", product))


SEEDED = {
    "set inside the tile loop": (("SetNextTaskStart", "CopyOutZ(i);"), "SetNextTaskStart sits in a loop or branch"),
    "wait inside the tile loop": (("WaitPreTaskEnd", "for (uint32_t i"), "WaitPreTaskEnd sits in a loop or branch"),
    "set before the last GM write": (("SetNextTaskStart", "WaitPreTaskEnd"), "a GM access comes after SetNextTaskStart"),
}


@pytest.mark.parametrize("case", sorted(SEEDED))
def test_the_ast_check_catches(emitted, case):
    kernel, source = _add_relu(emitted)
    (needle, after), expected = SEEDED[case]
    bad = _move(source, needle, after)
    assert expected in placement_problems(bad, "add_relu", "both", products.get("ascend910_93"))


def test_the_ast_check_catches_wrong_pipes(emitted):
    kernel, source = _add_relu(emitted)
    bad = source.replace("SetNextTaskStart<PIPE_MTE3, PIPE_FIX>", "SetNextTaskStart<PIPE_MTE3, PIPE_MTE3>")
    problems = placement_problems(bad, "add_relu", "both", products.get("ascend910_93"))
    assert any(p.startswith("wrong template arguments") for p in problems)


def test_the_ast_check_catches_a_second_call(emitted):
    kernel, source = _add_relu(emitted)
    bad = source.replace("AscendC::WaitPreTaskEnd();", "AscendC::WaitPreTaskEnd(); AscendC::WaitPreTaskEnd();", 1)
    assert "WaitPreTaskEnd: 2 calls, mode both" in placement_problems(bad, "add_relu", "both",
                                                                         products.get("ascend910_93"))


def test_the_ast_check_catches_a_column_vector_read_before_the_wait(emitted):
    # 2-D kernels read their per-column vectors once, after the wait: moving the wait below that read
    # is a GM access before WaitPreTaskEnd
    kernel, source = emitted(ROOT / "examples" / "norms.py", "rmsnorm", "ascend910_93")
    assert placement_problems(source, "rmsnorm", "both", products.get("ascend910_93")) == []
    bad = _move(source, "AscendC::WaitPreTaskEnd", "CopyInGamma();")
    problems = placement_problems(bad, "rmsnorm", "both", products.get("ascend910_93"))
    assert "GM access before WaitPreTaskEnd: ['gammaGm']" in problems


MIX_SEEDED = {
    # (line to move, anchor to put it after) -> the problem the check must report
    "AIC set before the last Fixpipe": (("after the last Fixpipe (AIC side)", "CubeTile(j);"),
                                        "AIC: SetNextTaskStart sits in a loop or branch"),
    "AIC wait after the first GM read": (("AscendC::WaitPreTaskEnd();  // matmul.py:10", "CubeTile(j);"),
                                         "AIC: WaitPreTaskEnd sits in a loop or branch"),
    "AIV set before its last copy out": (("after the last copy to GM (AIV side)", "inline void ProcessVector()"),
                                         None),
}


@pytest.mark.parametrize("case", sorted(MIX_SEEDED))
def test_the_mix_check_catches(emitted, case):
    kernel, source = emitted(ROOT / "examples" / "matmul.py", "matmul_relu", "ascend910_93")
    product = products.get("ascend910_93")
    assert mix_placement_problems(source, "matmul_relu", "both", product) == []
    (needle, after), expected = MIX_SEEDED[case]
    if expected is None:        # the set moved to the top of ProcessVector(), before its wait and GM traffic
        lines = source.splitlines(keepends=True)
        set_line = next(l for l in lines if needle in l)
        source = source.replace(set_line, "", 1)
        wait = next(l for l in source.splitlines(keepends=True)
                    if "WaitPreTaskEnd" in l and source.index(l) > source.index("inline void ProcessVector()"))
        bad = source.replace(wait, wait + set_line, 1)
        assert "AIV: a GM access comes after SetNextTaskStart" in mix_placement_problems(bad, "matmul_relu", "both", product)
        return
    bad = _move(source, needle, after)
    assert expected in mix_placement_problems(bad, "matmul_relu", "both", product)


def test_the_mix_check_catches_a_missing_side_call(emitted):
    kernel, source = emitted(ROOT / "examples" / "matmul.py", "matmul_relu", "ascend910_93")
    line = next(l for l in source.splitlines(keepends=True) if "after the last Fixpipe (AIC side)" in l)
    problems = mix_placement_problems(source.replace(line, "", 1), "matmul_relu", "both", products.get("ascend910_93"))
    assert "AIC: SetNextTaskStart 0 times in ProcessCube()" in problems
    assert any(p.startswith("SetNextTaskStart: 1 calls in the file") for p in problems)
