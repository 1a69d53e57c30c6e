"""`ascgen sk`: run a kernel as a task of a SuperKernel from the command line and print the verdict.

    ascgen sk leaky.cpp --kernel leaky_relu --block-dim 8 --arg in:x.bin --arg out:y.bin:65536 --arg 16384
    ascgen sk spec.py --kernel add_relu --length 40000          # a builder kernel, random inputs
    ascgen sk --tasks a.cpp:scale:8,b.cpp:shift:4 --arg x=in:x.bin --arg y=zeros:32768 ...   # your chain

A single kernel runs between two generated neighbours (sk_neighbours.py), early start on: a producer that
rewrites every GM input just before its SetNextTaskStart and a consumer that reads every GM output right
after its WaitPreTaskEnd, so both overlap windows of the kernel are exercised (`--alone`: no neighbours).
Verdicts: clean (exit 0); race, hang or count mismatch (exit 1, the report names the lines); bad input
(exit 2), like `ascgen check`.
"""
from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from ascgen import console, products
from ascgen.commands import DEFAULT_PRODUCT
from ascgen.commands import run as run_cmd
from ascgen.commands.sk_neighbours import CONSUMER, PRODUCER, consumer_source, producer_source
from ascgen.errors import HangError, SpecError, SyncCountError
from ascgen.runtime import limits

if TYPE_CHECKING:
    from ascgen.runtime.module import Module

NAMED_ARG = re.compile(r"([A-Za-z_]\w*)=(.*)")
VERDICTS = {HangError: "hang", SyncCountError: "count mismatch"}


def add_arguments(parser) -> None:
    parser.add_argument("source", nargs="?", help="an Ascend C file (.cpp, .asc), a builder spec (.py), or an "
                                                  "operator repository's op folder (its kernel built as its kernel "
                                                  "UT builds it, ascgen ut; devkit backend)")
    parser.add_argument("--kernel", help="the kernel to run (a __global__ function, or a spec's kernel)")
    parser.add_argument("--block-dim", type=int, help="blocks of the kernel (a spec kernel: its own block_dim)")
    parser.add_argument("--arg", action="append", default=[], metavar="VALUE",
                        help=run_cmd.ARG_HELP + "; NAME=VALUE binds the parameter NAME (required with --tasks: "
                             "parameters of the same name in several tasks share one buffer)")
    parser.add_argument("--tasks", metavar="FILE:KERNEL[:BLOCKS],...",
                        help="your own chain of tasks, in order, instead of one kernel between generated neighbours")
    parser.add_argument("--alone", action="store_true", help="run the kernel as the only task (no neighbours)")
    parser.add_argument("--length", type=int, default=None,
                        help="a spec kernel: elements per buffer (default: 3 tiles per block plus a tail)")
    parser.add_argument("--product", default=DEFAULT_PRODUCT, help=f"product to emulate (default {DEFAULT_PRODUCT})")
    parser.add_argument("--options", default="early-start=1", help="SuperKernel options (default early-start=1)")
    parser.add_argument("--backend", choices=("builtin", "devkit"), default=None,
                        help="builtin (default; devkit for an op folder) or devkit: the real asc-devkit library "
                             "(needs ASCGEN_ASC_DEVKIT)")
    parser.add_argument("--kernel-type", help="force the kernel type instead of inferring it from the source")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="preprocessor define")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="extra include folder")
    parser.add_argument("--seed", type=int, default=None, help="schedule seed (a verdict never depends on it)")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="wall-clock limit in seconds")
    parser.add_argument("--treat-as-effective", action="store_true",
                        help="on ascend910b (task sync documented compile-only) run the calls as on A3")
    parser.add_argument("--svg", metavar="FILE", help="write the timeline picture (cores x time) to FILE")
    parser.add_argument("--trace", metavar="FILE", help="write the Chrome trace (JSON) to FILE")
    parser.add_argument("--format", choices=("text", "json"), default="text")


@dataclass
class Task:
    """One task of the chain: where its kernel comes from, its blocks, its bound arguments."""
    module: Module
    kernel: str
    block_dim: int
    args: list
    reads: list = field(default_factory=list)     # (parameter name, array): GM the task's neighbours write
    writes: list = field(default_factory=list)    # (parameter name, array): GM the task's neighbours read


# ---- the kernel's arguments ---------------------------------------------------------------------

def _split_named(specs: list[str]) -> tuple[list[str], dict[str, str]]:
    positional, named = [], {}
    for spec in specs:
        m = NAMED_ARG.fullmatch(spec)
        if m and not spec.startswith(("in:", "out:", "inout:", "zeros:", "host:")):
            if m.group(1) in named:
                raise SpecError(f"--arg {spec}: parameter {m.group(1)} is given twice")
            named[m.group(1)] = m.group(2)
        else:
            positional.append(spec)
    if positional and named:
        raise SpecError("--arg: give every argument by position or every one as NAME=VALUE, not both")
    return positional, named


def _kind(spec: str) -> str:
    if spec == "null":
        return "null"
    return spec.partition(":")[0] if spec.partition(":")[0] in ("in", "out", "inout", "zeros", "host") else "scalar"


def _bind(module, kernel: str, block_dim: int, specs, outputs: list, shared: dict | None = None) -> Task:
    """The task of `kernel`, its arguments made by `ascgen run`'s code (typed views of byte buffers), and
    which buffers are GM inputs and outputs. `specs`: a list (by position), or a dict by parameter name
    with `shared` (name -> (array, kind)) so a name already bound by an earlier task reuses its buffer."""
    params = [name for name, _ in module._kernel_info(kernel).params]
    if shared is None:
        raw, kinds = run_cmd._kernel_args(specs, outputs), [_kind(s) for s in specs]
    else:
        missing = [p for p in params if p not in specs and p not in shared]
        if missing:
            raise SpecError(f"kernel {kernel} of {module.source}: no --arg for parameter(s) {', '.join(missing)}. "
                            f"Hint: --arg {missing[0]}=in:FILE (or out:FILE:NBYTES, zeros:NBYTES, a number).")
        for p in params:
            if p not in shared:
                shared[p] = (run_cmd._kernel_args([specs[p]], outputs)[0], _kind(specs[p]))
        raw, kinds = [shared[p][0] for p in params], [shared[p][1] for p in params]
    values = run_cmd._typed(module, kernel, raw)
    return Task(module, kernel, block_dim, values,
                reads=[(n, v) for n, k, v in zip(params, kinds, values) if k in ("in", "inout")],
                writes=[(n, v) for n, k, v in zip(params, kinds, values) if k in ("out", "inout")])


# ---- the tasks ----------------------------------------------------------------------------------

def _load(path: str, args):
    from ascgen.runtime.loader import load
    if Path(path).is_dir():             # an operator's folder: its kernel as the op's kernel UT builds it
        from ascgen.ut.kernel import kernel_module
        if args.defines or args.include_dirs or args.kernel_type:
            raise SpecError(f"{path} is an op folder, built with its kernel UT's include folders and defines; "
                            "drop -D, -I and --kernel-type (or pass the kernel's .cpp file with them)")
        return kernel_module(path, args.product, backend=args.backend)
    return load(path, args.product, defines=run_cmd._defines(args.defines), include_dirs=args.include_dirs,
                kernel_type=args.kernel_type, backend=args.backend)


def _spec_task(args) -> tuple[Task, Callable[[], list] | None]:
    """A builder spec's kernel with random inputs at --length, and the check of its outputs."""
    from ascgen.builder import load_spec
    from ascgen.codegen.emit import emit
    from ascgen.commands import test as test_cmd
    from ascgen.runtime.loader import load
    kernels = load_spec(Path(args.source))
    names = [k.name for k in kernels]
    if not args.kernel and len(kernels) == 1:
        args.kernel = names[0]
    kernel = next((k for k in kernels if k.name == args.kernel), None)
    if kernel is None:
        raise SpecError(f"{args.source} defines no kernel {args.kernel!r}; pass --kernel, one of: {', '.join(names)}")
    if kernel.dims:
        raise SpecError(f"ascgen sk runs 1-D spec kernels; {kernel.name} is 2-D. Hint: emit it (ascgen emit) "
                        "and pass the source with --kernel and --arg.")
    length = args.length if args.length is not None else 3 * kernel.block_dim * kernel.tile_length + 7
    source = emit(kernel, args.product)
    module = load(source, args.product, filename=f"{kernel.name}.cpp", backend=args.backend)
    dims, inputs, scalars, outs = test_cmd._case(kernel, length, seed=0)
    values = {**inputs, **outs, **scalars}
    call = [values[p.name] for p in kernel.params]
    call[kernel.length_index:kernel.length_index] = list(dims)
    task = Task(module, kernel.name, args.block_dim or kernel.block_dim, call,
                reads=[(n, a) for n, a in inputs.items()], writes=[(n, a) for n, a in outs.items()])

    def verify() -> list[str]:
        _, details = test_cmd._against_reference(kernel, length, inputs, scalars, outs)
        return details
    return task, verify


def _chain(args, outputs: list) -> list[Task]:
    _, named = _split_named(args.arg)
    if args.arg and not named:
        raise SpecError("--tasks binds arguments by parameter name: write --arg NAME=VALUE "
                        "(parameters of the same name share one buffer)")
    shared: dict = {}
    tasks = []
    for item in args.tasks.split(","):
        path, _, rest = item.strip().partition(":")
        kernel, _, blocks = rest.partition(":")
        if not path or not kernel:
            raise SpecError(f"--tasks {item}: write FILE:KERNEL[:BLOCKS], e.g. a.cpp:scale:8")
        block_dim = int(blocks) if blocks.isdigit() else args.block_dim
        if not block_dim or block_dim < 1:
            raise SpecError(f"--tasks {item}: no block count; write {path}:{kernel}:N or pass --block-dim N")
        tasks.append(_bind(_load(path, args), kernel, block_dim, named, outputs, shared))
    unused = set(named) - set(shared)
    if unused:
        raise SpecError(f"--arg {sorted(unused)[0]}=...: no task has a parameter of that name")
    return tasks


def _single(args, outputs: list) -> tuple[Task, Callable[[], list] | None]:
    if not args.source:
        raise SpecError("ascgen sk: give a source file and --kernel NAME, or --tasks FILE:KERNEL,...")
    if args.source.endswith(".py"):
        return _spec_task(args)
    if not args.kernel:
        raise SpecError(f"{args.source}: pass --kernel NAME (the __global__ function to run)")
    if not args.block_dim or args.block_dim < 1:
        raise SpecError("--kernel needs --block-dim N (a positive number of blocks)")
    module = _load(args.source, args)
    positional, named = _split_named(args.arg)
    if named:
        return _bind(module, args.kernel, args.block_dim, named, outputs, {}), None
    return _bind(module, args.kernel, args.block_dim, positional, outputs), None


def _with_neighbours(task: Task, args) -> list[Task]:
    """The producer, the task, the consumer (a neighbour without buffers to touch is left out)."""
    from ascgen.runtime.loader import load
    blocks = max(2, task.block_dim)        # at least two cores: one core's accesses are ordered, never a race
    chain = []
    if task.reads:
        mod = load(producer_source([(n, a.nbytes) for n, a in task.reads]), args.product,
                   filename="ascgen-sk-producer.cpp", backend=args.backend)
        chain.append(Task(mod, PRODUCER, blocks, [a for _, a in task.reads]))
    chain.append(task)
    if task.writes:
        mod = load(consumer_source([(n, a.nbytes) for n, a in task.writes]), args.product,
                   filename="ascgen-sk-consumer.cpp", backend=args.backend)
        chain.append(Task(mod, CONSUMER, blocks, [a for _, a in task.writes]))
    return chain


# ---- the run and its verdict ---------------------------------------------------------------------

def run(args) -> int:
    product = products.get(args.product)
    if not product.superkernel:
        raise SpecError(f"{product.id} has no SuperKernel; use a product that has one (ascgen products), "
                        f"e.g. --product {DEFAULT_PRODUCT}")
    args.time_limit = limits.time_limit(args.time_limit, "--time-limit")
    if args.backend is None:
        args.backend = "devkit" if args.source and Path(args.source).is_dir() else "builtin"
    args.include_dirs = [str(Path(d).resolve()) for d in args.include_dirs]
    outputs: list = []
    verify = None
    if args.tasks:
        chain = _chain(args, outputs)
    else:
        task, verify = _single(args, outputs)
        if not args.alone and not (task.reads or task.writes):
            console.warn("no GM argument is in:, out: or inout:, so the generated neighbours have nothing to "
                         "touch and the kernel runs alone; pass its inputs as in:FILE and outputs as out:FILE:NBYTES")
        chain = [task] if args.alone else _with_neighbours(task, args)
    verdict, report, error, seconds = _run_chain(chain, args)
    wrong = verify() if verify and verdict == "clean" else []
    for path, data in outputs:
        data.tofile(path)
    _show(chain, verdict, report, error, wrong, seconds, args)
    return 0 if verdict == "clean" and not wrong else 1


def _run_chain(chain: list[Task], args):
    from ascgen.runtime import SuperKernel
    sk = SuperKernel(args.product, options=args.options, schedule_seed=args.seed, time_limit_s=args.time_limit,
                     treat_as_effective=args.treat_as_effective)
    for t in chain:
        sk.add(t.module, t.kernel, t.block_dim, *t.args)
    console.step(f"running {len(chain)} task(s) as a SuperKernel on {args.product}...")
    start = time.perf_counter()
    try:
        report = sk.run()
    except (HangError, SyncCountError) as exc:
        console.done()
        return VERDICTS[type(exc)], None, exc, time.perf_counter() - start
    console.done()
    if args.svg:
        Path(args.svg).write_text(report.timeline_svg())
    if args.trace:
        report.to_chrome_trace(args.trace)
    return ("race" if report.races else "clean"), report, None, time.perf_counter() - start


def _task_line(k: int, t: Task) -> str:
    role = {PRODUCER: "generated: writes " + ", ".join(n for n, _ in _neighbour_buffers(t)) + " right before its set",
            CONSUMER: "generated: reads " + ", ".join(n for n, _ in _neighbour_buffers(t)) + " right after its wait"}
    return f"  task {k} {t.kernel} on {t.block_dim} block(s)" + (f" ({role[t.kernel]})" if t.kernel in role else
                                                                 f" ({Path(t.module.source).name})")


def _neighbour_buffers(t: Task) -> list:
    return [(p, a) for (p, _), a in zip(t.module._kernel_info(t.kernel).params, t.args)]


def _show(chain, verdict, report, error, wrong, seconds, args) -> None:
    if args.format == "json":
        print(json.dumps({"verdict": verdict if not wrong else "wrong result", "product": args.product,
                          "options": args.options, "tasks": [t.kernel for t in chain],
                          "error": None if error is None else {"type": type(error).__name__, "message": str(error)},
                          "wrong": wrong, "report": None if report is None else report.to_dict(),
                          "seconds": round(seconds, 3)}, indent=2))
        return
    console.info(f"SuperKernel on {args.product} ({args.options}):")
    for k, t in enumerate(chain):
        console.info(_task_line(k, t))
    if error is not None:
        print(str(error), file=sys.stderr)
    elif report.races:
        print(report.format_races())
    if report is not None:
        for lint in report.lints:
            console.verbose(str(lint))
        summary = report.timeline()
        if summary is not None:
            console.info(str(summary))
    for line in wrong:
        print(f"wrong result: {line}")
    detail = {"clean": "no race, every task-sync call once per core",
              "race": f"{len(report.races) if report else 0} race(s) between tasks"}.get(verdict, "see the report above")
    print(f"verdict: {verdict if not wrong else 'wrong result'} ({detail}){'' if not args.svg or report is None else f'; timeline: {args.svg}'}")
