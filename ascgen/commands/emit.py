"""`ascgen emit SPEC.py --product P -o DIR [--host]`: emit every kernel a spec file defines."""
from __future__ import annotations

import os
import warnings
from pathlib import Path

from ascgen import console, products
from ascgen.commands import DEFAULT_PRODUCT
from ascgen.builder import load_spec
from ascgen.builder.ir import TASK_SYNC_MODES
from ascgen.codegen.emit import emit_files
from ascgen.codegen.tasksync import TaskSyncNoEffectWarning, TaskSyncPolicy, no_effect_message
from ascgen.errors import SpecError


def add_arguments(parser) -> None:
    parser.add_argument("spec", help="a Python spec file that builds ascgen.builder.Kernel objects")
    parser.add_argument("--product", "-p", default=DEFAULT_PRODUCT,
                        help=f"product id or alias (see `ascgen products`; default {DEFAULT_PRODUCT})")
    parser.add_argument("-o", "--out", default=".", help="output folder (default: the current folder)")
    parser.add_argument("--host", action="store_true",
                        help="also write a host main.cpp, CMakeLists.txt and data for direct <<<>>> invocation "
                             "(the calls get FORCE=true; SuperKernel products get the SK_BIND twin)")
    parser.add_argument("--length", type=int, default=None,
                        help="totalLength the host program runs (default: block_dim * 2 tiles + 37)")
    parser.add_argument("--task-sync", choices=TASK_SYNC_MODES, default=None,
                        help="override every kernel's task_sync setting")


def _check_out_folder(out: str) -> None:
    """-o names a folder (created if missing): refuse a file, a device, or a folder we cannot write, before
    any work is done."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise SpecError(f"-o {out}: exists and is not a folder; emit writes one .cpp per kernel into a folder. "
                        "Hint: pass -o a new or existing folder.")
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise SpecError(f"-o {out}: the folder {existing} is not writable. Hint: pass -o a folder you can write to.")


def run(args) -> int:
    product = products.get(args.product)
    if args.length is not None and args.length < 0:
        raise SpecError(f"--length must be >= 0, got {args.length}")
    _check_out_folder(args.out)
    kernels = load_spec(args.spec)
    policy = TaskSyncPolicy(mode=args.task_sync)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TaskSyncNoEffectWarning)   # said once below, on stderr
        try:
            paths = emit_files(kernels, product, args.out, host=args.host, policy=policy, spec_path=args.spec,
                               length=args.length)
        except OSError as exc:
            raise SpecError(f"-o {args.out}: cannot write {exc.filename or args.out}: {exc.strerror or exc}. "
                            "Hint: pass -o a folder you can write to.") from exc
    message = no_effect_message(product)
    if message and any((args.task_sync or k.task_sync) != "none" for k in kernels):
        console.warn(message)
    for path in paths:
        console.info(f"wrote {path}")
    return 0
