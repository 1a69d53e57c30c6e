"""Backends: how a Module is built and entered for one Ascend C library (builtin: ascgen's own; devkit: asc-devkit)."""
