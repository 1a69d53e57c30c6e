"""Task-sync placement: where WaitPreTaskEnd / SetNextTaskStart go in Process(), and how they are spelled.

Rules (tasksync-semantics.md, docs/emit.md):
* Both calls are literal, straight-line statements of Process(), the one function that runs the tile loop,
  so each executes exactly once on every core, including cores with no tile: never in a loop or a branch.
* The wait comes after buffer setup (Init() ran before Process()) and before the first GM read; the set
  comes after the tile loop, i.e. after the last GM write (DataCopy to GM on PIPE_MTE3).
* Template arguments: the product's default <AIV_PIPE, AIC_PIPE>, spelled out; FORCE=true for direct
  `<<<>>>` invocation, where the SK_BIND twin advertises the calls through its cap bits.
* `prefetch_inputs`: the first tile of those inputs is loaded before the wait (they are not written by
  the previous task), guarded by `tileNum > 0`; the loop then skips that load on iteration 0.
* 2-D kernels load their per-column vectors once, after the wait and before the tile loop (`plan.preloads`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

from ascgen.builder.ir import TASK_SYNC_MODES
from ascgen.errors import SpecError

MODES = TASK_SYNC_MODES
_WARNED: set[str] = set()
SK_CAP_WAIT, SK_CAP_SET = 1, 2      # SK_BIND cap bits: early-start wait flag / set flag


class TaskSyncNoEffectWarning(UserWarning):
    """The product documents the task-sync calls as compile-only: they are emitted but do nothing."""


@dataclass(frozen=True)
class TaskSyncPolicy:
    mode: str | None = None                  # None: the kernel's own task_sync setting
    prefetch_inputs: frozenset = frozenset()
    force: bool = False
    set_early: bool = False                  # SetNextTaskStart before the tile loop (right after the wait):
                                             # only for a task whose successor touches none of its GM buffers


@dataclass(frozen=True)
class Line:
    indent: int          # levels inside Process()'s body
    text: str
    where: str = ""      # builder line it comes from, for the trailing comment


@dataclass(frozen=True)
class Placement:
    mode: str
    wait_call: str | None        # the literal statement, or None
    set_call: str | None
    process: tuple[Line, ...]    # the body of Process()
    prefetch: tuple[str, ...]    # input names loaded before the wait
    sk_cap: int                  # SK_BIND cap bits for the calls the kernel makes
    note: str | None             # a source comment for compile-only products


def wait_statement(force: bool) -> str:
    return "AscendC::WaitPreTaskEnd<true>();" if force else "AscendC::WaitPreTaskEnd();"


def set_statement(product, force: bool) -> str:
    aiv, aic = product.default_pipes
    return f"AscendC::SetNextTaskStart<{aiv}, {aic}{', true' if force else ''}>();"


def place_task_sync(plan, policy: TaskSyncPolicy | None = None) -> Placement:
    policy = policy or TaskSyncPolicy()
    mode = policy.mode or plan.spec.task_sync
    if mode not in MODES:
        raise SpecError(f"task-sync mode {mode!r} is not one of {', '.join(MODES)}")
    names = [t.name for t in plan.inputs]
    unknown = sorted(set(policy.prefetch_inputs) - set(names))
    if unknown:
        raise SpecError(f"prefetch_inputs names {unknown[0]!r}, which is not an input of kernel "
                        f"{plan.spec.name!r} (inputs: {', '.join(names)})")
    prefetch = tuple(n for n in names if n in policy.prefetch_inputs)   # input order: deterministic
    wait = wait_statement(policy.force) if mode in ("both", "wait") else None
    set_ = set_statement(plan.product, policy.force) if mode in ("both", "set") else None
    where = plan.spec.where
    lines: list[Line] = []
    for name in prefetch:
        lines.append(Line(0, f"if (this->tileNum > 0) {{ CopyIn{_method(plan, name)}(0); }}"
                             f"  // ascgen-check: allow(tasksync-gm-before-wait) prefetch: {name} is not "
                             f"written by the previous task"))
    if wait:
        lines.append(Line(0, wait, where))
    if set_ and policy.set_early:
        lines.append(Line(0, set_ + "  // ascgen-check: allow(tasksync-gm-after-set) early: the next task touches "
                                    "none of this task's GM buffers"))
    for t in getattr(plan, "preloads", ()):      # 2-D kernels: per-column vectors, read once after the wait
        lines.append(Line(0, f"if (this->tileNum > 0) {{ CopyIn{t.method}(); }}", t.where))
    lines.append(Line(0, "for (uint32_t i = 0; i < this->tileNum; i++) {"))
    for t in plan.inputs:
        call = f"CopyIn{t.method}(i);"
        lines.append(Line(1, f"if (i > 0) {{ {call} }}" if t.name in prefetch else call, t.where))
    lines.append(Line(1, "Compute(i);"))
    for t in plan.outputs:
        lines.append(Line(1, f"CopyOut{t.method}(i);", t.where))
    lines.append(Line(0, "}"))
    if set_ and not policy.set_early:
        lines.append(Line(0, set_, where))
    cap = (SK_CAP_WAIT if wait else 0) | (SK_CAP_SET if set_ else 0)
    return Placement(mode, wait, set_, tuple(lines), prefetch, cap, _note(plan.product, mode))


def _method(plan, name: str) -> str:
    return next(t.method for t in plan.inputs if t.name == name)


def no_effect_message(product) -> str | None:
    """The warning for a compile-only product, None where the calls take effect."""
    if product.task_sync != "compile-only":
        return None
    return (f"on {product.id} the task-sync calls are documented as compile-only (no effect); "
            f"they are emitted so the source stays portable")


def _note(product, mode: str) -> str | None:
    message = no_effect_message(product)
    if mode == "none" or message is None:
        return None
    if product.id not in _WARNED:          # once per product and process
        _WARNED.add(product.id)
        warnings.warn(message, TaskSyncNoEffectWarning, stacklevel=3)
    return message
