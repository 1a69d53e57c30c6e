"""`ascgen ops keys OP_DIR --product P --dtype D --shapes 8x256 37x129 ... [--attr name=value]`: the
tiling-key coverage of an operator folder (ascgen/ops/key_coverage.py). Exit 1 when a key the host tiling
produces has no branch in the kernel, each message naming the op, product and shape.

A `--shapes` item is one tiling call:

* `8x256`: every input and output has that shape and `--dtype` (elementwise ops);
* `8x256,8x256,256:8x256,8x1/float32,8x256`: the inputs before the colon, the outputs after, each
  `SHAPE[/DTYPE]` (the dtype defaults to --dtype), `-` for an optional input left out; `1` is a
  one-element tensor, `scalar` a rank-0 one.
"""
from __future__ import annotations

import ast
import sys

from ascgen import console
from ascgen.errors import SpecError


def add_arguments(parser) -> None:
    parser.add_argument("op_dir", metavar="OP_DIR", help="an operator folder (op_host/ and op_kernel/)")
    parser.add_argument("--product", required=True, help="the product to tile for (ascgen products)")
    parser.add_argument("--dtype", required=True, help="the tensors' data type (float16, bfloat16, DT_FLOAT...)")
    parser.add_argument("--shapes", nargs="+", required=True, metavar="SHAPE",
                        help="one tiling call each: 8x256 (every tensor), or IN,IN:OUT,OUT with SHAPE[/DTYPE]")
    parser.add_argument("--attr", action="append", default=[], metavar="NAME=VALUE",
                        help="an attribute (a Python literal: 1e-6, True, 'round'; else the text)")


def run(args) -> int:
    from ascgen import ops
    from ascgen.ops import key_coverage
    op = ops.load(args.op_dir, product=args.product)
    attrs = dict(_attr(a) for a in args.attr)
    requests = [_request(item, op.definition, args.dtype, attrs) for item in args.shapes]
    result = key_coverage.coverage(op, requests)
    name = f"{op.definition.op_type} on {op.product.id}"
    for reading in result.readings:
        console.info(f"{name}: kernel {reading.source}: {reading.describe()}")
    for key, request in sorted(result.produced.items()):
        console.info(f"{name}: key {key} first from {request.describe(op)}")
    for request, why in result.rejected:
        console.info(f"{name}: the op rejects {request.describe(op)}: {why}")
    never = result.never_produced()
    if never:
        console.info(f"{name}: handled but never produced by these shapes: {', '.join(map(str, never))}")
    for u in result.unknown:
        console.warn(u.message)
    for u in result.uncovered:
        print(f"ascgen: error: {u.message}", file=sys.stderr)
    print(result.summary())
    if result.rejected and len(result.rejected) == result.requests:
        raise SpecError(f"{name}: every shape was rejected, so no key was checked (the first: "
                        f"{result.rejected[0][1]}); give the tensors one by one: IN,IN:OUT,OUT")
    return 1 if result.uncovered else 0


def _attr(text: str) -> tuple[str, object]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise SpecError(f"--attr {text!r}: write NAME=VALUE (--attr epsilon=1e-6)")
    try:
        return name.strip(), ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name.strip(), value


def _request(item: str, definition, dtype: str, attrs: dict):
    from ascgen.ops.key_coverage import Request
    if ":" not in item:
        spec = (_shape(item, item), dtype)
        ins, outs = definition.inputs.get("this", []), definition.outputs.get("this", [])
        return Request.of([spec] * len(ins), [spec] * len(outs), attrs)
    ins, _, outs = item.partition(":")
    return Request.of([_tensor(t, dtype, item) for t in ins.split(",")],
                      [_tensor(t, dtype, item) for t in outs.split(",")], attrs)


def _tensor(text: str, dtype: str, item: str):
    text = text.strip()
    if text == "-":
        return None
    shape, _, own = text.partition("/")
    return (_shape(shape, item), own or dtype)


def _shape(text: str, item: str) -> tuple[int, ...]:
    if text.strip() == "scalar":
        return ()
    try:
        dims = tuple(int(d) for d in text.strip().lower().split("x"))
    except ValueError:
        raise SpecError(f"--shapes {item!r}: {text!r} is not a shape; write dimensions joined by x (8x256), "
                        "or 'scalar'") from None
    if any(d < 0 for d in dims):
        raise SpecError(f"--shapes {item!r}: dimensions are >= 0")
    return dims
