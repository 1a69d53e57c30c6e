"""Per-row outputs: the sum, max and min of every row of a half tensor, and the row centred on its
midrange, (rows, cols) again. Per-row outputs need DataCopyPad (not on ascend310p)."""
from ascgen.builder import Kernel, ReduceMax, ReduceMin, ReduceSum

row_stats = Kernel("row_stats", block_dim=5, tile_length=2048, buffer_num=1)
x = row_stats.input("x", "float16", shape=("rows", "cols"))
hi, lo = ReduceMax(x, axis=-1), ReduceMin(x, axis=-1)
row_stats.output("total", ReduceSum(x, axis=-1))
row_stats.output("hi", hi)
row_stats.output("lo", lo)
row_stats.output("centred", x - (hi + lo) * 0.5)
