"""The MLP half of a transformer decoder block as one builder SuperKernel (docs/builder.md "A decoder block
as a SuperKernel"): residual add + RMSnorm -> per-token int8 quantisation -> gate and up projections (int8
Matmul, per-channel dequant + bias) -> SwiGLU -> down projection (half Matmul), six tasks over named GM
buffers, the task-sync calls placed from the data flow (placement="dataflow", the default).

    from examples.decoder.decoder_block import block, block_inputs
    outputs, report = block.run(block_inputs(rows=16))    # report.timeline(): the modeled gain

The per-token scales of the quantisation are an output (`scales`), but the projections dequantise per
channel only: a Matmul epilogue reads per-column vectors, not per-row ones (docs/builder.md "Matmul")."""
import numpy as np

from ascgen.builder import Cast, Kernel, Matmul
from ascgen.builder.recipes import add_rmsnorm, dynamic_quant, matmul_dequant, swiglu
from ascgen.codegen.superkernel import SuperKernel

HIDDEN, FFN = 64, 96                  # the block's widths (any values; small so the emulator is quick)

down_proj = Kernel("down_proj", block_dim=4)
down_proj.output("y", Cast(Matmul(down_proj.input("a", "float16", shape=("M", "K")),
                                  down_proj.input("b", "float16", shape=("K", "N")), tile=(32, 64, 32)), "float16"))

block = SuperKernel("decoder_block", "ascend910_93", options="early-start=1")
block.add(add_rmsnorm("block_norm"))                                   # x, residual, gamma -> h, y
block.add(dynamic_quant("block_quant"), x="y")                         # -> scales, values (int8)
block.add(matmul_dequant("gate_proj"), a="values", b="w_gate", scale="gate_scale", bias="gate_bias",
          workspace="gate_acc", y="gate")
block.add(matmul_dequant("up_proj"), a="values", b="w_up", scale="up_scale", bias="up_bias",
          workspace="up_acc", y="up")
block.add(swiglu("block_swiglu", shape=("rows", "cols")), y="act")     # gate, up -> act
block.add(down_proj, a="act", b="w_down", workspace="down_acc", y="out")


def block_inputs(rows: int = 16, seed: int = 0) -> dict[str, np.ndarray]:
    """Activations for `rows` tokens and the block's weights (small magnitudes: int8 weights, per-channel
    scales that keep the projections in half's range)."""
    rng = np.random.default_rng(seed)
    half = lambda *shape: rng.uniform(-1, 1, shape).astype(np.float16)          # noqa: E731
    int8 = lambda *shape: rng.integers(-8, 8, shape).astype(np.int8)             # noqa: E731
    return {"x": half(rows, HIDDEN), "residual": half(rows, HIDDEN),
            "gamma": rng.uniform(0.5, 1.5, HIDDEN).astype(np.float32),
            "w_gate": int8(HIDDEN, FFN), "gate_scale": np.full(FFN, 2e-3, np.float32), "gate_bias": half(FFN).astype(np.float32),
            "w_up": int8(HIDDEN, FFN), "up_scale": np.full(FFN, 2e-3, np.float32), "up_bias": half(FFN).astype(np.float32),
            "w_down": (half(FFN, HIDDEN) * 0.1).astype(np.float16)}
