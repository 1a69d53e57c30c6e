"""Guard zones around GM buffers, for writes through raw `(__gm__ T*)` pointers.

GlobalTensor accesses are bounds-checked by the library with their source line; a raw pointer store
(`((__gm__ float*)z)[n] = v`) is plain C++ and used to overwrite whatever lay next to the array. So a
launch binds each GM array as a copy placed between two guard zones filled with a known pattern; after
the run the copy is written back and the zones are compared: a changed byte is a KernelMemoryError
naming the parameter and the offset, and the caller's neighbouring memory was never touched.

Costs one copy in and one copy out per guarded buffer per launch (measured in docs/reliability.md), so by
default only arrays up to 1 MiB are guarded; ASCGEN_GM_GUARD=all guards every array, ASCGEN_GM_GUARD=0
none (config.gm_guard_max_bytes). Arrays that overlap without being the same range (two views of one
buffer) are bound directly, so their aliasing is kept.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np

from ascgen import config
from ascgen.errors import KernelMemoryError, KernelSite

ZONE = 4096                       # bytes of guard before and after each buffer
_PATTERN = np.frombuffer(bytes([0xA5, 0x5A, 0xC3, 0x3C]) * (ZONE // 4), dtype=np.uint8)


@dataclass
class _Zone:
    name: str
    original: np.ndarray          # uint8 view of the bound array (written back after the run)
    padded: np.ndarray            # ZONE + nbytes + ZONE
    nbytes: int

    @property
    def address(self) -> int:
        return self.padded.ctypes.data + ZONE


class Guard:
    """Copies of the GM buffers of one run, keyed by their (address, nbytes)."""

    def __init__(self, buffers, max_bytes: int = 1 << 62):
        """`buffers`: (param name, bound array) pairs of every task of the run; arrays over `max_bytes`
        are bound directly."""
        self.zones: dict[tuple[int, int], _Zone] = {}
        self.finished = False
        ranges: dict[tuple[int, int], tuple[str, np.ndarray]] = {}
        for name, arr in buffers:
            if arr.nbytes:
                ranges.setdefault((arr.ctypes.data, arr.nbytes), (name, arr))
        aliased = _overlapping(list(ranges))
        for key, (name, arr) in ranges.items():
            if key in aliased or key[1] > max_bytes:
                continue
            flat = arr.reshape(-1).view(np.uint8)
            padded = _take(ZONE + flat.size + ZONE)
            padded[:ZONE] = _PATTERN
            padded[ZONE + flat.size:] = _PATTERN
            padded[ZONE:ZONE + flat.size] = flat
            self.zones[key] = _Zone(name, flat, padded, flat.size)

    def address(self, address: int, nbytes: int) -> int:
        zone = self.zones.get((address, nbytes))
        return zone.address if zone else address

    def rebind(self, slots, pointers) -> list[tuple[int, int]]:
        """Point the slots at the copies; `pointers`: (slot index, array). Returns what to restore."""
        undo = []
        for index, arr in pointers:
            new = self.address(arr.ctypes.data, arr.nbytes)
            if new != slots[index]:
                undo.append((index, slots[index]))
                slots[index] = new
        return undo

    def buffers(self, gm_buffers) -> tuple:
        """core.GmBuffer records with the copies' addresses (the core registers and checks these)."""
        return tuple(replace(b, address=self.address(b.address, b.nbytes)) for b in gm_buffers)

    def finish(self, kernel: str, check: bool = True) -> None:
        """Write the copies back; then KernelMemoryError for the first guard zone a write changed."""
        self.finished = True
        for zone in self.zones.values():
            np.copyto(zone.original, zone.padded[ZONE:ZONE + zone.nbytes])
        error = None
        for zone in self.zones.values():
            for side, part in (("before the start", zone.padded[:ZONE]),
                               ("after the end", zone.padded[ZONE + zone.nbytes:])):
                changed = np.flatnonzero(part != _PATTERN)
                if changed.size and error is None:
                    error = _overrun_error(kernel, zone, side, changed)
            _give_back(zone.padded)
        if error is not None and check:
            raise error


# Copies are reused between launches: a fresh allocation of a large buffer costs a page fault per page,
# more than the copy itself. A few per size; the runs that need them are serialised by the core anyway.
_POOL_PER_SIZE = 4
_pool: dict[int, list] = {}
_pool_lock = threading.Lock()


def _take(size: int) -> np.ndarray:
    with _pool_lock:
        free = _pool.get(size)
        if free:
            return free.pop()
    return np.empty(size, dtype=np.uint8)


def _give_back(padded: np.ndarray) -> None:
    with _pool_lock:
        free = _pool.setdefault(padded.size, [])
        if len(free) < _POOL_PER_SIZE:
            free.append(padded)


class _NoGuard:
    """ASCGEN_GM_GUARD=0: the arrays are bound directly."""

    def buffers(self, gm_buffers) -> tuple:
        return tuple(gm_buffers)

    def finish(self, kernel: str, check: bool = True) -> None:
        pass


@contextmanager
def guarded(bound_tasks):
    """Guard the GM buffers of `bound_tasks` (module.BoundTask) for one run: the slots point at the copies
    inside the block and at the caller's arrays again after it; the copies are written back even when the
    run raises (a kernel error leaves the same partial output as an unguarded run)."""
    max_bytes = config.gm_guard_max_bytes()
    if not max_bytes:
        yield _NoGuard()
        return
    guard = Guard([(name, arr) for b in bound_tasks for name, arr in _named_pointers(b)], max_bytes)
    undo = [(b.slots, guard.rebind(b.slots, b.pointers)) for b in bound_tasks if b.slots is not None]
    try:
        yield guard
    finally:
        if not guard.finished:
            guard.finish("", check=False)
        for slots, changes in undo:
            for index, value in changes:
                slots[index] = value


def _named_pointers(bound) -> list:
    """(param name, array) of a BoundTask's GM pointers (names from its GmBuffer records)."""
    by_address = {b.address: b.name for b in bound.buffers}
    return [(by_address.get(arr.ctypes.data, f"arg{i}"), arr) for i, arr in bound.pointers]


def _overlapping(ranges: list[tuple[int, int]]) -> set:
    """Ranges that overlap another, different range (views into one array)."""
    out = set()
    ordered = sorted(ranges)
    for (a, an), (b, bn) in zip(ordered, ordered[1:]):
        if b < a + an:
            out.update({(a, an), (b, bn)})
    return out


def _overrun_error(kernel: str, zone: _Zone, side: str, changed: np.ndarray) -> KernelMemoryError:
    if side.startswith("after"):
        first, last = int(changed[0]), int(changed[-1])
        where = f"bytes {zone.nbytes + first}..{zone.nbytes + last} of {zone.name} (it has {zone.nbytes} bytes)"
    else:
        first, last = ZONE - int(changed[-1]), ZONE - int(changed[0])
        where = f"{first}..{last} bytes before the start of {zone.name}"
    return KernelMemoryError(
        f'{kernel}: a GM write went {side} of parameter "{zone.name}": {where} were written. Only a raw '
        f"(__gm__ T*) pointer can do this (GlobalTensor accesses are checked with their line); look for an "
        f"index past the length in a scalar loop or workspace pointer. The write landed in a guard zone: "
        f"your memory next to the array is untouched. (ASCGEN_GM_GUARD=0 turns the guard zones off; =all guards arrays over 1 MiB too.)",
        KernelSite(kernel=kernel), {"parameter": zone.name, "side": side, "bytes_changed": int(changed.size)})
