"""Checks of the numbers a caller hands the runtime (time limits, buffer sizes), in one place so the
Python API, the CLI and the isolated worker refuse the same values with the same message."""
from __future__ import annotations

import math
import numbers

from ascgen.errors import SpecError

# No launch needs more: a week. Larger values (and inf) are almost always a unit mistake, and the core's
# deadline arithmetic must stay finite so a spinning kernel is always stopped.
MAX_TIME_LIMIT_S = 7 * 24 * 3600.0
# One GM buffer made by the CLI (zeros:N, out:PATH:N): 16 GiB is more than any emulated kernel can touch
# in reasonable time; larger sizes are typos (1e14) that would otherwise exhaust memory.
MAX_CLI_BUFFER_BYTES = 16 << 30


def time_limit(value, what: str = "time_limit_s") -> float:
    """`value` as a float in (0, MAX_TIME_LIMIT_S]; SpecError for nan, inf, <= 0, bool or non-numbers."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SpecError(f"{what} must be a number of seconds; got {value!r} ({type(value).__name__})")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_TIME_LIMIT_S:
        raise SpecError(f"{what} must be a finite number of seconds in (0, {MAX_TIME_LIMIT_S:.0f}]; got {value!r}. "
                        "Hint: the limit is what stops a kernel that never finishes, so it cannot be nan or inf.")
    return seconds


def buffer_bytes(text: str, what: str) -> int:
    """A byte count written on the command line: a plain non-negative integer up to MAX_CLI_BUFFER_BYTES."""
    if not text.strip().isascii() or not text.strip().isdigit():
        raise SpecError(f"{what}: the size {text!r} is not a whole number of bytes (write e.g. 4096, not 4e3)")
    n = int(text)
    if n > MAX_CLI_BUFFER_BYTES:
        raise SpecError(f"{what}: {n} bytes is more than the {MAX_CLI_BUFFER_BYTES >> 30} GiB ascgen allocates "
                        "for one command-line buffer. Hint: check the size (bytes, not elements).")
    return n


def schedule_seed(value) -> int:
    """-1 for None (no perturbation), else the seed as a non-negative 63-bit integer; SpecError for the rest."""
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SpecError(f"schedule_seed must be an integer or None; got {value!r} ({type(value).__name__})")
    return int(value) & 0x7FFFFFFFFFFFFFFF
