"""The devkit backend: the real asc-devkit library on ascgen's CPU model (docs/devkit.md)."""
