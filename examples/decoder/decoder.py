"""The kernels a transformer decoder layer fuses, from the builder's recipes (ascgen/builder/recipes.py;
docs/builder.md "Decoder-layer recipes"): residual add + RMSnorm (two outputs), SwiGLU, per-token dynamic
int8 quantisation (values + scales), the int8 Matmul with per-channel dequant + bias, RoPE (half-split and interleaved)."""
from ascgen.builder.recipes import add_rmsnorm, dynamic_quant, matmul_dequant, rope, rope_interleaved, swiglu

add_rmsnorm_k = add_rmsnorm("add_rmsnorm")
# cols promised a multiple of 16: whole 32-byte rows, so it also runs without DataCopyPad (ascend310p).
add_rmsnorm_aligned_k = add_rmsnorm("add_rmsnorm_aligned", cols_multiple_of=16)
swiglu_k = swiglu("swiglu")
dynamic_quant_k = dynamic_quant("dynamic_quant")
matmul_dequant_k = matmul_dequant("matmul_dequant")
# head_dim promised a multiple of 32: half-rows of whole 32-byte blocks, and whole rows without DataCopyPad.
rope_k = rope("rope")
# head_dim any even width: whole (x[2i], x[2i+1]) pairs per row (RotatePairs: a Gather by a pair-swap table).
rope_interleaved_k = rope_interleaved("rope_interleaved")
