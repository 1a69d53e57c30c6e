"""The kernels a transformer decoder layer fuses, from the builder's recipes (ascgen/builder/recipes.py;
docs/builder.md "Decoder-layer recipes"): residual add + RMSnorm (two outputs), SwiGLU, per-token dynamic
int8 quantisation (values + scales), the int8 Matmul with per-channel dequant + bias, RoPE (both forms), top-k gating."""
from ascgen.builder.recipes import add_rmsnorm, dynamic_quant, matmul_dequant, rope, rope_interleaved, swiglu, topk_gating

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
# MoE router: per token the 8 experts of largest logit and their softmax gates over those 8 (Mixtral).
topk_gating_k = topk_gating("topk_gating", k=8)
# experts promised a multiple of 16 (whole 32-byte rows of half) and k * 4 bytes whole 32-byte units: runs
# without DataCopyPad (ascend310p) too.
topk_gating_aligned_k = topk_gating("topk_gating_aligned", k=8, cols_multiple_of=16)
