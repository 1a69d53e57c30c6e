"""`ascgen` command line. Each subcommand lives in its own module exposing
`add_arguments(parser)` and `run(args) -> int`; this file only dispatches and turns errors into
one-line messages (exit 2 for bad input, 1 for a kernel-side failure), never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from ascgen import __version__, config, console
from ascgen.errors import AscgenError, KernelError

# subcommand -> (module, one-line help)
COMMANDS = {
    "products": ("ascgen.commands.products", "print the product table"),
    "emit": ("ascgen.commands.emit", "emit Ascend C for every kernel a spec file defines"),
    "test": ("ascgen.commands.test", "run every kernel of a spec on the emulator against numpy"),
    "run": ("ascgen.commands.run", "build and run hand-written Ascend C on the CPU emulator"),
    "sk": ("ascgen.commands.sk", "run a kernel as a SuperKernel task between generated neighbours: races, hangs"),
    "ut": ("ascgen.commands.ut", "run an operator repository's kernel unit tests (googletest) on the devkit backend"),
    "ops": ("ascgen.commands.ops", "run production operator folders: ops test compares one with its repository's "
                                   "golden, ops keys checks its tiling-key coverage"),
    "check": ("ascgen.commands.check", "static task-sync verification of Ascend C sources"),
    "demo": ("ascgen.commands.demo", "the end-to-end example"),
    "cache": ("ascgen.commands.cache", "show or empty the cache of compiled kernels"),
}


def build_parser(selected: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the selected subcommand's module is imported (to add its arguments), so one
    command never fails because another command's module cannot be imported."""
    parser = argparse.ArgumentParser(prog="ascgen", description="Generate, emulate and check Ascend C kernels.")
    parser.add_argument("--version", action="version", version=f"ascgen {__version__}")
    _add_verbosity(parser, default=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        _add_verbosity(p, default=argparse.SUPPRESS)     # after the subcommand too; never resets the global one
        p.set_defaults(_module=module_name)
        if name == selected:
            importlib.import_module(module_name).add_arguments(p)
    return parser


def _add_verbosity(parser, default) -> None:
    parser.add_argument("-q", "--quiet", action="store_true", default=default, help="print only results and errors")
    parser.add_argument("-v", "--verbose", action="store_true", default=default, help="print more detail")


def _selected_command(argv: list[str]) -> str | None:
    """The subcommand named on the command line (the first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_selected_command(argv))
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)        # a usage error: help on stderr, exit 2 (argparse's convention)
        return 2
    console.configure(quiet=args.quiet, verbose=args.verbose)
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except KernelError as exc:
        console.done()
        print(f"ascgen: {exc}", file=sys.stderr)
        return 1
    except AscgenError as exc:
        console.done()
        if config.debug():
            raise
        print(f"ascgen: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error; keep Python from complaining at exit.
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
