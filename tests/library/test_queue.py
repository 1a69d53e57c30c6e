"""TQue / TBuf semantics and misuse, printf, the sync hooks and tiling data of the emulated library
(tests/library/stub/scenarios.cpp on the single-threaded rt stub)."""
from __future__ import annotations

import re

import pytest

from tests.library import harness
from tests.paths import LIBRARY_STUB

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

SOURCE = LIBRARY_STUB / "scenarios.cpp"
TAGS = {m.group(1): i for i, line in enumerate(SOURCE.read_text().splitlines(), 1)
        for m in [re.search(r"// @(\w+)", line)] if m}


@pytest.fixture(scope="session")
def scenario():
    exe = harness.build("scenarios", SOURCE)

    def run(name: str):
        res = harness.run(exe, name)
        return res.returncode, res.stdout.decode(), res.stderr.decode()
    return run


def _assert_fault(scenario, name, tag, text):
    rc, _, err = scenario(name)
    m = re.search(r"FAULT kind=5 at scenarios\.cpp:(\d+): (.*)", err)
    assert rc == 3 and m, err
    assert int(m.group(1)) == TAGS[tag]
    assert text in m.group(2)


def test_queue_is_fifo_with_depth_two_and_reuses_freed_buffers(scenario):
    rc, out, _ = scenario("q_fifo")
    assert rc == 0
    assert "count=2" in out and "first=1 second=2 size=32" in out and "reuse=1 idle=1" in out


def test_deque_on_empty_queue(scenario):
    _assert_fault(scenario, "q_deque_empty", "deque_empty", "DeQue on an empty queue")


def test_alloc_with_every_buffer_in_use(scenario):
    _assert_fault(scenario, "q_alloc_exhausted", "alloc_exhausted", "all 2 buffers of this queue are in use")


def test_double_free(scenario):
    _assert_fault(scenario, "q_double_free", "double_free", "FreeTensor of a buffer that is free")


def test_enque_of_a_foreign_tensor(scenario):
    _assert_fault(scenario, "q_foreign", "foreign", "does not come from this queue")


def test_tbuf_get_longer_than_buffer(scenario):
    rc, _, err = scenario("q_tbuf_len")
    assert rc == 3 and f"scenarios.cpp:{TAGS['tbuf_len']}: TBuf::Get<4-byte type>(33) needs 132 bytes" in err


def test_printf_formats_half_and_block_idx_through_rt_print(scenario):
    rc, out, _ = scenario("misc_printf")
    assert rc == 0
    assert "[AIV0] x=1.50 idx=0 n=7 s=ok" in out and "[AIV0] plain" in out
    assert "DumpTensor: desc=5" in out and "[0, 0.5, 1, 1.5]" in out


def test_sync_calls_reach_the_core_hooks(scenario):
    rc, out, err = scenario("misc_sync")
    assert rc == 0 and "aiv=1 aic=0 blockidx=0 blocknum=1" in out
    for hook in ("sync_all", "set_flag", "wait_flag", "set_next", "wait_pre"):
        assert f"{hook}=1" in err


def test_tiling_data_and_key(scenario):
    rc, out, err = scenario("misc_tiling")
    assert rc == 0 and "total=1024 tiles=8 scale=0.5 key=1" in out and "gm_access=1" in err


def test_queue_position_holds_at_most_eight_event_ids(scenario):
    """asc-devkit gives each used queue buffer an event id from its position's pool of QUE_MAX_EVENT = 8
    (kernel_macros.h; "max buffer number in same queue position is 8"): 4 queues x 2 buffers per position
    run, 5 x 2 at VECOUT fail at the 9th FreeTensor, as five double-buffered outputs do on the library."""
    rc, out, _ = scenario("q_event_pool_8")
    assert rc == 0 and "pools ok" in out
    _assert_fault(scenario, "q_event_pool_10", "event_pool",
                  "FreeTensor: 9 buffers of queue position VECOUT -> VECOUT hold an event id")
