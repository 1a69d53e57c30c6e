"""2-D builder kernels on the emulator against numpy: softmax of a 4096 x 4096 half matrix, a matmul
with a fused epilogue through the builder (a MIX kernel: cube + vector cores), and the decoder-layer
recipes (ascgen/builder/recipes.py: add+RMSnorm, SwiGLU, dynamic int8 quant and both RoPE forms on the
same rows x cols, the int8 Matmul with dequant on --mnk, top-k gating on --rows tokens x --experts with
--topk) against their numpy references.

    python benchmarks/bench_builder_rows.py [--rows 4096] [--cols 4096] [--mnk 512,512,512] [--repeat 3]
                                            [--experts 64] [--topk 8] [--only softmax,matmul,recipes]

Prints a markdown table: best-of-N wall time of one launch (compiled and cached before timing), the same
math in numpy (float32 compute, like the kernel), and the ratio emulator / numpy. The results are checked
against ascgen.builder.reference before timing.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ascgen  # noqa: E402
from ascgen import products  # noqa: E402
from ascgen.builder import load_spec, recipes  # noqa: E402
from ascgen.builder.reference import evaluate, random_inputs, tolerance  # noqa: E402
from ascgen.runtime import load  # noqa: E402
from timing import best_of  # noqa: E402 - benchmarks/timing.py, beside this script

PRODUCT = "ascend950"



def _kernel(spec: str, name: str):
    return next(k for k in load_spec(ROOT / "examples" / spec) if k.name == name)


def _launcher(kernel, dims, seed=0):
    product = products.get(PRODUCT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = load(ascgen.emit(kernel, product), product=product)
    inputs = random_inputs(kernel, dims, seed=seed)
    want = evaluate(kernel, inputs)
    got = {name: np.zeros_like(v) for name, v in want.items()}
    args = [inputs[p.name] if p.kind == "input" else got[p.name] if p.kind == "output" else p.default
            for p in kernel.params]
    args[kernel.length_index:kernel.length_index] = list(dims) if isinstance(dims, tuple) else [dims]

    def run():
        module.launch(kernel.name, kernel.block_dim, *args)
    run()
    for name, expected in want.items():
        rtol, atol = tolerance(expected.dtype)
        np.testing.assert_allclose(got[name].astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol)
    return run, inputs


def softmax_numpy(x):
    xf = x.astype(np.float32)
    e = np.exp(xf - xf.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float16)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--mnk", default="512,512,512")
    ap.add_argument("--experts", type=int, default=64, help="top-k gating: experts per token (--rows tokens)")
    ap.add_argument("--topk", type=int, default=8, help="top-k gating: experts chosen per token")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="softmax,matmul,recipes", help="comma-separated parts to run")
    args = ap.parse_args(argv)
    parts = set(args.only.split(","))
    rows = []
    if "softmax" in parts:
        rows.append(_softmax_row(args))
    if "matmul" in parts:
        rows.append(_matmul_row(args))
    if "recipes" in parts:
        rows += _recipe_rows(args)
    print(f"| kernel on {PRODUCT} | emulator | numpy | ratio |")
    print("|---|---|---|---|")
    for what, emu, ref in rows:
        print(f"| {what} | {emu * 1e3:.1f} ms | {ref * 1e3:.1f} ms | {emu / ref:.1f} |")
    return 0


def _softmax_row(args):
    softmax = _kernel("softmax.py", "softmax")
    run, inputs = _launcher(softmax, (args.rows, args.cols))
    emu = best_of(run, args.repeat)
    ref = best_of(lambda: softmax_numpy(inputs["x"]), args.repeat)
    return (f"softmax {args.rows} x {args.cols} half ({softmax.block_dim} AIV)", emu, ref)


def _matmul_row(args):
    m, n, k = (int(v) for v in args.mnk.split(","))
    mm = _kernel("matmul.py", "matmul_relu")
    run, inputs = _launcher(mm, (m, n, k))
    emu = best_of(run, args.repeat)
    a, b, bias = inputs["a"], inputs["b"], inputs["bias"]
    ref = best_of(lambda: (np.maximum(a.astype(np.float32) @ b.astype(np.float32) + bias, 0) * 0.5)
                  .astype(np.float16), args.repeat)
    return (f"matmul+relu {m} x {n} x {k} half ({mm.block_dim} AIC + {2 * mm.block_dim} AIV)", emu, ref)


def _recipe_rows(args):
    """Each recipe checked against ascgen.builder.reference by _launcher, timed against its numpy reference."""
    r, c = args.rows, args.cols
    m, n, k = (int(v) for v in args.mnk.split(","))
    out = []
    for kernel, dims, ref, what in (
            (recipes.add_rmsnorm(), (r, c), lambda i: recipes.add_rmsnorm_reference(i["x"], i["residual"], i["gamma"]),
             f"add_rmsnorm {r} x {c} half"),
            (recipes.swiglu(), (r * c,), lambda i: recipes.swiglu_reference(i["gate"], i["up"]), f"swiglu {r * c} half"),
            (recipes.dynamic_quant(), (r, c), lambda i: recipes.dynamic_quant_reference(i["x"]),
             f"dynamic_quant {r} x {c} half -> int8"),
            (recipes.rope(), (r, c), lambda i: recipes.rope_reference(i["x"], i["cos_table"], i["sin_table"]),
             f"rope (half-split) {r} x {c} half"),
            (recipes.rope_interleaved(), (r, c),
             lambda i: recipes.rope_interleaved_reference(i["x"], i["cos_table"], i["sin_table"]),
             f"rope_interleaved {r} x {c} half"),
            (recipes.matmul_dequant(), (m, n, k),
             lambda i: recipes.matmul_dequant_reference(i["a"], i["b"], i["scale"], i["bias"]),
             f"matmul_dequant {m} x {n} x {k} int8"),
            (recipes.topk_gating(k=args.topk), (r, args.experts),
             lambda i: recipes.topk_gating_reference(i["logits"], args.topk),
             f"topk_gating {r} x {args.experts} half, k={args.topk}")):
        run, inputs = _launcher(kernel, dims if kernel.dims else dims[0])
        out.append((f"{what} ({kernel.block_dim} cores)", best_of(run, args.repeat),
                    best_of(lambda: ref(inputs), args.repeat)))
    return out


if __name__ == "__main__":
    sys.exit(main())
