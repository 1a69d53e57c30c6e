"""Plan a 2-D (rows x cols) KernelSpec for one product: row tiles, value buffers, compute steps, UB budget.

Rows are spread over the cores; a tile is a block of whole rows, each padded in UB to ROW_STRIDE (cols
rounded up to 32 bytes of the narrowest dtype, so every row of every dtype starts 32-byte aligned), as
many rows as fit in TILE_LENGTH elements. Per-row values (reductions) live in buffers of MAX_TILE_ROWS
elements; per-column vectors are loaded once per core. The numbers that depend on cols are computed by
the kernel at run time; the plan checks the budget for the largest row (cols == tile_length).
A TopK's (rows, k) values live in buffers of MAX_TILE_ROWS rows of K_STRIDE lanes (k rounded up to 32
bytes of the narrowest of them).
"""
from __future__ import annotations

from dataclasses import dataclass

from ascgen import products as _products
from ascgen.builder.ir import KernelSpec, Node
from ascgen.builder.types import DTYPES
from ascgen.codegen.plan import (GmTensor, TempBuffer, TempUse, _camel, _gm, check_queue_positions, checked_basics,
                                 liveness)
from ascgen.errors import SpecError

MAX_BLOCK_COUNT = 4095        # DataCopyPad's blockCount limit: rows per tile never exceed it


@dataclass(frozen=True)
class RowStep:
    """One statement group of Compute(): `op` on values of `shapes`, result `shape` ("rc" or "r")."""
    op: str
    dtype: str
    shape: str
    dst: str
    srcs: tuple[str, ...]
    src_shapes: tuple[str, ...]
    src_dtype: str
    scalar: object
    round: str | None
    where: str

    @property
    def broadcast(self) -> bool:
        """An rc (rk) result from an operand that is a per-row value or a per-column vector: a row loop.
        TopK (rk from rc) is a selection, not a broadcast."""
        return (self.shape in ("rc", "rk") and self.op not in ("TopK", "TopKIndices")
                and any(s != self.shape for s in self.src_shapes))


@dataclass(frozen=True)
class RowPlan:
    spec: KernelSpec
    product: _products.Product
    class_name: str
    inputs: tuple[GmTensor, ...]        # (rows, cols) inputs, loaded per tile (queues)
    col_inputs: tuple[GmTensor, ...]    # per-column vectors, loaded once per core after the wait
    outputs: tuple[GmTensor, ...]
    output_shapes: tuple[str, ...]      # "rc" or "r" per output
    scalars: tuple
    temps: tuple[TempBuffer, ...]
    temp_uses: tuple[TempUse, ...]
    steps: tuple[RowStep, ...]
    align_elems: int
    max_tile_rows: int
    data_copy_pad: bool
    reduce_dtypes: tuple[str, ...]      # dtypes reduced (a result scalar and a work buffer each)
    row_dtypes: tuple[str, ...]         # dtypes broadcast from per-row values (a row buffer each)
    work_bytes: int
    uses_mean: bool
    rotate_multiple: int                # RotateHalf / RotatePairs: cols must be a multiple of this (0: neither)
    pair_dtypes: tuple[str, ...]        # dtypes RotatePairs permutes (an offset table and a sign table each)
    topk_k: int                         # TopK's k (0: no TopK)
    k_stride: int                       # UB lanes per row of a (rows, k) value: k rounded up to 32 bytes
    topk_work_bytes: int                # the work tensor of TopK's level-2 ReduceMax with calIndex
    ub_used: int
    ub_usable: int
    ub_items: tuple[tuple[str, int], ...]

    @property
    def row_dim(self) -> str:
        return self.spec.dims[0].name

    @property
    def col_dim(self) -> str:
        return self.spec.dims[1].name

    @property
    def tile_length(self) -> int:
        return self.spec.tile_length

    @property
    def preloads(self) -> tuple[GmTensor, ...]:
        """GM reads Process() does once, after the wait and before the tile loop (tasksync.py)."""
        return self.col_inputs

    @property
    def min_length(self) -> int:
        return 1


def r_bytes(max_rows: int, dtype: str) -> int:
    """Bytes of a per-row buffer: MAX_TILE_ROWS elements rounded up to 32 bytes."""
    return -(-max_rows * DTYPES[dtype].size // 32) * 32


def plan_rows(spec: KernelSpec, product) -> RowPlan:
    product, live, rounds, dtypes, align = checked_basics(spec, product)
    _check_copies(spec, product, align)
    max_rows = min(spec.tile_length // align, MAX_BLOCK_COUNT)
    by_name = {p.name: p for p in spec.params}
    inputs = tuple(_gm(p, "input") for p in spec.params_of("input") if len(p.shape) == 2)
    col_inputs = tuple(_gm(p, "input") for p in spec.params_of("input") if len(p.shape) == 1)
    outputs = tuple(_gm(p, "output") for p in spec.params_of("output"))
    node_of = {o.name: spec.nodes[o.node] for o in spec.outputs}
    out_shapes = tuple(node_of[t.name].shape_2d for t in outputs)
    k_stride = _k_stride(spec.topk_k, live) if spec.topk_k else 0
    steps, temps, uses = _lower(spec, live, rounds, max_rows, k_stride)
    reduce_dtypes = tuple(sorted({s.dtype for s in steps if s.op in _REDUCE}))
    row_dtypes = tuple(sorted({s.dtype for s in steps if s.broadcast and "r" in s.src_shapes}))
    pair_dtypes = tuple(sorted({s.dtype for s in steps if s.op == "RotatePairs"}))
    work = max((_work_bytes(spec.tile_length, d) for d in reduce_dtypes), default=0)
    topk_work = topk_work_bytes(spec.tile_length) if spec.topk_k else 0
    items = (_ub_items(spec, inputs, col_inputs, outputs, out_shapes, temps, reduce_dtypes, row_dtypes, work,
                       max_rows, k_stride) + _pair_items(spec.tile_length, pair_dtypes)
             + _topk_items(spec.tile_length, max_rows, k_stride, topk_work))
    plan = RowPlan(spec, product, "Kernel" + _camel(spec.name), inputs, col_inputs, outputs, out_shapes,
                   spec.params_of("scalar"), temps, uses, steps, align, max_rows, product.data_copy_pad,
                   reduce_dtypes, row_dtypes, work, any(s.op == "Mean" for s in steps), _rotate_multiple(steps),
                   pair_dtypes, spec.topk_k, k_stride, topk_work,
                   sum(b for _, b in items), product.ub_bytes, items)
    check_queue_positions(spec, product, inputs, outputs, spec.buffer_num)
    _check_rotate_promise(spec, plan.rotate_multiple)
    _check_ub(plan)
    _check_reduce_rows(spec, steps)
    return plan


_REDUCE = ("ReduceSum", "ReduceMax", "ReduceMin", "Mean")


def _check_rotate_promise(spec: KernelSpec, multiple: int) -> None:
    cols = spec.dims[1]
    if multiple and cols.multiple_of % multiple:
        node = next(n for n in spec.live_nodes()
                    if n.op in _ROTATE and _ROTATE[n.op](DTYPES[n.dtype].size) == multiple)
        why = _ROTATE_WHY[node.op]
        raise SpecError(f"{node.op} at {node.where}: {why}, so {cols.name} must be a promised multiple of {multiple}: "
                        f"declare {cols.name} = k.dim({cols.name!r}, multiple_of={multiple}) (the kernel checks it "
                        f"at run time)")


# The cols multiple each rotation needs, from the element size: RotateHalf works on half-rows in UB, so the
# second half must start on a 32-byte boundary (two 32-byte blocks: 32 halfs, 16 floats); RotatePairs swaps
# lane pairs, so a row holds whole pairs (a pair never straddles a row and its padding).
_ROTATE = {"RotateHalf": lambda size: 2 * 32 // size, "RotatePairs": lambda size: 2}
_ROTATE_WHY = {"RotateHalf": "each half-row must start on a 32-byte boundary in UB",
               "RotatePairs": "each row must hold whole (x[2i], x[2i+1]) pairs"}


def _rotate_multiple(steps) -> int:
    return max((_ROTATE[s.op](DTYPES[s.dtype].size) for s in steps if s.op in _ROTATE), default=0)


def _pair_items(tile: int, pair_dtypes) -> tuple:
    """RotatePairs' tables, built once per core: a uint32 byte offset per lane and a sign per lane."""
    items = []
    for d in pair_dtypes:
        sfx = DTYPES[d].ctype.capitalize()
        items += [(f"pairOffset{sfx}Buf (Gather byte offsets, {tile} uint32)", tile * 4),
                  (f"pairSign{sfx}Buf ({tile} {d} signs)", tile * DTYPES[d].size)]
    return tuple(items)


def _k_stride(k: int, live) -> int:
    """UB lanes per row of the (rows, k) values: k rounded up to 32 bytes of their narrowest dtype, so each
    row of each of them starts 32-byte aligned (the row loops and DataCopyPad's per-row blocks need it)."""
    unit = 32 // min(DTYPES[n.dtype].size for n in live if n.shape == "rk")
    return -(-k // unit) * unit


def topk_work_bytes(tile: int) -> int:
    """The work tensor of a level-2 ReduceMax with calIndex over up to `tile` float32: each round writes a
    (value, index) pair per 256-byte repeat of the previous round's output, 32-byte aligned, until one pair
    is left (the library's sizing rule: asc-devkit examples/01_simd_cpp_api/03_basic_api/
    01_memory_vector_compute/reduce_computation, iter1OutputCount / iter2AlignStart / iter2AlignEnd). The
    NaN probe's level-2 ReduceSum shares it: it needs one partial per repeat, fewer than the first round."""
    elems, total = tile, 0
    while True:
        out = -(-elems // 64) * 2
        total += -(-out // 8) * 8
        if out <= 2:
            return total * 4
        elems = out


def _topk_items(tile: int, max_rows: int, k_stride: int, work: int) -> tuple:
    """TopK's buffers: a row's float32 copy (chosen lanes masked), its NaN probe, the columns chosen per
    tile (int32), the ReduceMax result (value, index) and its work tensor."""
    if not k_stride:
        return ()
    return ((f"topkRowBuf (one row, {tile} float32)", tile * 4), (f"topkProbeBuf (one row, {tile} float32)", tile * 4),
            (f"topkIndexBuf ({max_rows} x {k_stride} int32)", max_rows * k_stride * 4),
            ("topkRedBuf (value, index)", 32), ("topkWorkBuf (ReduceMax work)", work))


def _check_copies(spec: KernelSpec, product, align: int) -> None:
    """Without DataCopyPad, rows move with DataCopy: whole 32-byte units, so cols must be a promised multiple
    of them, a (rows, k) output needs rows of whole units (k values per row, the next row's k follow in GM;
    its UB stride is then k) and a per-row output (rows values per tile, any count) cannot be stored."""
    if product.data_copy_pad:
        return
    for o in spec.outputs:          # first: no cols promise helps these
        node = spec.nodes[o.node]
        row_bytes = spec.topk_k * DTYPES[node.dtype].size if node.shape == "rk" else 0
        if row_bytes % 32:
            raise SpecError(f"output {o.name!r} at {o.where}: {product.id} has no DataCopyPad, so a (rows, k) top-k "
                            f"output moves in whole 32-byte units, and k = {spec.topk_k} {node.dtype} is {row_bytes} "
                            f"bytes per row: use k a multiple of {32 // DTYPES[node.dtype].size}")
    cols = spec.dims[1]
    if cols.multiple_of % align:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: {product.id} has no DataCopyPad, so rows are copied "
                        f"in whole 32-byte units: declare {cols.name} = k.dim({cols.name!r}, multiple_of={align}) "
                        f"(or a multiple of {align}) and pass such values")
    for o in spec.outputs:
        if spec.nodes[o.node].shape == "r":
            raise SpecError(f"output {o.name!r} at {o.where}: a per-row output needs DataCopyPad, which "
                            f"{product.id} does not offer; output a (rows, cols) tensor instead")


def _work_bytes(tile: int, dtype: str) -> int:
    """The work tensor of a row reduction: one 256-byte repeat (a sum's per-repeat partials, at most one
    repeat of them while a row has at most per_repeat**2 elements; a max / min's lane-wise fold)."""
    return 256


def _check_reduce_rows(spec: KernelSpec, steps) -> None:
    """A sum's second level reduces its partials in one repeat: a row holds at most per_repeat**2 elements
    (4096 float32, 16384 float16)."""
    for s in steps:
        per = 256 // DTYPES[s.dtype].size
        if s.op in _REDUCE and spec.tile_length > per * per:
            raise SpecError(f"{s.op} at {s.where}: kernel {spec.name!r} has tile_length {spec.tile_length}, but a "
                            f"row reduction of {s.dtype} takes rows of at most {per * per} elements (two levels of "
                            f"{per}-element repeats). Hint: tile_length <= {per * per}")


def _lower(spec: KernelSpec, live: tuple[Node, ...], rounds: dict[int, str], max_rows: int, k_stride: int):
    """Steps in node order. Values live in an output's queue tensor, an input's, a per-column vector, or a
    temporary buffer of their class (tile-sized for rc values, MAX_TILE_ROWS for per-row values); buffers
    are reused once dead, never written by a step that reads them."""
    out_of, last_use = liveness(spec, live)
    var: dict[int, str] = {n.id: n.input_name + "Local" for n in live if n.op == "input"}
    temps: list[list] = []        # [bytes, class]
    busy: dict[int, int] = {}
    uses: list[TempUse] = []
    steps: list[RowStep] = []
    for n in live:
        if n.op == "input":
            continue
        cls = n.shape_2d
        need = {"rc": spec.tile_length * DTYPES[n.dtype].size, "rk": max_rows * k_stride * DTYPES[n.dtype].size
                }.get(cls) or r_bytes(max_rows, n.dtype)
        if n.id in out_of:
            var[n.id] = out_of[n.id] + "Local"
        else:
            free = [b for b in range(len(temps)) if b not in busy and temps[b][1] == cls]
            fit = [b for b in free if temps[b][0] >= need]
            buf = fit[0] if fit else (free[0] if free else len(temps))
            if buf == len(temps):
                temps.append([need, cls])
            temps[buf][0] = max(temps[buf][0], need)
            busy[buf] = n.id
            name = f"tmp{len(uses)}"
            uses.append(TempUse(name, n.dtype, f"tmpBuf{buf}"))
            var[n.id] = name
        src_dtype = spec.nodes[n.args[0]].dtype if n.args else n.dtype
        steps.append(RowStep(n.op, n.dtype, n.shape_2d, var[n.id], tuple(var[a] for a in n.args),
                             tuple(spec.nodes[a].shape_2d for a in n.args), src_dtype, n.scalar,
                             rounds.get(n.id, n.round), n.where))
        for buf, holder in list(busy.items()):
            if holder != n.id and last_use.get(holder, -1) <= n.id:
                del busy[buf]
    steps.extend(_copies(spec, var, out_of))
    return tuple(steps), tuple(TempBuffer(f"tmpBuf{i}", b) for i, (b, _) in enumerate(temps)), tuple(uses)


def _copies(spec: KernelSpec, var: dict[int, str], out_of: dict[int, str]) -> list[RowStep]:
    """An output whose value lives elsewhere (an input or another output) is copied with Adds(dst, src, 0)."""
    from ascgen.builder.ir import ScalarOperand
    steps = []
    for o in spec.outputs:
        node = spec.nodes[o.node]
        if out_of[o.node] == o.name and node.op != "input":
            continue
        if node.dtype not in ("float16", "float32", "int16", "int32"):
            raise SpecError(f"output {o.name!r} at {o.where}: storing a {node.dtype} value that is an input or "
                            f"another output needs a copy, offered for float16/float32/int16/int32 only")
        zero = ScalarOperand(literal=0.0 if DTYPES[node.dtype].is_float else 0)
        steps.append(RowStep("Adds", node.dtype, node.shape_2d, o.name + "Local", (var[o.node],), (node.shape_2d,),
                             node.dtype, zero, None, o.where))
    return steps


def _ub_items(spec, inputs, col_inputs, outputs, out_shapes, temps, reduce_dtypes, row_dtypes, work, max_rows,
              k_stride):
    tile, bn = spec.tile_length, spec.buffer_num
    items = [(f"{t.queue} ({bn} x {tile} {t.dtype})", bn * tile * DTYPES[t.dtype].size) for t in inputs]
    for t, shape in zip(outputs, out_shapes):
        size = DTYPES[t.dtype].size
        n, what = {"rc": (tile * size, "tile"), "rk": (max_rows * k_stride * size, "(rows, k)")}.get(
            shape, (r_bytes(max_rows, t.dtype), "per-row"))
        items.append((f"{t.queue} ({bn} x {what} {t.dtype})", bn * n))
    items += [(f"{t.name}Buf (per-column vector, up to {tile} {t.dtype})", tile * DTYPES[t.dtype].size)
              for t in col_inputs]
    items += [(f"{t.member} (temporary)", t.nbytes) for t in temps]
    items += [(f"row{DTYPES[d].ctype.capitalize()}Buf (a per-row value over one row)", tile * DTYPES[d].size)
              for d in row_dtypes]
    if reduce_dtypes:
        items += [("redBuf (reduction result)", 32), ("workBuf (reduction work)", work)]
    return tuple(items)


def _check_ub(plan: RowPlan) -> None:
    if plan.ub_used <= plan.ub_usable:
        return
    spec = plan.spec
    detail = ", ".join(f"{what} {n} B" for what, n in plan.ub_items)
    per_element = max(1, plan.ub_used // spec.tile_length)
    best = plan.ub_usable // per_element // plan.align_elems * plan.align_elems
    raise SpecError(f"kernel {spec.name!r} at {spec.where}: needs {plan.ub_used} B of UB ({detail}); "
                    f"{plan.product.id} has {plan.ub_usable} B usable: over by {plan.ub_used - plan.ub_usable} B. "
                    f"Hint: tile_length <= {best} (the longest row a tile holds)"
                    + (" or buffer_num=1" if spec.buffer_num == 2 else ""))
