"""Issue 9 class 7, the runtime side: task-sync use is decided op-wide (over the whole source, as the SK
compiler does), so a call-free kernel of a source whose other kernel calls the pair fails in a SuperKernel.
`ascgen check` reports the same kernel (tests/check/test_do_while_block.py, rule tasksync-op-wide)."""
import numpy as np
import pytest

from ascgen.errors import SyncCountError
from ascgen.runtime import SuperKernel, load
from tests.check.test_do_while_block import TWO_KERNELS


def test_call_free_kernel_of_a_task_sync_source_is_a_sync_count_error():
    mod = load(TWO_KERNELS, "ascend910_93", filename="two.cpp")
    x, y = np.zeros(8, np.float32), np.zeros(8, np.float32)
    sk = SuperKernel("ascend910_93", options="early-start=1")
    sk.add(mod, "with_calls", 2, x, 8).add(mod, "without_calls", 2, y, 8)
    with pytest.raises(SyncCountError) as info:
        sk.run()
    assert "without_calls" in str(info.value)
