"""softplus(x) = ln(1 + exp(x)) computed in float32 for a half input, rounded back to half; also returns
exp(x) in float32. Mixed dtypes: temporaries of two sizes share reused buffers."""
from ascgen.builder import Cast, Exp, Kernel, Ln

k = Kernel("softplus_mixed", block_dim=8, tile_length=1024, buffer_num=2)
x = k.input("x", "float16")
xf = Cast(x, "float32")
e = Exp(xf)
k.output("y", Cast(Ln(e + 1.0), "float16", round="rint"))
k.output("ex", e)
