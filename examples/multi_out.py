"""Three float32 outputs from two inputs: Div, Reciprocal, Sub, Min, Duplicate and negation, and a second
kernel of the same file with task sync limited to the wait (it writes nothing the next task reads early)."""
from ascgen.builder import Div, Duplicate, Kernel, Min, Reciprocal

k = Kernel("multi_out", block_dim=8, tile_length=2048, buffer_num=2)
x = k.input("x", "float32")
y = k.input("y", "float32")
k.output("ratio", Div(x, y))
k.output("diff", Min(x - y, Duplicate(k, 0.75, "float32")))
k.output("neg_inv", -Reciprocal(y))

w = Kernel("wait_only_square", block_dim=4, tile_length=512, buffer_num=1, task_sync="wait")
u = w.input("u", "float16")
w.output("v", u * u)
