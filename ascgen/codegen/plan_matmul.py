"""Plan a Matmul kernel (MIX: the cube computes a x b, the vector cores run the epilogue) for one product.

AIC side: output tiles of BM x BN, spread round-robin over the block_dim AI Cores; per tile, K in slices
of BK: GM (ND) -> L1 (NZ) with DataCopy(Nd2NzParams), LoadData to L0A / L0B (int8 b: LoadDataWithTranspose),
Mmad into L0C (float; int32 for int8), then Fixpipe of the tile into a GM workspace (M x N float32 or
int32, the kernel's `workspace` argument).
AIV side: the two vector cores of the AI Core each take half of the tile's rows, wait for the cube's
flag, read their band of the workspace and run the epilogue (planned like a 2-D row kernel over
(M, tileCols), plan_rows.py), write the output, and hand the buffer back with a flag.
The budgets of L1, L0A, L0B, L0C (per architecture) and UB are checked; products whose AIC and AIV are
one core (coupled: ascend310p, ascend910, ascend310b) or that have no cube refuse by name.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ascgen import products as _products
from ascgen.builder.ir import DimSpec, KernelSpec, Node, ParamSpec
from ascgen.builder.types import DTYPES
from ascgen.codegen.plan import GmTensor, _camel, _gm
from ascgen.codegen.plan_rows import RowPlan, plan_rows
from ascgen.errors import SpecError

WORKSPACE = "workspace"          # the GM argument the cube writes its float tiles to
BAND_COLS = "tileCols"           # the epilogue's row length: the current tile's width
# The architectures whose cube path the builder emits (the cube memories are the product table's).
MATMUL_ARCHES = (2201, 3510)


@dataclass(frozen=True)
class MatmulPlan:
    spec: KernelSpec
    product: _products.Product
    class_name: str
    a: GmTensor
    b: GmTensor
    workspace: GmTensor
    tile: tuple[int, int, int]           # BM, BN, BK
    epilogue: RowPlan                    # the AIV side, over (M, tileCols)
    cube_items: tuple[tuple[str, str, int, int], ...]   # (memory, what, bytes, capacity)

    @property
    def dims(self) -> tuple[str, str, str]:
        m, n, k = self.spec.dims
        return m.name, n.name, k.name

    @property
    def inputs(self):                    # tasksync.py names these for prefetch checks (none are allowed)
        return ()

    @property
    def outputs(self):
        return self.epilogue.outputs


def plan_matmul(spec: KernelSpec, product) -> MatmulPlan:
    product = _products.get(product)
    node = spec.matmul
    if node is None or node.tile is None:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: plan_matmul is for kernels with one Matmul node")
    on = f"on {product.id} (__NPU_ARCH__ {product.npu_arch})"
    if not product.separated or product.vector_only or product.npu_arch not in MATMUL_ARCHES:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: Matmul is emitted as a MIX kernel (AIC cube + AIV "
                        f"epilogue, cross-core flags), which is not offered {on}: {product.title} has "
                        + ("no separate AIC and AIV cores" if not product.separated else "no cube unit the builder targets")
                        + "; target ascend910b, ascend910_93 or ascend950")
    if not 1 <= spec.block_dim <= product.aic_cores:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: block_dim {spec.block_dim} counts AI Cores (one "
                        f"AIC + two AIVs each); {product.id} has {product.aic_cores}; use 1..{product.aic_cores}")
    m, n, k = spec.dims
    dtype = spec.nodes[node.args[0]].dtype
    if dtype == "int8" and (node.tile[1] % 32 or node.tile[2] % 32):
        raise SpecError(f"Matmul at {node.where}: int8 tiles have BN and BK multiples of 32 (b is moved to L0B in "
                        f"32 x 32 blocks by LoadDataWithTranspose), got tile={node.tile}")
    reductions = [x for x in spec.live_nodes() if x.shape == "r"]
    if reductions:
        raise SpecError(f"{reductions[0].op} at {reductions[0].where}: row reductions are not offered in a Matmul "
                        "epilogue (each vector core sees a band of a row); reduce in the next kernel of a SuperKernel")
    tile = node.tile
    bm, bn, bk = tile
    size = DTYPES[dtype].size
    acc = node.dtype
    memory = {"L1": product.l1_total, "L0A": product.l0a_total, "L0B": product.l0b_total, "L0C": product.l0c_total}
    items = (("L1", f"a tile {bm} x {bk} + b tile {bk} x {bn} {dtype}", (bm * bk + bk * bn) * size, memory["L1"]),
             ("L0A", f"a tile {bm} x {bk} {dtype}", bm * bk * size, memory["L0A"]),
             ("L0B", f"b tile {bk} x {bn} {dtype}", bk * bn * size + (512 if dtype == "int8" else 0), memory["L0B"]),
             ("L0C", f"c tile {bm} x {bn} {acc}", bm * bn * 4, memory["L0C"]))
    for mem, what, used, cap in items:
        if used > cap:
            raise SpecError(f"Matmul at {node.where}: tile={node.tile} needs {used} B of {mem} ({what}); {product.id} "
                            f"has {cap} B: over by {used - cap} B. Hint: smaller tiles")
    epilogue = plan_rows(_epilogue_spec(spec, node, tile), product)
    if bn % epilogue.align_elems:
        raise SpecError(f"Matmul at {node.where}: BN {bn} is not a multiple of {epilogue.align_elems} elements "
                        f"(32 bytes of the epilogue's narrowest dtype); use tile=({bm}, "
                        f"{-(-bn // epilogue.align_elems) * epilogue.align_elems}, {bk})")
    params = {p.name: p for p in spec.params}
    a, b = (_gm(params[spec.nodes[i].input_name], "input") for i in node.args)
    ws = _gm(params[WORKSPACE], "output")
    return MatmulPlan(spec, product, "Kernel" + _camel(spec.name), a, b, ws, tile, epilogue, items)


def _epilogue_spec(spec: KernelSpec, node: Node, tile: tuple[int, int, int]) -> KernelSpec:
    """The AIV side as a 2-D kernel over (M, tileCols): the Matmul node becomes an input read from the
    workspace; its tile holds half of a cube tile's rows (BM / 2) of BN columns."""
    bm, bn, _ = tile
    m, n, _ = spec.dims
    nodes = list(spec.nodes)
    nodes[node.id] = Node(node.id, "input", node.dtype, name=WORKSPACE, where=node.where, shape="rc")
    for i in node.args:                        # the operands are the cube's, not the epilogue's
        nodes[i] = replace(nodes[i], shape=None)
    rows, cols = m.name, BAND_COLS
    params = [ParamSpec(WORKSPACE, "input", node.dtype, node.where, shape=(rows, cols))]
    for p in spec.params:
        if p.name in (spec.nodes[i].name for i in node.args) or p.name == WORKSPACE:
            continue
        shape = {2: (rows, cols), 1: (cols,), 0: ()}[len(p.shape)]
        params.append(replace(p, shape=shape))
    order = {"input": 0, "output": 1, "scalar": 2}
    params.sort(key=lambda p: order[p.kind])
    live = _live_epilogue(spec, nodes)
    outputs = tuple(o for o in spec.outputs if o.name != WORKSPACE)
    if not outputs:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: a Matmul kernel needs an output besides the "
                        "workspace: k.output(name, <epilogue of the Matmul>)")
    return KernelSpec(spec.name, 1, bm // 2 * bn, 1, spec.task_sync, tuple(params), tuple(live), outputs,
                      spec.where, (DimSpec(rows), DimSpec(cols)))


def _live_epilogue(spec: KernelSpec, nodes: list[Node]) -> list[Node]:
    """Keep node ids (they index the list); the operands stay as inert 1-D inputs no output reaches."""
    return nodes
