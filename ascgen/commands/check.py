"""`ascgen check SOURCE... [--product P] [--format text|json|sarif]`: static task-sync verification.
Exit 0 clean, 1 an error found, 2 a file could not be analysed (2 wins, so a broken input is never
mistaken for a mere finding)."""
from __future__ import annotations

import sys
from pathlib import Path

from ascgen import __version__, console
from ascgen import products as products_mod
from ascgen.check import format as check_format
from ascgen.check.checker import check_file
from ascgen.errors import AscgenError, SpecError


SOURCE_SUFFIXES = (".cpp", ".asc", ".cc", ".cxx")


def _expand(sources) -> list[str]:
    """Files as given; a directory stands for the Ascend C sources under it."""
    out = []
    for source in sources:
        if not source.strip():
            # Path("") is ".": an empty argument (an unset shell variable) would check every source below the
            # current folder, silently and for minutes.
            raise SpecError("ascgen check: an empty SOURCE argument; name a file or a folder (\".\" for the "
                            "current one)")
        path = Path(source)
        if path.is_dir():
            found = sorted(str(p) for p in path.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())
            out += found or [f"{source}/"]       # an empty folder is reported as not analysable
        else:
            out.append(source)
    return out


def _checked_line(source: str, result, product) -> str:
    """What `check -v` says per file, so a clean file is visibly checked, not silently skipped."""
    kernels = ", ".join(result.kernels) or "no kernel entry"
    errors = sum(d.severity == "error" for d in result.diagnostics)
    rules = f"the task-sync rules and the {product} rules" if product else "the task-sync rules (no --product)"
    return (f"checked {source}: {len(result.kernels)} kernel(s) ({kernels}) against {rules}: "
            f"{errors} error(s), {len(result.diagnostics) - errors} other finding(s), {len(result.skipped)} skipped")


def add_arguments(parser) -> None:
    parser.add_argument("sources", nargs="+", metavar="SOURCE",
                        help="Ascend C source files (.cpp, .asc), or folders to search for them")
    parser.add_argument("--product", help="product id or alias (ascgen products); enables the product rules")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="add an include directory (after ascgen's emulated Ascend C headers)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VAL",
                        help="define a preprocessor macro")


def run(args) -> int:
    if args.product is not None:
        products_mod.get(args.product)          # an unknown product is a one-line error (exit 2) up front
    diagnostics, skipped, failures = [], [], []
    for source in _expand(args.sources):
        console.progress(f"checking {source}...")
        try:
            result = check_file(source, product=args.product, include_dirs=args.include_dirs,
                                defines=args.defines)
        except AscgenError as exc:
            failures.append(str(exc))
            continue
        diagnostics += result.diagnostics
        skipped += result.skipped
        console.verbose(_checked_line(source, result, args.product))
    console.done()
    if args.format == "json":
        print(check_format.to_json(diagnostics, skipped))
    elif args.format == "sarif":
        print(check_format.to_sarif(diagnostics, skipped, failures, __version__))
    else:
        out = check_format.text(diagnostics, skipped, verbose=getattr(args, "verbose", False))
        if out:
            print(out)
    for reason in failures:
        print(f"ascgen: error: could not analyse {reason}", file=sys.stderr)
    if failures:
        return 2
    return 1 if any(d.severity == "error" for d in diagnostics) else 0
