"""Plan a KernelSpec for one product: queues, temporary buffers, compute steps and the UB budget.

The plan decides everything the emitted code needs except where the task-sync calls go (tasksync.py)
and how it is spelled (render.py). Product facts come only from `Product` fields.
"""
from __future__ import annotations

from dataclasses import dataclass

from ascgen import products as _products
from ascgen.builder.caps import caps, spell_round
from ascgen.builder.ops import EXACT_CASTS, OPS
from ascgen.builder.ir import KernelSpec, Node
from ascgen.builder.types import DTYPES
from ascgen.errors import SpecError


@dataclass(frozen=True)
class GmTensor:
    name: str            # the parameter name
    kind: str            # "input" | "output"
    dtype: str
    ctype: str
    gm: str              # member: GlobalTensor
    queue: str           # member: TQue
    local: str           # LocalTensor variable in Compute/CopyIn/CopyOut
    method: str          # CopyIn<Name> / CopyOut<Name> suffix
    where: str


@dataclass(frozen=True)
class TempBuffer:
    member: str          # TBuf member
    nbytes: int          # bytes per tile (the largest dtype it ever holds)


@dataclass(frozen=True)
class VectorCall:
    """One vector call in Compute(): dst = op(srcs..., scalar) over `count` elements."""
    op: str
    dtype: str           # dst element type
    dst: str             # LocalTensor variable
    srcs: tuple[str, ...]
    src_dtype: str       # for Cast: the source type
    scalar: object       # ScalarOperand or None
    round: str | None
    where: str


@dataclass(frozen=True)
class TempUse:
    var: str             # LocalTensor variable name
    dtype: str
    buffer: str          # TBuf member it lives in


@dataclass(frozen=True)
class KernelPlan:
    spec: KernelSpec
    product: _products.Product
    class_name: str
    inputs: tuple[GmTensor, ...]
    outputs: tuple[GmTensor, ...]
    scalars: tuple            # ParamSpec of the scalar params
    temps: tuple[TempBuffer, ...]
    temp_uses: tuple[TempUse, ...]
    steps: tuple[VectorCall, ...]
    align_elems: int          # elements in 32 bytes of the narrowest dtype: the unit of the core split
    data_copy_pad: bool       # tails with DataCopyPad (else an aligned tail shifted back inside the tensor)
    ub_used: int
    ub_usable: int
    ub_items: tuple[tuple[str, int], ...]   # (what, bytes) for messages and docs

    @property
    def min_length(self) -> int:
        """Smallest non-zero totalLength the kernel handles: any with DataCopyPad, else one 32-byte unit."""
        return 1 if self.data_copy_pad else self.align_elems

    @property
    def tile_length(self) -> int:
        return self.spec.tile_length


# asc-devkit gives each used queue buffer an event id from its queue position's pool: QUE_MAX_EVENT ids,
# 8 on these __NPU_ARCH__ values and 4 elsewhere (impl/basic_api/kernel_macros.h; TPipe::AllocEventID
# fails with "max buffer number in same queue position is 8"). The builtin library models the same pool
# (runtime/include/ascendc/pipe.h kQueMaxEvent).
QUE_MAX_EVENT_8_ARCHS = (2002, 2201, 3002, 3102, 3510, 5102)


def que_max_event(product) -> int:
    return 8 if product.npu_arch in QUE_MAX_EVENT_8_ARCHS else 4


def check_queue_positions(spec: KernelSpec, product, inputs, outputs, buffer_num: int) -> None:
    """Every queue of a position uses each of its buffers (a tile loop), so their buffers add up against
    the library's event ids per position: refuse before emitting a kernel the library stops."""
    limit = que_max_event(product)
    for position, queues in (("VECIN", inputs), ("VECOUT", outputs)):
        if len(queues) * buffer_num <= limit:
            continue
        what = "inputs" if position == "VECIN" else "outputs"
        fits = limit // buffer_num
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: {len(queues)} {what} x buffer_num {buffer_num} = "
                        f"{len(queues) * buffer_num} queue buffers at {position}; the Ascend C library gives at most "
                        f"{limit} per queue position on {product.id} (QUE_MAX_EVENT: \"max buffer number in same "
                        f"queue position is {limit}\"). Hint: " + (f"buffer_num=1, or " if buffer_num > 1 else "")
                        + f"at most {fits} {what} per kernel (split it into two kernels)")


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "K"


def plan_kernel(spec_or_kernel, product) -> KernelPlan:
    spec = spec_or_kernel if isinstance(spec_or_kernel, KernelSpec) else spec_or_kernel.spec()
    product, live, rounds, dtypes, align = checked_basics(spec, product)
    inputs = tuple(_gm(p, "input") for p in spec.params_of("input"))
    outputs = tuple(_gm(p, "output") for p in spec.params_of("output"))
    steps, temps, uses = _lower(spec, live, rounds)
    items = _ub_items(spec, inputs, outputs, temps)
    used = sum(b for _, b in items)
    plan = KernelPlan(spec, product, "Kernel" + _camel(spec.name), inputs, outputs, spec.params_of("scalar"),
                      temps, uses, steps, align, product.data_copy_pad, used, product.ub_bytes, items)
    check_queue_positions(spec, product, inputs, outputs, spec.buffer_num)
    _check_ub(plan)
    return plan


def checked_basics(spec: KernelSpec, product):
    """What every planner checks and derives first: (product, live nodes, round modes, dtypes, the
    element alignment of a 32-byte block for the narrowest dtype)."""
    product = _products.get(product)
    _check_block_dim(spec, product)
    live = spec.live_nodes()
    rounds = _check_offered(spec, live, product)
    dtypes = {n.dtype for n in live} | {p.dtype for p in spec.params if p.kind != "scalar"}
    align = 32 // min(DTYPES[d].size for d in dtypes)
    _check_tile(spec, dtypes, align)
    return product, live, rounds, dtypes, align


def _check_block_dim(spec: KernelSpec, product) -> None:
    if not 1 <= spec.block_dim <= product.max_block_dim:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: block_dim {spec.block_dim} is above the "
                        f"{product.max_block_dim} vector cores of {product.id}; use 1..{product.max_block_dim} "
                        f"(or Product.with_cores(aiv=...) for a bigger chip)")


def _check_offered(spec: KernelSpec, live: tuple[Node, ...], product) -> dict[int, str]:
    """Every dtype, op and Cast of the kernel exists on the product; returns the Cast mode to emit per node."""
    row = caps(product)
    on = f"on {product.id} (__NPU_ARCH__ {product.npu_arch})"
    if not row.vector_api:
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: the Ascend C vector API the builder emits "
                        f"(Add, Exp, Cast...) is not offered {on}, {product.title}; target another product")
    for p in spec.params:
        if p.kind != "scalar" and p.dtype not in row.dtypes:
            raise SpecError(f"{p.kind} {p.name!r} at {p.where}: {p.dtype} is not offered {on}; "
                            f"its types: {', '.join(row.dtypes)}")
    rounds: dict[int, str] = {}
    for n in live:
        if n.dtype not in row.dtypes:
            raise SpecError(f"{n.op} at {n.where}: {n.dtype} is not offered {on}")
        if n.op == "Cast":
            src = spec.nodes[n.args[0]].dtype
            offered = row.casts.get((src, n.dtype))
            mode = spell_round(offered, n.round, (src, n.dtype) in EXACT_CASTS) if offered else None
            if mode is None:
                there = sorted({f"{d} ({'/'.join(m)})" for (s_, d), m in row.casts.items() if s_ == src})
                raise SpecError(f"Cast at {n.where}: {src} -> {n.dtype} with round={n.round!r} is not offered "
                                f"{on}; there {src} converts to: {', '.join(there) or 'nothing'}")
            rounds[n.id] = mode
        elif n.op in row.op_dtypes and n.dtype not in row.op_dtypes[n.op]:
            allowed = row.op_dtypes[n.op]
            raise SpecError(f"{n.op} at {n.where} on {n.dtype} is not offered {on}; "
                            f"there it takes {', '.join(allowed) or 'no type at all'}")
        elif n.op in OPS and n.op != "Cast" and OPS[n.op].dtypes and n.dtype not in OPS[n.op].dtypes:
            raise SpecError(f"{n.op} at {n.where} does not support {n.dtype}")
    return rounds


def _check_tile(spec: KernelSpec, dtypes: set[str], align: int) -> None:
    if spec.tile_length % align:
        narrow = min(sorted(dtypes), key=lambda d: DTYPES[d].size)
        lower = max(align, spec.tile_length // align * align)
        raise SpecError(f"kernel {spec.name!r} at {spec.where}: tile_length {spec.tile_length} is not a multiple "
                        f"of 32 bytes of {narrow} ({align} elements); UB buffers must be 32-byte aligned. "
                        f"Use {lower} or {lower + align}.")


def _gm(p, kind: str) -> GmTensor:
    cap = _camel(p.name)
    queue = ("inQueue" if kind == "input" else "outQueue") + cap
    return GmTensor(p.name, kind, p.dtype, DTYPES[p.dtype].ctype, p.name + "Gm", queue, p.name + "Local",
                    cap, p.where)


def liveness(spec: KernelSpec, live: tuple[Node, ...]) -> tuple[dict[int, str], dict[int, int]]:
    """(node -> the first output that holds it, node -> id of the last node that reads it): what decides
    where a value lives and when its buffer may be reused."""
    out_of: dict[int, str] = {}
    for o in spec.outputs:
        out_of.setdefault(o.node, o.name)
    last_use: dict[int, int] = {}
    for n in live:
        for a in n.args:
            last_use[a] = n.id
    return out_of, last_use


def _lower(spec: KernelSpec, live: tuple[Node, ...], rounds: dict[int, str]):
    """Compute steps in node order; each value lives in an output's queue tensor, an input's, or a temp
    buffer. Temp buffers are reused once their value is dead; a step never writes the buffer of one of its
    own sources (no in-place calls, valid for every op including size-changing Casts)."""
    out_of, last_use = liveness(spec, live)
    var: dict[int, str] = {}
    for n in live:
        if n.op == "input":
            var[n.id] = n.input_name + "Local"
    steps: list[VectorCall] = []
    temps: list[int] = []          # bytes per buffer
    busy: dict[int, int] = {}      # buffer index -> node id living there
    uses: list[TempUse] = []
    tile = spec.tile_length
    for n in live:
        if n.op == "input":
            continue
        need = tile * DTYPES[n.dtype].size
        if n.id in out_of:
            var[n.id] = out_of[n.id] + "Local"
        else:
            free = [b for b in range(len(temps)) if b not in busy]
            fit = [b for b in free if temps[b] >= need]
            buf = fit[0] if fit else (free[0] if free else len(temps))
            if buf == len(temps):
                temps.append(need)
            temps[buf] = max(temps[buf], need)
            busy[buf] = n.id
            name = f"tmp{len(uses)}"
            uses.append(TempUse(name, n.dtype, f"tmpBuf{buf}"))
            var[n.id] = name
        src_dtype = spec.nodes[n.args[0]].dtype if n.args else n.dtype
        steps.append(VectorCall(n.op, n.dtype, var[n.id], tuple(var[a] for a in n.args), src_dtype, n.scalar,
                          rounds.get(n.id, n.round), n.where))
        for buf, holder in list(busy.items()):       # free the buffers whose value was last used here
            if holder != n.id and last_use.get(holder, -1) <= n.id:
                del busy[buf]
    steps.extend(_copies(spec, var, out_of))
    return tuple(steps), tuple(TempBuffer(f"tmpBuf{i}", b) for i, b in enumerate(temps)), tuple(uses)


def _copies(spec: KernelSpec, var: dict[int, str], out_of: dict[int, str]) -> list[VectorCall]:
    """An output whose value already lives elsewhere (an input, or another output) is copied with
    Adds(dst, src, 0): a vector copy valid for any element count."""
    steps = []
    for o in spec.outputs:
        if out_of[o.node] == o.name and spec.nodes[o.node].op != "input":
            continue
        dt = spec.nodes[o.node].dtype
        if dt not in ("float16", "float32", "int16", "int32"):
            raise SpecError(f"output {o.name!r} at {o.where}: storing a {dt} value that is an input or another "
                            f"output needs a copy, offered for float16/float32/int16/int32 only")
        from ascgen.builder.ir import ScalarOperand
        zero = ScalarOperand(literal=0.0 if DTYPES[dt].is_float else 0)
        steps.append(VectorCall("Adds", dt, o.name + "Local", (var[o.node],), dt, zero, None, o.where))
    return steps


def _ub_items(spec, inputs, outputs, temps):
    items = []
    for t in (*inputs, *outputs):
        items.append((f"{t.queue} ({spec.buffer_num} x {spec.tile_length} {t.dtype})",
                      spec.buffer_num * spec.tile_length * DTYPES[t.dtype].size))
    for t in temps:
        items.append((f"{t.member} (temporary)", t.nbytes))
    return tuple(items)


def _check_ub(plan: KernelPlan) -> None:
    if plan.ub_used <= plan.ub_usable:
        return
    spec = plan.spec
    per_element = plan.ub_used // spec.tile_length
    best = plan.ub_usable // per_element // plan.align_elems * plan.align_elems
    detail = ", ".join(f"{what} {n} B" for what, n in plan.ub_items)
    raise SpecError(f"kernel {spec.name!r} at {spec.where}: needs {plan.ub_used} B of UB ({detail}); "
                    f"{plan.product.id} has {plan.ub_usable} B usable: over by {plan.ub_used - plan.ub_usable} B. "
                    f"Hint: tile_length <= {best}" + (" or buffer_num=1" if spec.buffer_num == 2 else ""))
