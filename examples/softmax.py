"""Softmax and log-softmax over the last axis of a (rows, cols) half tensor, computed in float32.
Recipes built from row reductions and broadcasts (docs/builder.md "2-D kernels")."""
from ascgen.builder import Cast, Exp, Kernel, Ln, ReduceMax, ReduceSum

softmax = Kernel("softmax", block_dim=8, tile_length=4096)
x = softmax.input("x", "float16", shape=("rows", "cols"))
xf = Cast(x, "float32")
e = Exp(xf - ReduceMax(xf, axis=-1))                   # shift by the row max: no overflow
softmax.output("y", Cast(e / ReduceSum(e, axis=-1), "float16"))

log_softmax = Kernel("log_softmax", block_dim=8, tile_length=4096)
x = log_softmax.input("x", "float16", shape=("rows", "cols"))
xf = Cast(x, "float32")
s = xf - ReduceMax(xf, axis=-1)
log_softmax.output("y", Cast(s - Ln(ReduceSum(Exp(s), axis=-1)), "float16"))
