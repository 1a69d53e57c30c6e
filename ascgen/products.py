"""The product catalog: every product-specific fact lives in this one table.

Passes look facts up here (`product.ub_bytes`, `product.default_pipes`...); nothing else in ascgen
branches on a product name. Source: docs/semantics.md, "Products and what the calls do there".
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from ascgen.errors import UnsupportedProductError

KB = 1024

# Pipe names and their numbers: pipe_t's enumerators in both C++ libraries and the core's (rt::pipe), through
# runtime/common/ascgen_arch.h generated from this table (ascgen/runtime/product_cxx.py).
PIPE_NUMBERS = {"PIPE_S": 0, "PIPE_V": 1, "PIPE_M": 2, "PIPE_MTE1": 3, "PIPE_MTE2": 4, "PIPE_MTE3": 5,
                "PIPE_ALL": 6, "PIPE_MTE4": 7, "PIPE_MTE5": 8, "PIPE_V2": 9, "PIPE_FIX": 10}


@dataclass(frozen=True)
class Product:
    id: str
    title: str
    npu_arch: int                       # the value of __NPU_ARCH__
    separated: bool                     # AIC and AIV are separate cores (MIX launches pair them)
    vector_only: bool                   # no cube unit at all (Atlas inference Vector Core)
    aic_aiv_ratio: tuple[int, int]      # cores per group in a MIX launch: (1, 2) separated, (1, 1) coupled
    ub_total: int                       # Unified Buffer bytes per (vector) core
    ub_reserved: int                    # bytes taken by the hardware and the library by default
    default_pipes: tuple[str, str]      # SetNextTaskStart<AIV_PIPE, AIC_PIPE> defaults
    task_sync: str                      # "effective" | "compile-only" (what the documentation says)
    superkernel: bool                   # can run in a SuperKernel (and so has SK_BIND for FORCE=true)
    aic_cores: int                      # default full-chip counts, configurable via with_cores()
    aiv_cores: int
    soc_versions: tuple[str, ...]       # SoC names used by the CANN toolchain
    aliases: tuple[str, ...] = ()
    note: str = ""
    # __CCE_AICORE__ as the CANN toolchain defines it (operator sources branch on it); None where no source
    # settles it. ascend950's 310 is read from production kernels, not from a build file (docs/devkit.md,
    # "Products"): ops-nn kernels declared for ascend950 compile their only body under `== 220 || == 310`
    # (heaviside, squared_relu, gelu_mul, logit), pick their regbase implementation under `== 310`
    # (norm/rms_norm/op_kernel/rms_norm.cpp) and the register width under `== 310`
    # (common/inc/op_kernel/platform.h, GetVRegSize: VECTOR_REG_WIDTH). Two kernel UTs pass
    # -D__CCE_AICORE__=350 to pick a branch of their own test file; the UT's flag still wins there.
    cce_aicore: int | None = None
    # DataCopyPad exists (GM<->UB copies of any byte length); without it tails need an aligned copy.
    data_copy_pad: bool = True
    # The SoC family name of CANN's platform files (their Short_SoC_version), which the library's
    # platform code maps to its SocVersion enum (devkit host programs, runtime/devkit/host).
    short_soc: str = ""
    # Local memories per core in bytes, 0 where unknown: the library's TOTAL_L1_SIZE / TOTAL_L0A_SIZE /
    # TOTAL_L0B_SIZE / TOTAL_L0C_SIZE for the product's __NPU_ARCH__ (asc-devkit
    # impl/basic_api/utils/kernel_utils_constants.h; L1 before the library's 128 B KFC reserve on 2201),
    # and the bias table (BT) size its matmul tiling assumes (impl/adv_api/tiling/matmul).
    l1_total: int = 0
    l0a_total: int = 0
    l0b_total: int = 0
    l0c_total: int = 0
    bt_total: int = 0

    @property
    def ub_bytes(self) -> int:
        """Usable UB bytes for kernel buffers."""
        return self.ub_total - self.ub_reserved

    @property
    def cmake_arch(self) -> str:
        """The value of CMAKE_ASC_ARCHITECTURES for this product."""
        return f"dav-{self.npu_arch}"

    @property
    def max_block_dim(self) -> int:
        """The largest block_dim an AIV-only launch may use (one block per vector core)."""
        return self.aiv_cores

    def with_cores(self, aic: int | None = None, aiv: int | None = None) -> "Product":
        """The same product with another core count (chips differ: 910B3 has 20 AIC + 40 AIV)."""
        return replace(self, aic_cores=self.aic_cores if aic is None else aic,
                       aiv_cores=self.aiv_cores if aiv is None else aiv)


_LIB_RESERVED_2201 = 256 + 8 * KB   # hardware 256 B + library default 8 KB

_TABLE = (
    Product("ascend950", "Ascend 950PR / 950DT (Atlas 350 card)", 3510, True, False, (1, 2),
            248 * KB, 0, ("PIPE_MTE3", "PIPE_FIX"), "effective", True, 32, 64,
            ("Ascend950PR", "Ascend950DT", "Ascend950PR_9599"), ("Ascend950", "Atlas 350", "dav-3510"), cce_aicore=310,
            short_soc="Ascend950", l1_total=512 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=256 * KB),
    Product("ascend910_93", "Atlas A3 training / inference", 2201, True, False, (1, 2),
            192 * KB, _LIB_RESERVED_2201, ("PIPE_MTE3", "PIPE_FIX"), "effective", True, 24, 48,
            ("Ascend910_9391", "Ascend910_9392", "Ascend910_9381", "Ascend910_9382", "Ascend910_9372",
             "Ascend910_9362"),
            ("Ascend910_93", "Atlas A3", "Atlas A3 training", "Atlas A3 inference"), cce_aicore=220,
            short_soc="Ascend910_93", l1_total=512 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=128 * KB, bt_total=1 * KB),
    Product("ascend910b", "Atlas A2 training / inference", 2201, True, False, (1, 2),
            192 * KB, _LIB_RESERVED_2201, ("PIPE_MTE3", "PIPE_FIX"), "compile-only", True, 24, 48,
            ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"),
            ("Ascend910B", "Atlas A2", "Atlas A2 training", "Atlas A2 inference"),
            note="documented compile-only; the library code path is identical to A3", cce_aicore=220,
            short_soc="Ascend910B", l1_total=512 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=128 * KB, bt_total=1 * KB),
    Product("ascend310b", "Atlas 200I/500 A2 inference", 3002, False, False, (1, 1),
            248 * KB, 0, ("PIPE_MTE3", "PIPE_FIX"), "compile-only", False, 1, 1,
            ("Ascend310B1", "Ascend310B2", "Ascend310B3", "Ascend310B4"),
            ("Ascend310B", "Atlas 200I A2", "Atlas 500 A2", "Atlas 200I/500 A2", "dav-3002"), cce_aicore=300,
            short_soc="Ascend310B", l1_total=1024 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=128 * KB),
    Product("ascend310p", "Atlas inference series, AI Core", 2002, False, False, (1, 1),
            256 * KB, 0, ("PIPE_MTE3", "PIPE_MTE3"), "compile-only", False, 8, 8,
            ("Ascend310P1", "Ascend310P3"), ("Ascend310P", "Atlas inference", "Atlas inference AI Core"),
            cce_aicore=200, data_copy_pad=False,
            short_soc="Ascend310P", l1_total=1024 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=256 * KB),
    Product("ascend310p_vec", "Atlas inference series, Vector Core", 2002, False, True, (0, 1),
            256 * KB, 0, ("PIPE_MTE3", "PIPE_MTE3"), "compile-only", False, 0, 7,
            ("Ascend310P3",), ("Ascend310P Vector Core", "Atlas inference Vector Core"), cce_aicore=200, data_copy_pad=False,
            short_soc="Ascend310P"),
    Product("ascend910", "Atlas training series", 1001, False, False, (1, 1),
            256 * KB, 0, ("PIPE_MTE3", "PIPE_MTE3"), "compile-only", False, 32, 32,
            ("Ascend910A", "Ascend910ProA", "Ascend910PremiumA"),
            ("Ascend910", "Atlas training", "Atlas training series", "dav-1001"), cce_aicore=100, data_copy_pad=False,
            short_soc="Ascend910", l1_total=1024 * KB, l0a_total=64 * KB, l0b_total=64 * KB, l0c_total=256 * KB),
)

# Lower case, without spaces, '-', '_' or '/', so "Atlas A2", "atlas-a2" and "ATLAS_A2" are one name.
def _key(name: str) -> str:
    return re.sub(r"[\s_\-/]+", "", name).lower()


def _index() -> dict[str, Product]:
    index: dict[str, Product] = {}
    for product in _TABLE:
        for name in (product.id, *product.aliases, *product.soc_versions):
            # A SoC name shared by two rows (Ascend310P3 has both AI and vector cores) maps to the first.
            index.setdefault(_key(name), product)
    return index


_INDEX = _index()


def all() -> tuple[Product, ...]:  # noqa: A001 - the public contract names it all()
    return _TABLE


def get(name: "str | Product") -> Product:
    """The product called `name` (id, alias, SoC version or dav-XXXX). Unknown names list close matches."""
    if isinstance(name, Product):
        return name
    found = _INDEX.get(_key(str(name)))
    if found is not None:
        return found
    arch = re.fullmatch(r"dav(\d{4})", _key(str(name)))
    if arch:
        same = [p.id for p in _TABLE if p.npu_arch == int(arch.group(1))]
        if same:
            raise UnsupportedProductError(
                f"{name!r} is ambiguous: __NPU_ARCH__ {arch.group(1)} is {' and '.join(same)}; name one of them.")
    close = difflib.get_close_matches(_key(str(name)), list(_INDEX), n=4, cutoff=0.5)
    ids = sorted({_INDEX[c].id for c in close})
    hint = f" Did you mean: {', '.join(ids)}?" if ids else ""
    raise UnsupportedProductError(
        f"unknown product {name!r}.{hint} Known products: {', '.join(p.id for p in _TABLE)} "
        f"(run `ascgen products` for the table and aliases).")


def as_record(p: Product) -> dict:
    """One product as machine values (`ascgen products --format json`): numbers, booleans, lists."""
    return {
        "id": p.id, "title": p.title, "npu_arch": p.npu_arch, "cce_aicore": p.cce_aicore,
        "separated": p.separated, "vector_only": p.vector_only,
        "aic_aiv_ratio": list(p.aic_aiv_ratio), "aic_cores": p.aic_cores, "aiv_cores": p.aiv_cores,
        "ub_total_bytes": p.ub_total, "ub_reserved_bytes": p.ub_reserved, "ub_usable_bytes": p.ub_bytes,
        # 0: not known for this product
        "l1_total_bytes": p.l1_total, "l0a_total_bytes": p.l0a_total, "l0b_total_bytes": p.l0b_total,
        "l0c_total_bytes": p.l0c_total, "bt_total_bytes": p.bt_total, "short_soc": p.short_soc,
        "default_pipes": {"aiv": p.default_pipes[0], "aic": p.default_pipes[1]},
        "task_sync": p.task_sync, "superkernel": p.superkernel, "data_copy_pad": p.data_copy_pad,
        "cmake_arch": p.cmake_arch, "soc_versions": list(p.soc_versions), "aliases": list(p.aliases),
        "note": p.note,
    }


def records() -> list[dict]:
    return [as_record(p) for p in _TABLE]


def table_rows() -> list[dict]:
    """The catalog as printable rows (for `ascgen products`)."""
    rows = []
    for p in _TABLE:
        rows.append({
            "id": p.id, "npu_arch": p.npu_arch,
            "cores": ("separated " if p.separated else "coupled ") + (
                "vector only" if p.vector_only else f"AIC:AIV {p.aic_aiv_ratio[0]}:{p.aic_aiv_ratio[1]}"),
            "default cores": f"{p.aic_cores} AIC + {p.aiv_cores} AIV" if p.separated else f"{p.aiv_cores}",
            "pipes": f"<{p.default_pipes[0]}, {p.default_pipes[1]}>",
            "task sync": p.task_sync, "SuperKernel": "yes" if p.superkernel else "no",
            "UB usable": f"{p.ub_bytes} B", "title": p.title,
        })
    return rows
