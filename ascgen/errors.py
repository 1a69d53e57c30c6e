"""Every error ascgen raises on purpose. Catch `AscgenError` to catch them all.

Messages say what was wrong, where (file:line, core, task) and one hint for what to do. Kernel-side
errors carry the structured fields too, so tools need not parse the text.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class AscgenError(Exception):
    """Base class of every ascgen error."""


class SpecError(AscgenError, ValueError):
    """Bad builder input or a spec file that cannot be used."""


class UnsupportedProductError(AscgenError, ValueError):
    """An unknown product name, or a feature the product does not have."""


class CacheError(AscgenError):
    """The build cache cannot be used (no writable folder); the message names the folder and the setting."""


class OpTilingError(SpecError):
    """An operator's kernel tiling header cannot be written from its op_host sources (ascgen/source/op_tiling.py);
    the message names the file and line."""


class CompileError(AscgenError):
    """The C++ compiler rejected a source; the message holds its diagnostics against the user's file."""


@dataclass
class KernelSite:
    """Where a kernel-side event happened."""
    task: int | None = None          # index in the SuperKernel, None in a plain launch
    kernel: str | None = None
    core: str | None = None          # "AIV3", "AIC0"
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        parts = []
        if self.kernel is not None:
            parts.append(f'task {self.task} "{self.kernel}"' if self.task is not None else f'kernel "{self.kernel}"')
        if self.core:
            parts.append(f"on {self.core}")
        if self.file:
            parts.append(f"at {self.file}:{self.line}")
        return " ".join(parts)


class KernelError(AscgenError):
    """An error raised by emulated kernel code. `site` says where; `details` holds the raw record."""

    def __init__(self, message: str, site: KernelSite | None = None, details: dict | None = None):
        super().__init__(message)
        self.site = site or KernelSite()
        self.details = details or {}


class KernelMemoryError(KernelError):
    """Out-of-bounds GM or local access, UB over capacity, misalignment, bad DataCopy length."""


class HangError(KernelError):
    """Every live core is blocked and some wait can never be satisfied (reported, never hung)."""


class SyncCountError(KernelError):
    """A task-sync call executed the wrong number of times, or flag counters left unbalanced."""


class KernelTimeoutError(KernelError):
    """The kernel ran past the wall-clock limit (an infinite loop?)."""


class KernelCrashError(KernelError):
    """The kernel crashed the isolated worker process (segfault, abort)."""


class KernelAssertError(KernelError):
    """Any other kernel-side fault (unsupported argument, ascendc_assert, bad flag id...)."""


class RaceError(KernelError):
    """Cross-task data race(s), raised by Report.raise_on_race() or strict mode."""

    def __init__(self, message: str, races: list | None = None):
        super().__init__(message)
        self.races = races or []


@dataclass
class Diagnostic:
    """One finding of `ascgen check` or a placement lint."""
    file: str
    line: int
    column: int
    severity: str       # "error" | "warning" | "note"
    rule: str
    message: str
    notes: list = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message} [{self.rule}]"
