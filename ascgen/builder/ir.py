"""The frozen IR a builder produces: a KernelSpec (no product yet). The planner consumes it, the numpy
reference interprets it. Node ids are creation order, which is a topological order."""
from __future__ import annotations

from dataclasses import dataclass

# Which task-sync calls a kernel makes: both, only WaitPreTaskEnd, only SetNextTaskStart, or none.
TASK_SYNC_MODES = ("both", "wait", "set", "none")


@dataclass(frozen=True)
class ScalarOperand:
    """A scalar operand of an op: a literal number or a scalar kernel parameter (by name)."""
    literal: float | int | None = None
    param: str | None = None
    negate: bool = False            # `x - alpha` is Adds(x, -alpha)


@dataclass(frozen=True)
class Node:
    id: int
    op: str                         # "input" or an OPS name
    dtype: str                      # result dtype name
    args: tuple[int, ...] = ()      # operand node ids
    scalar: ScalarOperand | None = None
    round: str | None = None        # Cast only
    name: str | None = None         # input name
    where: str = ""                 # "spec.py:12": the builder line that asked for it
    shape: str | None = None        # 2-D kernels: "rc" (rows x cols), "r" (one value per row), "c" (per column),
                                    # "rk" (rows x k: the k lanes a TopK selects per row);
                                    # Matmul operands "mk" (M x K) and "kn" (K x N)
    tile: tuple[int, int, int] | None = None   # Matmul only: (BM, BN, BK) of the cube tiles
    k: int | None = None            # TopK only: lanes selected per row

    @property
    def input_name(self) -> str:
        """The kernel parameter an input node reads (the builder names every input)."""
        if self.name is None:
            raise ValueError(f"node {self.id} ({self.op} at {self.where}) is not a named input")
        return self.name

    @property
    def lanes(self) -> int:
        """The k of a TopK / TopKIndices node (the builder gives them one)."""
        if self.k is None:
            raise ValueError(f"node {self.id} ({self.op} at {self.where}) selects no lanes")
        return self.k

    @property
    def shape_2d(self) -> str:
        """The shape of a node of a 2-D kernel (the builder gives every such node one)."""
        if self.shape is None:
            raise ValueError(f"node {self.id} ({self.op} at {self.where}) has no 2-D shape")
        return self.shape


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: str                       # "input" | "output" | "scalar"
    dtype: str
    where: str = ""
    default: float | int | None = None   # scalars: the value host programs and demos use
    shape: tuple[str, ...] = ()     # 2-D kernels: the dim names of a GM tensor ((rows, cols), (cols,), (rows,))


@dataclass(frozen=True)
class DimSpec:
    """A symbolic dimension of a 2-D kernel: a uint32_t kernel argument."""
    name: str
    multiple_of: int = 1            # the caller promises dim % multiple_of == 0 (needed without DataCopyPad)
    where: str = ""


@dataclass(frozen=True)
class OutputSpec:
    name: str
    node: int
    where: str = ""


@dataclass(frozen=True)
class KernelSpec:
    name: str
    block_dim: int
    tile_length: int
    buffer_num: int
    task_sync: str
    params: tuple[ParamSpec, ...]   # C entry order: inputs, outputs, scalars
    nodes: tuple[Node, ...]
    outputs: tuple[OutputSpec, ...]
    where: str = ""
    dims: tuple[DimSpec, ...] = ()  # () for a 1-D kernel (totalLength); (rows, cols) for a 2-D one;
                                    # (M, N, K) for a Matmul kernel (its epilogue is 2-D over (M, N))

    @property
    def is_2d(self) -> bool:
        return bool(self.dims)

    @property
    def topk_k(self) -> int:
        """The k of the kernel's TopK (at most one), 0 without."""
        return next((n.lanes for n in self.nodes if n.op == "TopK"), 0)

    @property
    def matmul(self) -> Node | None:
        """The Matmul node of a MIX kernel, None for a vector kernel."""
        return next((n for n in self.nodes if n.op == "Matmul"), None)

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def params_of(self, kind: str) -> tuple[ParamSpec, ...]:
        return tuple(p for p in self.params if p.kind == kind)

    def live_nodes(self) -> tuple[Node, ...]:
        """Nodes some output depends on, in id (topological) order."""
        live: set[int] = set()
        stack = [o.node for o in self.outputs]
        while stack:
            nid = stack.pop()
            if nid not in live:
                live.add(nid)
                stack.extend(self.nodes[nid].args)
        return tuple(n for n in self.nodes if n.id in live)
