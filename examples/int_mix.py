"""Integer kernels: int16 / int32 arithmetic (wrapping), and int8 / uint8 quantize-dequantize through half."""
from ascgen.builder import Cast, Kernel, Max, Mins, Relu

ints = Kernel("int_clamp_add", block_dim=4, tile_length=256, buffer_num=2)
a = ints.input("a", "int16")
b = ints.input("b", "int16")
c = ints.input("c", "int32")
ints.output("s", Mins(Max(a, b) + a, 100))
ints.output("r", Relu(c * c - 400))

quant = Kernel("requant_u8", block_dim=8, tile_length=1024, buffer_num=1)
q = quant.input("q", "uint8")
scale = quant.scalar("scale", "float32", default=0.5)
h = Cast(q, "float16") * scale
quant.output("deq", h)
quant.output("i8", Cast(h - 20.0, "int8", round="floor"))
