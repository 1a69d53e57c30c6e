"""z = Relu(x + y) * alpha in half precision, double buffered: the README example."""
from ascgen.builder import Kernel, Relu

k = Kernel("add_relu", block_dim=8, tile_length=2048, buffer_num=2)   # task_sync="both" by default
x = k.input("x", "float16")
y = k.input("y", "float16")
alpha = k.scalar("alpha", "float32", default=0.5)
k.output("z", Relu(x + y) * alpha)
