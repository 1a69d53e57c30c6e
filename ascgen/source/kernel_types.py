"""Kernel types, as the toolchain decides them from a source: the one table the runtime (how many cores
of each type a launch starts) and the checker (which core sides a kernel runs on) both read."""

# Our names, in the core runtime's numbering (runtime/core/core_api.h).
KERNEL_TYPES = ("aiv", "aic", "mix_1_1", "mix_1_2")
KERNEL_TYPE_CODE = {name: i for i, name in enumerate(KERNEL_TYPES)}

# KERNEL_TASK_TYPE_DEFAULT(...) enumerators -> our kernel types.
TASK_TYPE_ENUMS = {
    "KERNEL_TYPE_AIV_ONLY": "aiv",
    "KERNEL_TYPE_AIC_ONLY": "aic",
    "KERNEL_TYPE_MIX_AIC_1_1": "mix_1_1",
    "KERNEL_TYPE_MIX_AIC_1_2": "mix_1_2",
    "KERNEL_TYPE_MIX_AIC_1_0": "aic",
    "KERNEL_TYPE_MIX_AIV_1_0": "aiv",
    "KERNEL_TYPE_MIX_AIV_HARD_SYNC": "aiv",
    "KERNEL_TYPE_MIX_AIC_HARD_SYNC": "mix_1_2",
}

# Function qualifiers -> kernel types (`__mix__(a, b)` takes its ratio from its arguments).
QUALIFIER_TYPES = {"__vector__": "aiv", "__cube__": "aic"}


def core_sides(kernel_type: str) -> str:
    """The core types a kernel of this type runs on: "aiv", "aic", or "*" for both (MIX)."""
    return kernel_type if kernel_type in ("aiv", "aic") else "*"
