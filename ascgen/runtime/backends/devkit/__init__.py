"""The devkit backend: the real asc-devkit library on ascgen's CPU model (docs/devkit.md)."""
from ascgen.runtime.backends.devkit.backend import DevkitBackend  # noqa: F401
