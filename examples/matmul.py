"""Matmul with a fused epilogue, emitted as a MIX kernel: the cube computes a x b in float (DataCopy
ND -> NZ to L1, LoadData to L0A / L0B, Mmad, Fixpipe to the float32 `workspace` output), the vector cores
apply Relu(. + bias) * scale and write half. M, N and K take any value: K is padded to whole fractals in
L1 / L0 (Mmad sums only the true K), ragged M / N tiles go through the epilogue."""
from ascgen.builder import Cast, Kernel, Matmul, Relu

matmul_relu = Kernel("matmul_relu", block_dim=4)         # block_dim: AI Cores (1 AIC + 2 AIV each)
a = matmul_relu.input("a", "float16", shape=("M", "K"))
b = matmul_relu.input("b", "float16", shape=("K", "N"))
c = Matmul(a, b, tile=(64, 64, 32))                      # (BM, BN, BK)
bias = matmul_relu.input("bias", "float32", shape=("N",))
scale = matmul_relu.scalar("scale", "float32", default=0.5)
matmul_relu.output("y", Cast(Relu(c + bias) * scale, "float16"))

matmul_bf16 = Kernel("matmul_bf16", block_dim=3)
a = matmul_bf16.input("a", "bfloat16", shape=("M", "K"))
b = matmul_bf16.input("b", "bfloat16", shape=("K", "N"))
matmul_bf16.output("y", Cast(Matmul(a, b, tile=(32, 48, 64)), "bfloat16"))

# int8 into an int32 `workspace`, dequantised by the epilogue. K is promised a multiple of 32 (int8's
# fractal depth, so no padded fractal): the kernel checks the promise at run time and names this line.
matmul_int8 = Kernel("matmul_int8", block_dim=3)
K = matmul_int8.dim("K", multiple_of=32)
a = matmul_int8.input("a", "int8", shape=("M", K))
b = matmul_int8.input("b", "int8", shape=(K, "N"))
acc = Matmul(a, b, tile=(32, 64, 64))                    # int32
offset = matmul_int8.input("offset", "float32", shape=("N",))
dequant = matmul_int8.scalar("dequant", "float32", default=0.0078125)
matmul_int8.output("y", Cast(Cast(acc, "float32") * dequant + offset, "float16"))
