"""LayerNorm and RMSNorm over the last axis of a (rows, cols) half tensor, with float32 gamma / beta per
column. RMSNorm promises cols % 16 == 0, which lets it run without DataCopyPad (ascend310p)."""
from ascgen.builder import Cast, Kernel, Mean, Sqrt

layernorm = Kernel("layernorm", block_dim=8, tile_length=4096)
x = layernorm.input("x", "float16", shape=("rows", "cols"))
gamma = layernorm.input("gamma", "float32", shape=("cols",))
beta = layernorm.input("beta", "float32", shape=("cols",))
eps = layernorm.scalar("eps", "float32", default=1e-5)
xf = Cast(x, "float32")
d = xf - Mean(xf, axis=-1)
layernorm.output("y", Cast(d / Sqrt(Mean(d * d, axis=-1) + eps) * gamma + beta, "float16"))

rmsnorm = Kernel("rmsnorm", block_dim=8, tile_length=4096)
cols = rmsnorm.dim("cols", multiple_of=16)
x = rmsnorm.input("x", "float16", shape=("rows", cols))
gamma = rmsnorm.input("gamma", "float32", shape=(cols,))
eps = rmsnorm.scalar("eps", "float32", default=1e-6)
xf = Cast(x, "float32")
rmsnorm.output("y", Cast(xf / Sqrt(Mean(xf * xf, axis=-1) + eps) * gamma, "float16"))
