"""y = max(x * scale + bias, floor_value) in float32, single buffered, with a tile of 1000 elements (not a
power of two) so most lengths end in a ragged tail."""
from ascgen.builder import Kernel, Maxs

k = Kernel("scale_bias", block_dim=6, tile_length=1000, buffer_num=1)
x = k.input("x", "float32")
scale = k.scalar("scale", "float32", default=1.5)
bias = k.scalar("bias", "float32", default=-0.25)
k.output("y", Maxs(x * scale + bias, -1.0))
