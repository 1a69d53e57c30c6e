"""`ascgen.emit(kernel, product)` and `ascgen emit SPEC.py --product P -o DIR [--host]`.

emit = plan_kernel -> place_task_sync -> render_kernel. With host=True the calls get FORCE=true and the
kernel file gains a launcher and (on SuperKernel products) the SK_BIND twin; emit_files then also writes
a host main.cpp, a CMakeLists.txt laid out like the asc-devkit direct-invocation samples, and the
input / golden data computed with the numpy reference.
"""
from __future__ import annotations

import dataclasses
import sys
import types
from pathlib import Path

from . import console, products
from .tasksync import TaskSyncPolicy, place_task_sync   # light: no numpy / jinja2 at `import ascgen`



def emit(kernel, product, *, host: bool = False, policy: TaskSyncPolicy | None = None,
         spec_file: str | None = None) -> str:
    """The Ascend C source of one built kernel for `product` (a Product or a name)."""
    from .plan import plan_kernel
    from .render import render_kernel

    product = products.get(product)
    plan = plan_kernel(kernel, product)
    policy = policy or TaskSyncPolicy()
    if host and not policy.force:
        policy = dataclasses.replace(policy, force=True)
    placement = place_task_sync(plan, policy)
    return render_kernel(plan, placement, host=host, spec_file=spec_file)


def emit_files(kernels, product, out_dir, *, host: bool = False, policy: TaskSyncPolicy | None = None,
               spec_path=None, length: int | None = None) -> list[Path]:
    """Write `<name>.cpp` per kernel into out_dir (and with host=True the host project); returns the paths."""
    from .emit_host import write_host_project

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
    from .plan import plan_kernel
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


# ---- CLI ----
def add_arguments(parser) -> None:
    parser.add_argument("spec", help="a Python spec file that builds ascgen.builder.Kernel objects")
    parser.add_argument("--product", "-p", required=True, help="product id or alias (see `ascgen products`)")
    parser.add_argument("-o", "--out", default=".", help="output folder (default: the current folder)")
    parser.add_argument("--host", action="store_true",
                        help="also write a host main.cpp, CMakeLists.txt and data for direct <<<>>> invocation "
                             "(the calls get FORCE=true; SuperKernel products get the SK_BIND twin)")
    parser.add_argument("--length", type=int, default=None,
                        help="totalLength the host program runs (default: block_dim * 2 tiles + 37)")
    parser.add_argument("--task-sync", choices=("both", "wait", "set", "none"), default=None,
                        help="override every kernel's task_sync setting")


def run(args) -> int:
    import warnings

    from .builder import load_spec
    from .errors import SpecError
    from .tasksync import TaskSyncNoEffectWarning, no_effect_message

    product = products.get(args.product)
    if args.length is not None and args.length < 0:
        raise SpecError(f"--length must be >= 0, got {args.length}")
    kernels = load_spec(args.spec)
    policy = TaskSyncPolicy(mode=args.task_sync)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)   # said once below, on stderr
        paths = emit_files(kernels, product, args.out, host=args.host, policy=policy, spec_path=args.spec,
                           length=args.length)
    message = no_effect_message(product)
    if message and any((args.task_sync or k.task_sync) != "none" for k in kernels):
        console.warn(message)
    for path in paths:
        console.info(f"wrote {path}")
    return 0


class _CallableModule(types.ModuleType):
    """`ascgen.emit` is both this module (for the CLI contract) and the function `emit`."""

    def __call__(self, *args, **kwargs):
        return emit(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
# `ascgen.emit` is the function once the package imported it; keep `ascgen.emit.emit_files` working too.
emit.emit_files = emit_files
emit.TaskSyncPolicy = TaskSyncPolicy
