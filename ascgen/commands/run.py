"""`ascgen run`: build and run hand-written Ascend C on the CPU emulator.

Two forms:

    ascgen run add.asc --product ascend910b --cwd build        # a whole program: its host main()
    ascgen run k.cpp --kernel add_custom --block-dim 8 \\
        --arg in:input/x.bin --arg in:input/y.bin --arg out:output/z.bin:65536 --arg 16384

A program's `kernel<<<blocks, l2ctrl, stream>>>(args)` launches are rewritten in a copy (host_rewrite.py)
whose #line directive keeps the user's file and lines; its `main` is renamed and called from Python, so a
fault in a launch raises the typed error and the interpreter survives. Programs read ./input/*.bin
relative to the working directory: --cwd runs them there.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ascgen import console, products
from ascgen.commands import DEFAULT_PRODUCT
from ascgen.errors import SpecError
from ascgen.runtime import backends, limits
from ascgen.runtime.program import has_main, load_program, program_flags, run_program  # noqa: F401 (re-exported)
from ascgen.source.signature import KERNEL_TYPES, strip_comments

ARG_HELP = ("kernel argument, in parameter order: a number (scalar), in:PATH (GM input read from a file), "
            "inout:PATH (read, then written back), out:PATH:NBYTES (zero-filled GM, written to PATH), "
            "zeros:NBYTES (scratch GM), host:PATH (GM input read from a file that no other task writes: tiling "
            "data, weights; ascgen sk's neighbours leave it alone), null (a null GM pointer)")


def add_arguments(parser) -> None:
    parser.add_argument("source", nargs="+",
                        help="the Ascend C file (.cpp or .asc); a program may span several files, one with main()")
    parser.add_argument("--product", default=DEFAULT_PRODUCT, help=f"product to emulate (default {DEFAULT_PRODUCT})")
    parser.add_argument("--kernel", help="launch this kernel instead of running the program's main()")
    parser.add_argument("--block-dim", type=int, help="blocks for --kernel")
    parser.add_argument("--arg", action="append", default=[], metavar="VALUE", help=ARG_HELP)
    parser.add_argument("--cwd", help="run in this folder (programs read ./input, write ./output)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="preprocessor define, e.g. -D SCENARIO_NUM=1")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="extra include folder (the source's own folder is always searched)")
    parser.add_argument("--include", dest="forced_includes", action="append", default=[], metavar="FILE",
                        help="include FILE at the top of every source (g++ -include), e.g. a tiling header")
    parser.add_argument("-l", dest="link_libs", action="append", default=[], metavar="LIB",
                        help="link the program with library LIB (g++ -lLIB), e.g. -l gtest")
    parser.add_argument("-L", dest="lib_dirs", action="append", default=[], metavar="DIR",
                        help="search DIR for -l libraries")
    parser.add_argument("--file-prefix-map", dest="file_maps", action="append", default=[], metavar="COPY=ORIGINAL",
                        help="sources under folder COPY are a copy of ORIGINAL (a build's kernel copy tree): "
                             "reports name the original files")
    parser.add_argument("--backend", choices=backends.names(), default=backends.DEFAULT, help=backends.help_text())
    parser.add_argument("--kernel-type", choices=KERNEL_TYPES,
                        help="force the kernel type instead of inferring it from the source")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="wall-clock limit per launch in seconds (default 60)")
    parser.add_argument("--races", action="store_true",
                        help="detect cross-task data races (a program's SuperKernels; for one kernel use ascgen sk)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: one object with the kernel, the time and the files written (--kernel)")
    parser.add_argument("--isolated", action="store_true",
                        help="run in a subprocess so a crash (segfault) is reported instead of killing ascgen")
    parser.add_argument("--crash-report", action="store_true", help=argparse.SUPPRESS)   # isolated child
    parser.add_argument("--args", dest="program_args", nargs=argparse.REMAINDER, default=[], metavar="ARG",
                        help="everything after --args is passed to the program's main (argv[1:])")


def _defines(items) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise SpecError(f"-D {item}: {name!r} is not a macro name")
        out[name] = value if _ else None
    return out


def _file_map(item: str) -> tuple[Path, Path]:
    copy, eq, original = item.partition("=")
    if not (eq and copy and original):
        raise SpecError(f"--file-prefix-map {item}: write COPY=ORIGINAL (two folders)")
    return Path(os.path.abspath(copy)), Path(os.path.abspath(original))     # as the sources: links kept


@contextmanager
def _working_dir(path):
    if not path:
        yield
        return
    old = os.getcwd()
    try:
        os.chdir(path)
    except OSError as exc:
        raise SpecError(f"--cwd {path}: {exc.strerror}") from exc
    try:
        yield
    finally:
        os.chdir(old)


# ---- kernel mode ----------------------------------------------------------------------------------

def _kernel_args(specs, outputs: list):
    args: list[np.ndarray | int | float | None] = []
    for spec in specs:
        kind, _, rest = spec.partition(":")
        try:
            if spec == "null":
                args.append(None)
            elif kind in ("in", "inout", "host"):
                data = np.fromfile(rest, dtype=np.uint8)
                args.append(data)
                if kind == "inout":
                    _check_writable(rest, spec)
                    outputs.append((rest, data))
            elif kind == "out":
                path, _, size = rest.rpartition(":")
                if not path:
                    raise SpecError(f"--arg {spec}: write out:PATH:NBYTES. {ARG_HELP}")
                _check_writable(path, spec)
                data = np.zeros(limits.buffer_bytes(size, f"--arg {spec}"), dtype=np.uint8)
                args.append(data)
                outputs.append((path, data))
            elif kind == "zeros":
                args.append(np.zeros(limits.buffer_bytes(rest, f"--arg {spec}"), dtype=np.uint8))
            elif re.fullmatch(r"[-+]?\d+", spec):
                args.append(int(spec))
            else:
                args.append(float(spec))
        except MemoryError as exc:
            raise SpecError(f"--arg {spec}: not enough memory for the buffer. {ARG_HELP}") from exc
        except (OSError, ValueError) as exc:
            if isinstance(exc, SpecError):
                raise
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise SpecError(f"--arg {spec}: {why}. {ARG_HELP}") from exc
    return args


def _check_writable(path: str, spec: str) -> None:
    """An output file must be writable before the kernel runs, not found unwritable after it."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise SpecError(f"--arg {spec}: {path} is a folder; name the file to write")
    if not folder.is_dir():
        raise SpecError(f"--arg {spec}: the folder {folder} does not exist. Hint: create it first.")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise SpecError(f"--arg {spec}: {path} is not writable")


def _typed(module, name: str, args: list) -> list:
    """View byte buffers as the element type of typed pointer parameters (float* x <- in:x.bin)."""
    info = module._kernel_info(name)
    out = []
    for kind, value in zip(info.kinds, args):
        pointee = kind[4:] if kind.startswith("ptr:") else ""
        if isinstance(value, np.ndarray) and pointee not in ("", "uint8", "int8", "void") \
                and not pointee.startswith("?"):
            dtype = np.dtype(pointee) if pointee != "bfloat16" else __import__("ml_dtypes").bfloat16
            if value.nbytes % np.dtype(dtype).itemsize == 0:
                value = value.view(dtype)
        out.append(value)
    return out + list(args[len(info.kinds):])    # extra values stay, so the binder reports the count


def run_kernel(args, defines) -> int:
    from ascgen.runtime.loader import load
    if not args.block_dim:
        raise SpecError("--kernel needs --block-dim N")
    module = load(args.source, args.product, defines=defines, include_dirs=args.include_dirs,
                  kernel_type=args.kernel_type, backend=args.backend)
    if args.races:
        console.warn("a one-task launch has no neighbour task, so it cannot show a cross-task race; run the kernel "
                     f"as a SuperKernel task between generated neighbours: ascgen sk {Path(args.source).name} "
                     "--kernel ... (the same arguments)")
    outputs: list = []
    values = _typed(module, args.kernel, _kernel_args(args.arg, outputs))
    import ml_dtypes  # noqa: F401  (binding imports it on the first float argument: keep that out of the timing)
    start = time.perf_counter()
    result = module.launch(args.kernel, args.block_dim, *values, time_limit_s=args.time_limit,
                           detect_races=args.races, isolated=args.isolated)
    elapsed = time.perf_counter() - start
    for path, data in outputs:
        try:
            data.tofile(path)
        except OSError as exc:
            raise SpecError(f"cannot write the output {path}: {exc.strerror or exc}") from exc
    output = getattr(result, "output", "")
    if args.format == "json":
        print(json.dumps({"kernel": args.kernel, "block_dim": args.block_dim, "product": module.product.id,
                          "kernel_type": module.kernel_type(args.kernel), "backend": args.backend,
                          "ms": round(elapsed * 1000, 3), "wrote": [p for p, _ in outputs], "output": output}))
        return 0
    if output:
        sys.stdout.write(output if output.endswith("\n") else output + "\n")
    console.info(f"ran {args.kernel} on {args.block_dim} block(s) ({module.kernel_type(args.kernel)}) for "
                 f"{module.product.id} in {elapsed * 1000:.1f} ms"
                 + (f"; wrote {', '.join(p for p, _ in outputs)}" if outputs else ""))
    return 0


def _argv_without_isolated(args) -> list[str]:
    """The same `ascgen run` command line, rebuilt from parsed args, for the isolated child."""
    argv = ["run", *[os.path.abspath(Path(s).expanduser()) for s in args.source], "--product", args.product,
            "--time-limit", str(args.time_limit)]
    if args.cwd:
        argv += ["--cwd", str(Path(args.cwd).resolve())]
    for d in args.defines:
        argv += ["-D", d]
    for d in args.include_dirs:
        argv += ["-I", str(Path(d).resolve())]
    for f in args.forced_includes:
        argv += ["--include", str(Path(f).resolve())]
    for d in args.lib_dirs:
        argv += ["-L", str(Path(d).resolve())]
    for lib in args.link_libs:
        argv += ["-l", lib]
    for m in args.file_maps:
        argv += ["--file-prefix-map", "=".join(map(str, _file_map(m)))]
    if args.kernel_type:
        argv += ["--kernel-type", args.kernel_type]
    if args.backend != backends.DEFAULT:
        argv += ["--backend", args.backend]
    if args.races:
        argv.append("--races")
    if args.format != "text":
        argv += ["--format", args.format]
    if args.quiet:
        argv.append("--quiet")
    return [*argv, "--args", *args.program_args] if args.program_args else argv


def run(args) -> int:
    products.get(args.product)
    args.time_limit = limits.time_limit(args.time_limit, "--time-limit")
    if args.block_dim is not None and args.block_dim < 1:
        raise SpecError(f"--block-dim must be a positive integer; got {args.block_dim}")
    defines = _defines(args.defines)
    if args.isolated and not args.kernel:
        from ascgen.runtime.isolate import run_cli_isolated
        return run_cli_isolated(_argv_without_isolated(args))
    # Paths on the command line are relative to where ascgen was started, not to --cwd.
    args.source = [os.path.abspath(Path(s).expanduser()) for s in args.source]     # links kept: load_program
    args.include_dirs = [str(Path(d).resolve()) for d in args.include_dirs]
    with _working_dir(args.cwd):
        if args.kernel:
            if args.forced_includes or args.link_libs or args.lib_dirs:
                raise SpecError("--include, -l and -L apply to a whole program (its main); drop --kernel or them")
            if len(args.source) > 1:
                raise SpecError("--kernel launches a kernel of one source; give exactly one file")
            args.source = args.source[0]
            return run_kernel(args, defines)
        flags = program_flags(args.forced_includes, args.link_libs, args.lib_dirs, args.crash_report, defines,
                              [_file_map(m) for m in args.file_maps])
        module = load_program(args.source, args.product, defines=defines, include_dirs=args.include_dirs,
                              kernel_type=args.kernel_type, extra_flags=flags, backend=args.backend)
        if args.crash_report:
            module.install_crash_handler()
        code = run_program(module, args.program_args, time_limit_s=args.time_limit, detect_races=args.races)
        if args.format == "json":
            print(json.dumps({"program": args.source, "product": module.product.id, "exit_code": code}))
        return code
