"""Test harness for the core runtime: small C++ kernels that call rt.h directly (no emulated library),
with hand-written trampolines `extern "C" void name(void** args)`; args[i] points to an 8-byte slot
holding the i-th argument (the runtime-python convention)."""
from __future__ import annotations

import re

import cffi
import numpy as np

from ascgen import products, resources
from ascgen.runtime import build, core

from tests.paths import CORE_KERNELS


class Kernels:
    def __init__(self, filename: str):
        path = CORE_KERNELS / filename
        core.ensure_loaded()
        so = build.compile_shared([path], include_dirs=resources.include_dirs(), name=f"coretest_{path.stem}")
        names = re.findall(r'extern "C" void (\w+)\(void\*\* args\)', path.read_text())
        self.ffi = cffi.FFI()
        self.ffi.cdef("".join(f"void {n}(void**);\n" for n in names))
        self.lib = self.ffi.dlopen(str(so))
        self.source = str(path)

    def task(self, name, block_dim, *args, kernel_type="aiv", uses_wait=False, uses_set=False, uses_sync_all=True):
        slots = self.ffi.new("uint64_t[]", max(1, len(args)))
        argv = self.ffi.new("void*[]", max(1, len(args)))
        buffers = []
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                slots[i] = a.ctypes.data
                buffers.append(core.GmBuffer(f"arg{i}", a.ctypes.data, a.nbytes, a.dtype.name))
            else:
                slots[i] = int(a) & 0xFFFFFFFFFFFFFFFF
            argv[i] = slots + i
        t = core.Task(name=name, entry=getattr(self.lib, name), args=argv, block_dim=block_dim,
                      kernel_type=kernel_type, uses_wait=uses_wait, uses_set=uses_set, source=self.source,
                      uses_sync_all=uses_sync_all)
        return t, tuple(buffers), (slots, argv, args)


def run(kernels_tasks, product="ascend910_93", options=None, **kw):
    """Run (task, buffers, keep) triples; a SuperKernel when options is a string."""
    prod = products.get(product)
    tasks = tuple(t for t, _, _ in kernels_tasks)
    seen = {}
    for _, bufs, _ in kernels_tasks:
        for b in bufs:
            seen.setdefault((b.address, b.nbytes), b)
    opts = None if options is None else core.SkOptions.parse(options, prod,
                                                              treat_as_effective=kw.pop("treat_as_effective", False))
    req = core.RunRequest(product=prod, tasks=tasks, buffers=tuple(seen.values()), sk_options=opts, **kw)
    return core.run(req)
