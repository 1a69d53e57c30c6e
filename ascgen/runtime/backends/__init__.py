"""The backends a Module can be built for, and the one registry of their names that load(), the worker of
isolated mode and every command read. A backend is a module with a Backend class (base.py) and one line in
REGISTRY: builtin (ascgen's own Ascend C library, builtin.py) and devkit (the real asc-devkit library on
ascgen's CPU model, devkit/).
"""
from __future__ import annotations

from ascgen.errors import SpecError
from ascgen.runtime.backends.base import Backend, BuildOptions  # noqa: F401 - the protocol, re-exported
from ascgen.runtime.backends.builtin import BuiltinBackend
from ascgen.runtime.backends.devkit import DevkitBackend

DEFAULT = "builtin"
REGISTRY: dict[str, type[Backend]] = {
    "builtin": BuiltinBackend,
    "devkit": DevkitBackend,
}


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def create(name: str) -> Backend:
    """A new Backend object for one Module, or SpecError naming the known backends."""
    cls = REGISTRY.get(name) if isinstance(name, str) else None
    if cls is None:
        raise SpecError(f"backend {name!r} is not one of {', '.join(REGISTRY)}")
    return cls()


def help_text() -> str:
    """The `--backend` help of the commands: one clause per backend."""
    return "; ".join(f"{name}: {cls.summary}" for name, cls in REGISTRY.items())
