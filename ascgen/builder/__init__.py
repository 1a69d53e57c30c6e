"""The Python DSL that describes kernels: `Kernel`, its ops and dtypes, spec files, and the numpy
reference every emitted kernel is tested against. Nothing here knows about products or Ascend C text."""
from ascgen.builder.kernel import *  # noqa: F401,F403 - the builder's public names, listed in kernel.__all__
from ascgen.builder.kernel import __all__ as _kernel_names
from ascgen.builder.spec import load_spec

__all__ = [*_kernel_names, "load_spec"]
