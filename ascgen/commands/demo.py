"""`ascgen demo`: the end-to-end story in one command.

1. build three kernels with the Python builder: scale (y = x * 2), add (z = y + w), relu (out = relu(z));
2. compose them into a SuperKernel over the shared GM buffers x, w, y, z, out; ascgen places the
   task-sync calls from the data flow (w is host data, so add prefetches it before its wait);
3. emit every task's Ascend C and the TorchAir `superkernel.py` snippet;
4. run the SuperKernel on the emulator with early start and without, check both against numpy, print the
   modeled gain and write a Chrome trace and the timeline picture;
5. plant two bugs in the emitted scale.cpp and show what the emulator reports: a SetNextTaskStart moved
   before the tile loop (a race) and one skipped on core 0 (a hang). `--bug` shows only the race.
"""
from __future__ import annotations

import re
import time
import warnings
from pathlib import Path

import numpy as np

from ascgen import console, products
from ascgen.commands import DEFAULT_PRODUCT


def add_arguments(parser) -> None:
    parser.add_argument("--product", default=DEFAULT_PRODUCT,
                        help=f"product to emit for and emulate (default {DEFAULT_PRODUCT})")
    parser.add_argument("-o", "--out", default="ascgen-demo", help="folder for the emitted files and the trace")
    parser.add_argument("--length", type=int, default=1 << 16, help="elements per buffer (default 65536)")
    parser.add_argument("--bug", action="store_true",
                        help="only plant a misplaced SetNextTaskStart in the first task and show the race report")
    parser.add_argument("--seed", type=int, default=None, help="schedule seed (perturbs thread interleavings)")
    parser.add_argument("--treat-as-effective", action="store_true",
                        help="on a product documented compile-only (ascend910b), run the calls as the library "
                             "code does (identical to A3)")


def build_superkernel(product):
    """The demo's three builder kernels composed as one SuperKernel."""
    from ascgen.builder import Kernel, Relu
    from ascgen.codegen.superkernel import SuperKernel

    scale = Kernel("scale", block_dim=8, tile_length=2048)
    x = scale.input("x", "float32")
    scale.output("y", x * 2.0)

    add = Kernel("add", block_dim=4, tile_length=2048)      # another split than scale's: cores exchange data
    y = add.input("y", "float32")
    w = add.input("w", "float32")
    add.output("z", y + w)

    relu = Kernel("relu", block_dim=8, tile_length=2048)
    z = relu.input("z", "float32")
    relu.output("out", Relu(z))

    sk = SuperKernel("demo_sk", product, options="early-start=1")
    return sk.add(scale).add(add).add(relu)


def plant_bug(source: str) -> str:
    """Move SetNextTaskStart from after the tile loop to right after WaitPreTaskEnd: every GM write of
    the task then sits in its tail, where it may overlap the next task."""
    set_line = re.search(r"^[ \t]*AscendC::SetNextTaskStart<[^>]*>\(\);[^\n]*\n", source, re.M)
    wait_line = re.search(r"^([ \t]*)AscendC::WaitPreTaskEnd\(\);[^\n]*\n", source, re.M)
    if not set_line or not wait_line:
        raise RuntimeError("demo: the emitted source has no task-sync calls to move")
    without = source[:set_line.start()] + source[set_line.end():]
    moved = f"{wait_line.group(1)}{set_line.group(0).strip()}  // BUG (planted by ascgen demo --bug)\n"
    at = without.index(wait_line.group(0)) + len(wait_line.group(0))
    return without[:at] + moved + without[at:]


def plant_hang(source: str) -> str:
    """Skip SetNextTaskStart on core 0: the boundary's flag round never completes, the next task's waiters
    would hang the device."""
    set_line = re.search(r"^([ \t]*)(AscendC::SetNextTaskStart<[^>]*>\(\);)[^\n]*\n", source, re.M)
    if not set_line:
        raise RuntimeError("demo: the emitted source has no SetNextTaskStart to skip")
    planted = (f"{set_line.group(1)}if (AscendC::GetBlockIdx() != 0) {{  // BUG (planted by ascgen demo): core 0 skips it\n"
               f"{set_line.group(1)}    {set_line.group(2)}\n{set_line.group(1)}}}\n")
    return source[:set_line.start()] + planted + source[set_line.end():]


def _numpy_truth(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.maximum(x * np.float32(2.0) + w, np.float32(0.0)).astype(np.float32)


def run(args) -> int:
    product = products.get(args.product)
    out = Path(args.out)
    t0 = time.perf_counter()
    sk = build_superkernel(product)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(args.length).astype(np.float32)
    w = rng.standard_normal(args.length).astype(np.float32)

    console.info(f"== 1. three builder kernels -> SuperKernel {sk.name!r} on {product.id}")
    for k, (task, policy) in enumerate(zip(sk.tasks, sk.policies())):
        reads = ", ".join(task.bind[p.name] for p in task.kernel.inputs)
        writes = ", ".join(task.bind[p.name] for p in task.kernel.outputs)
        pre = f"; prefetch {', '.join(sorted(policy.prefetch_inputs))} before WaitPreTaskEnd" \
            if policy.prefetch_inputs else ""
        console.info(f"   task {k} {task.kernel.name:<6} reads {reads:<6} writes {writes:<4} "
                     f"block_dim {task.block_dim}{pre}")

    console.info(f"== 2. emit Ascend C -> {out}/")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        paths = sk.emit(out)
    for path in paths:
        console.info(f"   wrote {path} ({len(path.read_text().splitlines())} lines)")
        console.verbose(f"---- {path} ----\n{path.read_text()}")      # `ascgen demo -v` shows the sources
    for message in dict.fromkeys(str(w.message) for w in caught):
        console.info(f"   note: {message}")

    if not product.superkernel:
        console.info(f"{product.id} has no SuperKernel: the sources above are portable (the calls compile and do "
                     "nothing there), but there is nothing to fuse. Run `ascgen demo --product ascend910_93` "
                     "to see the SuperKernel emulated.")
        return 0
    effective = product.task_sync == "effective" or args.treat_as_effective
    if not effective:
        console.info(f"note: task sync is documented compile-only on {product.id}: the calls do nothing and early "
                     "start gains nothing (pass --treat-as-effective to run the library code path, as on A3)")
    if args.bug:
        if not effective:
            console.info(f"on {product.id} the calls do nothing, so a misplaced one cannot race: nothing to show. "
                         "Pass --treat-as-effective, or use --product ascend910_93.")
            return 0
        return _run_bug(sk, product, out, x, w, args)

    console.info("== 3. run on the emulator (threads, one per core), with and without early start")
    results = {}
    for label, options in (("early start", "early-start=1"), ("no early start", "early-start=0")):
        arrays, report = sk.run({"x": x, "w": w}, options=options, source_dir=out, schedule_seed=args.seed,
                                treat_as_effective=args.treat_as_effective)
        ok = np.allclose(arrays["out"], _numpy_truth(x, w), rtol=1e-6, atol=1e-6)
        ref = sk.reference({"x": x, "w": w})["out"]
        ok = ok and np.array_equal(arrays["out"], ref)
        summary = report.timeline()
        modeled = summary.with_early_start if summary else float("nan")
        results[label] = (ok, report, modeled)
        console.info(f"   {label:<15} output {'matches' if ok else 'DIFFERS from'} numpy; "
                     f"{len(report.races)} race(s); modeled {modeled:,.0f} cycles")
    (ok1, rep1, t_es), (ok0, _, t_no) = results["early start"], results["no early start"]
    trace = rep1.to_chrome_trace(out / "demo_trace.json")
    gain = t_no / t_es if t_es else float("nan")
    console.info("== 4. modeled gain (cost-model parameters: docs/timeline.md)")
    console.info(f"   early start {t_es:,.0f} cycles vs full barriers {t_no:,.0f} cycles: gain {gain:.2f}x")
    console.info("   the same from the early-start run alone (docs/timeline.md):")
    console.info("\n".join("   " + line for line in str(rep1.timeline()).splitlines()[1:]))
    console.info(f"   trace: {trace} (open in https://ui.perfetto.dev)")
    svg = out / "demo_timeline.svg"
    svg.write_text(rep1.timeline_svg())
    console.info(f"   picture: {svg} (cores x time; open it in a browser)")
    if not (ok1 and ok0) or rep1.races:
        console.warn("the demo's SuperKernel gave a wrong result or a race: this is a bug in ascgen")
        return 1
    race = _run_bug(sk, product, out, x, w, args, step=5)
    hang = _run_hang(sk, out, x, w, args)
    console.info(f"done in {time.perf_counter() - t0:.1f} s: the clean SuperKernel passed, the planted race and "
                 "the planted hang were both reported (ascgen sk runs your own kernels the same way)")
    return 0 if race == 1 and hang == 1 else 1


def _planted(sk, out: Path, folder: str, plant) -> tuple[str, Path, int]:
    """The first task's emitted source with a bug planted, written to out/folder: (task file, path, line)."""
    bug_dir = out / folder
    bug_dir.mkdir(parents=True, exist_ok=True)
    sources = sk.sources()
    first = next(iter(sources))
    planted = plant(sources[first])
    (bug_dir / first).write_text(planted)
    line = next(i for i, s in enumerate(planted.splitlines(), 1) if "BUG (planted" in s)
    return first, bug_dir / first, line


def _run_bug(sk, product, out: Path, x, w, args, step: int = 3) -> int:
    first, path, line = _planted(sk, out, "bug", plant_bug)
    console.info(f"== {step}. plant a race: {path}:{line} calls SetNextTaskStart before the tile loop")
    arrays, report = sk.run({"x": x, "w": w}, source_dir=out, overrides={first: path},
                            schedule_seed=args.seed, treat_as_effective=args.treat_as_effective)
    console.info(f"   run with race detection: {len(report.races)} race(s)")
    if not report.races:
        console.warn("the planted bug was not detected: this is a bug in ascgen")
        return 2
    print(report.format_races())
    return 1


def _run_hang(sk, out: Path, x, w, args) -> int:
    from ascgen.errors import HangError
    first, path, line = _planted(sk, out, "hang", plant_hang)
    console.info(f"== 6. plant a hang: {path}:{line} skips SetNextTaskStart on core 0")
    try:
        sk.run({"x": x, "w": w}, source_dir=out, overrides={first: path}, schedule_seed=args.seed,
               treat_as_effective=args.treat_as_effective)
    except HangError as exc:
        console.info("   the emulator sees every live core blocked and reports instead of hanging:")
        print(exc)
        return 1
    console.warn("the planted hang was not detected: this is a bug in ascgen")
    return 2
