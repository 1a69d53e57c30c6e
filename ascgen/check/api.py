"""What the Ascend C API calls mean to `ascgen check`: one table of names, no logic beyond lookups.

The checker recognises library calls by name (spelled tokens), not by resolved declarations, because
kernels are often analysed without the CANN headers they include. Sources: docs/semantics.md (the two
calls, how a SuperKernel executes) and the public asc-devkit interface headers.
"""
from __future__ import annotations

from ascgen.products import PIPE_NUMBERS
from ascgen.source.kernel_types import QUALIFIER_TYPES, TASK_TYPE_ENUMS, core_sides

WAIT = "WaitPreTaskEnd"
SET = "SetNextTaskStart"
TASK_SYNC = (WAIT, SET)

# Pipe names and the numbers pipe_t gives them: the product table's.
PIPE_NAMES = {number: name for name, number in PIPE_NUMBERS.items()}

# SetNextTaskStart<AIV_PIPE, AIC_PIPE, FORCE>: the pipes each core type may wait on.
VALID_PIPES = {
    "AIV_PIPE": ("PIPE_MTE2", "PIPE_MTE3", "PIPE_S", "PIPE_V"),
    "AIC_PIPE": ("PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_M"),
}
SET_PARAMS = ("AIV_PIPE", "AIC_PIPE", "FORCE")
WAIT_PARAMS = ("FORCE",)

# Intrinsics the SuperKernel compiler rejects, and what to write instead.
FORBIDDEN_INTRINSICS = {
    "block_idx": "AscendC::GetBlockIdx()",
    "block_num": "AscendC::GetBlockNum()",
    "get_block_idx": "AscendC::GetBlockIdx()",
    "get_block_num": "AscendC::GetBlockNum()",
    "get_task_ration": "AscendC::GetTaskRatio()",
}

# Flags the SuperKernel boundary uses (11 all AIC, 12 AIV->AIC relay, 13 AIC->AIV relay, 14 all AIV).
SK_FLAGS = range(11, 15)
CROSS_CORE_FLAG_CALLS = ("CrossCoreSetFlag", "CrossCoreWaitFlag")
# The library's named flag ids (declared by the CANN kernel headers, which the emulated headers do not
# ship): operators pass them to CrossCoreSetFlag / CrossCoreWaitFlag. The user's own definitions win.
LIBRARY_CONSTANTS = {"SYNC_AIC_FLAG": 11, "SYNC_AIV_FLAG": 12, "SYNC_AIC_AIV_FLAG": 13, "SYNC_AIV_ONLY_ALL": 14}
HARDWARE_SYNC_ALL = "SyncAll"
# SK_BIND(kernel, cap, sk0, ...) binds a <<<>>> kernel to its SuperKernel twins (asc-devkit
# impl/basic_api/utils/kernel_utils_macros.h: `cap` is SknlMapInfo's capability word). Its bits for the
# task-sync calls the kernel makes (SK_BIND's documentation; ascgen's emitter writes the same,
# codegen/tasksync.py SK_CAP_WAIT / SK_CAP_SET, and a test pins the two together).
SK_BIND = "SK_BIND"
SK_CAP_BITS = {WAIT: 1, SET: 2}

# TPipe::InitBuffer(queue, num, len) / InitBuffer(buf, len): the memory each TPosition lives in, as the
# ascgen.products field holding its size (UB: the usable bytes, ub_bytes).
INIT_BUFFER = "InitBuffer"
BUFFER_MEMORY = {"VECIN": "ub_bytes", "VECOUT": "ub_bytes", "VECCALC": "ub_bytes", "A1": "l1_total",
                 "B1": "l1_total", "C1": "l1_total", "TSCM": "l1_total", "A2": "l0a_total", "B2": "l0b_total",
                 "CO1": "l0c_total"}
# sizeof of the scalar types buffer sizes are written with.
SCALAR_SIZES = {"half": 2, "float": 4, "float16_t": 2, "bfloat16_t": 2, "int8_t": 1, "uint8_t": 1,
                "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8,
                "double": 8, "int": 4, "char": 1, "bool": 1}       # SyncAll() without arguments; SyncAll(gm, ub, n) is the software one

# GM access by library calls. "args": (argument index, direction) pairs whose GlobalTensor argument is
# accessed. Methods called on a GlobalTensor object are in GM_METHODS.
GM_CALLS = {
    "DataCopy": ((0, "write"), (1, "read")),
    "DataCopyPad": ((0, "write"), (1, "read")),
    "Fixpipe": ((0, "write"),),
    "InitGlobalMemory": ((0, "write"),),
    "IterateAll": ((0, "write"),),
    "GetTensorC": ((0, "write"),),
    "SetAtomicAdd": (),
}
GM_METHODS = {"GetValue": "read", "SetValue": "write"}
# Calls that take a GlobalTensor without touching its memory (binding or configuring only).
GM_NON_ACCESS = frozenset({"SetGlobalBuffer", "SetTensorA", "SetTensorB", "SetBias", "SetL2CacheHint",
                           "GetPhyAddr", "GetSize", "SetShapeInfo", "GetShapeInfo", "SetAddr"})

# Calls that are never followed into, even when a definition is visible (the library itself).
LIBRARY_NAMESPACES = frozenset({"AscendC", "std", "matmul", "ascgen"})

# Names whose presence means a kernel uses the cube unit (AIC); used to infer the kernel type the way the
# toolchain does when no __vector__/__cube__ qualifier or KERNEL_TASK_TYPE_DEFAULT says it.
CUBE_NAMES = frozenset({"Mmad", "MmadWithSparse", "Fixpipe", "LoadData", "LoadDataWithTranspose",
                        "LoadData3DV2", "Matmul", "MatmulImpl", "REGIST_MATMUL_OBJ", "Conv3D", "CO1", "CO2",
                        "A1", "A2", "B1", "B2"})

# Kernel types from KERNEL_TASK_TYPE_DEFAULT(...) and qualifiers, as the core sets a path may run on.
KERNEL_TYPE_CORES = {enum: core_sides(kind) for enum, kind in TASK_TYPE_ENUMS.items()}
QUALIFIER_CORES = {**{q: core_sides(kind) for q, kind in QUALIFIER_TYPES.items()}, "__mix__": "*"}
# Per-template kernel types (ASCENDC_TPL_KERNEL_TYPE_SEL(...) in a tiling-key template header).
KERNEL_TYPE_SELECTOR = "ASCENDC_TPL_KERNEL_TYPE_SEL"
TEMPLATE_KERNEL_TYPES = {
    "ASCENDC_TPL_AIV_ONLY": "aiv", "ASCENDC_TPL_AIC_ONLY": "aic", "ASCENDC_TPL_MIX_AIV_1_0": "aiv",
    "ASCENDC_TPL_MIX_AIC_1_0": "aic", "ASCENDC_TPL_MIX_AIC_1_1": "*", "ASCENDC_TPL_MIX_AIC_1_2": "*",
}

# Per-core-side macros of separated products, by __NPU_ARCH__: the toolchain compiles a MIX kernel once
# per side, defining these on that side (operators select side-specific code with `#if defined(...)`).
CORE_SIDE_MACROS = {
    2201: (("aic", ("__DAV_C220_CUBE__", "__DAV_CUBE__")), ("aiv", ("__DAV_C220_VEC__", "__DAV_VEC__"))),
    3510: (("aic", ("__DAV_C310_CUBE__", "__DAV_CUBE__")), ("aiv", ("__DAV_C310_VEC__", "__DAV_VEC__"))),
}

# Core-type conditions: macro spelling -> (core type when true, core type when false).
CORE_CONDITIONS = {
    "ASCEND_IS_AIV": ("aiv", "aic"), "ASCEND_IS_AIC": ("aic", "aiv"),
    "ASCEND_IS_NOT_AIV": ("aic", "aiv"), "ASCEND_IS_NOT_AIC": ("aiv", "aic"),
}

TILING_KEY_MACRO = "TILING_KEY_IS"

# Library calls the checker interprets itself: never followed into a definition, even a visible one.
LEAF_CALLS = frozenset({*TASK_SYNC, *GM_CALLS, *GM_METHODS, *CROSS_CORE_FLAG_CALLS, HARDWARE_SYNC_ALL,
                        *FORBIDDEN_INTRINSICS})
