"""`ascgen.emit(kernel, product)`: one built kernel -> its Ascend C text; `emit_files` writes a spec's kernels.

emit = plan_kernel -> place_task_sync -> render_kernel. With host=True the calls get FORCE=true and the
kernel file gains a launcher and (on SuperKernel products) the SK_BIND twin; emit_files then also writes
a host main.cpp, a CMakeLists.txt laid out like the asc-devkit direct-invocation samples, and the
input / golden data computed with the numpy reference.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from ascgen import console, products
from ascgen.errors import SpecError
from ascgen.codegen.host import write_host_project
from ascgen.codegen.plan import KernelPlan, plan_kernel
from ascgen.codegen.render import render_kernel
from ascgen.codegen.tasksync import TaskSyncPolicy, place_task_sync

if TYPE_CHECKING:       # imported where used: plan_rows and plan_matmul import this package's plan module
    from ascgen.codegen.plan_matmul import MatmulPlan
    from ascgen.codegen.plan_rows import RowPlan


@dataclasses.dataclass(frozen=True)
class Emitted:
    """One emitted kernel: its Ascend C text and the plan it was rendered from (KernelPlan, RowPlan or
    MatmulPlan), so callers such as `ascgen test` read the planner's decisions without planning again."""
    text: str
    plan: KernelPlan | RowPlan | MatmulPlan


def emit(kernel, product, *, host: bool = False, policy: TaskSyncPolicy | None = None,
         spec_file: str | None = None) -> str:
    """The Ascend C source of one built kernel for `product` (a Product or a name)."""
    return emit_plan(kernel, product, host=host, policy=policy, spec_file=spec_file).text


def emit_plan(kernel, product, *, host: bool = False, policy: TaskSyncPolicy | None = None,
              spec_file: str | None = None) -> Emitted:
    """`emit`, also handing back the plan."""
    product = products.get(product)
    spec = kernel.spec() if hasattr(kernel, "spec") else kernel
    policy = policy or TaskSyncPolicy()
    if host and not policy.force:
        policy = dataclasses.replace(policy, force=True)
    if spec.matmul is not None:
        return _emit_matmul(spec, product, host=host, policy=policy, spec_file=spec_file)
    if spec.is_2d:
        return _emit_rows(spec, product, host=host, policy=policy, spec_file=spec_file)
    plan = plan_kernel(spec, product)
    placement = place_task_sync(plan, policy)
    return Emitted(render_kernel(plan, placement, host=host, spec_file=spec_file), plan)


def _emit_matmul(spec, product, *, host: bool, policy, spec_file) -> Emitted:
    """A Matmul kernel: plan_matmul -> both sides' task-sync calls -> render_matmul (a MIX kernel)."""
    from ascgen.codegen.plan_matmul import plan_matmul
    from ascgen.codegen.render_matmul import render_matmul
    from ascgen.codegen.tasksync import MODES, _note
    if policy.prefetch_inputs or policy.set_early:
        raise SpecError(f"kernel {spec.name!r}: prefetch_inputs / set_early are not offered for Matmul kernels")
    plan = plan_matmul(spec, product)
    mode = policy.mode or spec.task_sync
    if mode not in MODES:
        raise SpecError(f"task-sync mode {mode!r} is not one of {', '.join(MODES)}")
    return Emitted(render_matmul(plan, mode=mode, note=_note(product, mode), force=policy.force,
                                 spec_file=spec_file, host=host), plan)


def _emit_rows(spec, product, *, host: bool, policy, spec_file) -> Emitted:
    """A 2-D kernel: plan_rows -> the same task-sync placement -> render_rows."""
    from ascgen.codegen.plan_rows import plan_rows
    from ascgen.codegen.render_rows import render_rows
    plan = plan_rows(spec, product)
    return Emitted(render_rows(plan, place_task_sync(plan, policy), spec_file=spec_file, host=host), plan)


def emit_files(kernels, product, out_dir, *, host: bool = False, policy: TaskSyncPolicy | None = None,
               spec_path=None, length: int | None = None) -> list[Path]:
    """Write `<name>.cpp` per kernel into out_dir (and with host=True the host project); returns the paths."""
    product = products.get(product)
    out = Path(out_dir)
    spec_file = Path(spec_path).name if spec_path else None
    texts = {}
    for kernel in kernels:        # every kernel first: one bad kernel leaves no half-written folder
        console.progress(f"emitting {kernel.name}.cpp for {product.id}...")
        _describe(kernel, product)
        texts[kernel.name] = emit(kernel, product, host=host, policy=policy, spec_file=spec_file)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in texts.items():
        path = out / f"{name}.cpp"
        _write(path, text)
        written.append(path)
    if host:
        written += write_host_project(kernels, product, out, spec_file=spec_file, length=length)
    console.done()
    return written


def _describe(kernel, product) -> None:
    """`-v`: what the planner decided for a kernel (UB per buffer, tiles, tail strategy)."""
    if kernel.spec().matmul is not None:
        from ascgen.codegen.plan_matmul import plan_matmul
        matmul = plan_matmul(kernel.spec(), product)
        console.verbose(f"{kernel.name}: MIX Matmul, tile {matmul.tile}, block_dim {kernel.block_dim} AI Cores; "
                        + ", ".join(f"{mem} {used} of {cap} B" for mem, _, used, cap in matmul.cube_items)
                        + f"; UB {matmul.epilogue.ub_used} B")
        return
    if kernel.spec().is_2d:
        from ascgen.codegen.plan_rows import plan_rows
        rows = plan_rows(kernel.spec(), product)
        console.verbose(f"{kernel.name}: 2-D ({', '.join(kernel.dims)}), block_dim {kernel.block_dim}, rows up to "
                        f"{kernel.tile_length} elements, UB {rows.ub_used} of {rows.ub_usable} B: "
                        + ", ".join(f"{what} {n} B" for what, n in rows.ub_items))
        return
    plan = plan_kernel(kernel, product)
    tail = "DataCopyPad tails" if plan.data_copy_pad else f"aligned remainder window (min length {plan.min_length})"
    console.verbose(f"{kernel.name}: block_dim {kernel.block_dim}, tile {kernel.tile_length}, "
                    f"buffer_num {kernel.buffer_num}, {tail}, task sync {kernel.task_sync}; "
                    f"UB {plan.ub_used} of {plan.ub_usable} B: "
                    + ", ".join(f"{what} {n} B" for what, n in plan.ub_items))


def _write(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    tmp.replace(path)
