"""bfloat16 in and out: widen to float32, LeakyRelu with a runtime slope, sqrt(|v|) and a reciprocal,
narrowed back with two different round modes."""
from ascgen.builder import Abs, Cast, Kernel, LeakyRelu, Reciprocal, Sqrt

k = Kernel("bf16_leaky", block_dim=8, tile_length=512, buffer_num=2)
x = k.input("x", "bfloat16")
slope = k.scalar("slope", "float32", default=0.125)
v = LeakyRelu(Cast(x, "float32"), slope)
k.output("act", Cast(v, "bfloat16", round="round"))
k.output("inv_root", Cast(Reciprocal(Sqrt(Abs(v) + 1.0)), "bfloat16", round="trunc"))
