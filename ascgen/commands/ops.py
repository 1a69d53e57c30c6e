"""`ascgen ops`: production operator folders (ascgen.ops, docs/ops.md) from the command line.

    ascgen ops test OP_DIR --product P --shapes 8x256 37x129 [--dtype D] [--attr name=value] [--python PY] [--seed N]
    ascgen ops keys OP_DIR --product P --dtype D --shapes 8x256 37x129 [--attr name=value]

`test` runs the op on random inputs for each shape (InferShape for the outputs) and compares every output with
the op's golden (tests/assets/golden.py): max abs / rel error and mismatches per shape and output. Exit 0 when
all match, 1 on a mismatch (or a kernel failure), 2 for bad input or a golden that cannot run (none, raising,
needing a missing module). `keys` is the tiling-key coverage (ascgen/commands/ops_keys.py). Each subcommand is its own pair of functions (_add_<name>, _<name>).
"""
from __future__ import annotations

import sys

import numpy as np

from ascgen import console
from ascgen.commands import DEFAULT_PRODUCT


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="ops_command", metavar="SUBCOMMAND", required=True)
    _add_test(sub)
    _add_keys(sub)


def run(args) -> int:
    return {"test": _test, "keys": _keys}[args.ops_command](args)


# ---- ascgen ops test ------------------------------------------------------------------------------------

def _add_test(sub) -> None:
    p = sub.add_parser("test", help="run an op on random inputs and compare with its repository's golden",
                       description="run an op folder on random inputs per shape and compare every output with the "
                                   "op's tests/assets/golden.py")
    p.add_argument("op_dir", metavar="OP_DIR", help="an operator folder (op_host/, op_kernel/, tests/assets/golden.py)")
    p.add_argument("--product", default=DEFAULT_PRODUCT, help=f"the product to run for (default {DEFAULT_PRODUCT})")
    p.add_argument("--shapes", nargs="+", required=True, metavar="SHAPE",
                   help="one run per shape: 8x256 for every required input, or one per input comma-separated "
                        "(8x256,8x256,256; - leaves an optional input out)")
    p.add_argument("--dtype", help="the first input's data type, or each input's comma-separated (- for any), choosing "
                                   "among the definition's combinations (default: its first)")
    p.add_argument("--attr", action="append", default=[], metavar="NAME=VALUE",
                   help="an attribute (lists comma-separated); the definition's default otherwise")
    p.add_argument("--python", default=sys.executable, metavar="PY",
                   help="the Python the golden runs with (default: the one running ascgen), as for ascgen ut")
    p.add_argument("--seed", type=int, default=0, help="the random inputs' seed (default 0)")


def _test(args) -> int:
    from ascgen import ops
    from ascgen.ops import golden, op_test
    from ascgen.ut.scratch import resolve_python
    python = resolve_python(args.python)
    op = ops.load(args.op_dir, product=args.product)
    golden.golden_file(op.op_dir)          # none: say so before anything is built
    declared = op.definition.declared(op.product, "input")
    attrs = dict(op_test.parse_attr(op, a) for a in args.attr)
    types = op_test.input_dtypes(op, args.dtype)
    runs = [op_test.parse_shapes(s, len(declared), [t.param != "OPTIONAL" for t in declared]) for s in args.shapes]
    rng = np.random.default_rng(args.seed)
    failed = 0
    for text, shapes in zip(args.shapes, runs):
        result = op_test.run_shape(op, shapes, types, attrs, rng, python, f"ascgen_ops_test_{text}")
        for out in result.outputs:
            c = out.comparison
            verdict = "ok" if c.ok else f"MISMATCH ({c.note})" if c.note else "MISMATCH"
            print(f"{op.definition.op_type} {text} {out.name} ({out.dtype}): max abs {c.max_abs:.3g}, "
                           f"max rel {c.max_rel:.3g}, {c.mismatches}/{c.size} beyond "
                           f"{'exact' if c.tolerance == 0 else f'tol {c.tolerance:g}'} - {verdict}")
        console.info(f"  {result.seconds:.1f} s")
        failed += not result.ok
    print(f"{op.definition.op_type} on {op.product.id}: {len(runs) - failed} of {len(runs)} shapes match the golden")
    return 1 if failed else 0


# ---- ascgen ops keys (its own module: ascgen/commands/ops_keys.py) -----------------------------------------

def _add_keys(sub) -> None:
    from ascgen.commands import ops_keys
    text = ("tiling-key coverage: the keys the op's host tiling produces over shapes against the keys its kernel "
            "handles (exit 1 on a produced key with no branch)")
    ops_keys.add_arguments(sub.add_parser("keys", help=text, description=text))


def _keys(args) -> int:
    from ascgen.commands import ops_keys
    return ops_keys.run(args)
