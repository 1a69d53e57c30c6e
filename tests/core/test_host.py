"""rt::host_launch for hand-written programs: kernel facts from register_kernel(), host GM registered by
the program, the typed error of a failed launch raised from run_host()."""
import os

import cffi
import pytest

from ascgen import products, resources
from ascgen.errors import KernelMemoryError
from ascgen.runtime import build, core
from tests.paths import CORE_KERNELS

SRC = CORE_KERNELS / "host.cpp"


@pytest.fixture(scope="module")
def prog():
    core.ensure_loaded()
    so = build.compile_shared([SRC], include_dirs=resources.include_dirs(), name="coretest_host")
    ffi = cffi.FFI()
    ffi.cdef("int host_main(int, char**);")
    return ffi.dlopen(str(so))


def test_host_launch_uses_the_registered_kernel_type(prog):
    core.register_kernel("vec_kernel", "aiv")
    core.register_kernel("mix_kernel", "mix_1_2")
    a3 = products.get("ascend910_93")
    assert core.run_host(a3, prog.host_main, ["prog", "vec_kernel"]) == sum(range(1, 5))
    # MIX 1:2 with 4 blocks: AIV 0..7 (sub-blocks 0/1) and AIC 0..3
    code = core.run_host(a3, prog.host_main, ["prog", "mix_kernel"])
    assert code == sum(1 + i + 100 * (i % 2) for i in range(8)) + sum(1001 + i for i in range(4))


def test_unregistered_kernels_run_as_aiv(prog):
    assert core.run_host(products.get("ascend910b"), prog.host_main, ["prog", "never_registered"]) == 10


def test_a_failed_launch_raises_its_typed_error(prog):
    core.register_kernel("vec_kernel", "aiv")
    before = len(os.listdir("/proc/self/task"))
    allocations = core.ensure_loaded().ascgen_gm_allocation_count()
    with pytest.raises(KernelMemoryError) as err:
        core.run_host(products.get("ascend910_93"), prog.host_main, ["prog", "vec_kernel", "oob"])
    assert "hostbuf" in str(err.value) and err.value.site.core in ("AIV2", "AIV3")   # both write past the end
    assert len(os.listdir("/proc/self/task")) <= before   # none left behind
    # the unwound program never reached gm_unregister: the session end forgets its registrations
    assert core.ensure_loaded().ascgen_gm_allocation_count() == allocations
