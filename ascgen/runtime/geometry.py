"""How many AIC and AIV cores a launch starts, from the kernel types and block dims
(tasksync-semantics.md sections 2-3). The core runtime receives these counts; it never decides them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ascgen.errors import SpecError, UnsupportedProductError
from ascgen.source.kernel_types import KERNEL_TYPE_CODE, KERNEL_TYPES  # noqa: F401 - re-exported
MAX_CORES = 4096


@dataclass(frozen=True)
class Geometry:
    kind: str             # "aiv" | "aic" | "mix_1_1" | "mix_1_2" | "coupled"
    aic: int
    aiv: int
    ratio: int            # AIVs per AIC group (1 or 2); 0 with a single core type

    @property
    def cores(self) -> int:
        return self.aic + self.aiv

    def labels(self) -> list[str]:
        """Core labels in core order (AIC first), as reports and printf prefixes use them."""
        return [f"AIC{i}" for i in range(self.aic)] + [f"AIV{i}" for i in range(self.aiv)]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "aic": self.aic, "aiv": self.aiv, "ratio": self.ratio, "labels": self.labels()}


def needs(product, kernel_type: str, block_dim: int) -> tuple[int, int]:
    """(AIC, AIV) cores one kernel call runs on. Coupled products: block_dim cores of the one type."""
    _check_type(kernel_type)
    if not product.separated:
        return 0, block_dim
    return {"aiv": (0, block_dim), "aic": (block_dim, 0), "mix_1_1": (block_dim, block_dim),
            "mix_1_2": (block_dim, 2 * block_dim)}[kernel_type]


def launch(product, kernel_type: str, block_dim: int) -> Geometry:
    """A plain launch: the kernel's own type and block_dim."""
    _check_type(kernel_type)
    _check_block_dim(block_dim)
    if not product.separated:
        if product.vector_only and kernel_type != "aiv":
            raise UnsupportedProductError(
                f"{product.id} has vector cores only; a {kernel_type} kernel (cube work) cannot run there.")
        return _checked(Geometry("coupled", 0, block_dim, 0))
    aic, aiv = needs(product, kernel_type, block_dim)
    ratio = {"mix_1_1": 1, "mix_1_2": 2}.get(kernel_type, 0)
    return _checked(Geometry(kernel_type, aic, aiv, ratio))


def superkernel(product, tasks, options=None) -> Geometry:
    """One launch sized to the largest task (the SK compiler's rule), or to debug-aic-num/aiv-num.
    `tasks`: (kernel_type, block_dim) pairs."""
    if not product.superkernel:
        raise UnsupportedProductError(
            f"{product.id} ({product.title}) has no SuperKernel; products with one: ascend950, ascend910_93, ascend910b.")
    kinds, max_aic, max_aiv = set(), 0, 0
    for kernel_type, block_dim in tasks:
        _check_block_dim(block_dim)
        aic, aiv = needs(product, kernel_type, block_dim)
        kinds.add(kernel_type)
        max_aic, max_aiv = max(max_aic, aic), max(max_aiv, aiv)
    if kinds <= {"aiv"}:
        geo = Geometry("aiv", 0, max_aiv, 0)
    elif kinds <= {"aic"}:
        geo = Geometry("aic", max_aic, 0, 0)
    elif max_aiv <= max_aic:
        geo = Geometry("mix_1_1", max_aic, max_aic, 1)
    else:
        n = max(max_aic, math.ceil(max_aiv / 2))
        geo = Geometry("mix_1_2", n, 2 * n, 2)
    if options is not None and (options.debug_aic_num or options.debug_aiv_num):
        geo = _forced(options.debug_aic_num, options.debug_aiv_num, max_aic, max_aiv)
    return _checked(geo)


def _forced(aic: int, aiv: int, need_aic: int, need_aiv: int) -> Geometry:
    """debug-aic-num / debug-aiv-num: the launch size, which must cover every task."""
    if aic < need_aic:
        raise SpecError(f"SK option debug-aic-num={aic} is below the {need_aic} AIC cores a task needs.")
    if aiv < need_aiv:
        raise SpecError(f"SK option debug-aiv-num={aiv} is below the {need_aiv} AIV cores a task needs.")
    if aiv == 0:
        return Geometry("aic", aic, 0, 0)
    if aic == 0:
        return Geometry("aiv", 0, aiv, 0)
    if aiv == aic:
        return Geometry("mix_1_1", aic, aiv, 1)
    return Geometry("mix_1_2", aic, aiv, 2)


def _check_type(kernel_type: str) -> None:
    if kernel_type not in KERNEL_TYPES:
        raise SpecError(f"kernel type {kernel_type!r} is not one of {', '.join(KERNEL_TYPES)}")


def _check_block_dim(block_dim) -> None:
    if isinstance(block_dim, bool) or not isinstance(block_dim, int) or block_dim < 1:
        raise SpecError(f"block_dim must be a positive integer; got {block_dim!r}")


def _checked(geo: Geometry) -> Geometry:
    if geo.cores > MAX_CORES:
        raise SpecError(f"the launch would start {geo.aic} AIC + {geo.aiv} AIV = {geo.cores} emulated cores, more than "
                        f"the emulator's limit of {MAX_CORES} threads. Hint: lower block_dim (a real chip has 72).")
    return geo
