"""Data movement and memory faults of the emulated library, on small kernels in tests/library/stub/scenarios.cpp run
against the single-threaded rt stub: DataCopy / DataCopyPad layouts, one GM hook call per copy, atomic
adds, and every memory fault naming the user's line with the numbers."""
from __future__ import annotations

import re

import pytest

from tests.library import harness
from tests.paths import LIBRARY_STUB

pytestmark = pytest.mark.skipif(not harness.have_compiler(), reason="no C++ compiler on PATH")

SOURCE = LIBRARY_STUB / "scenarios.cpp"


def _tags() -> dict[str, int]:
    return {m.group(1): i for i, line in enumerate(SOURCE.read_text().splitlines(), 1)
            for m in [re.search(r"// @(\w+)", line)] if m}


@pytest.fixture(scope="session")
def scenario():
    exe = harness.build("scenarios", SOURCE)
    tags = _tags()

    def run(name: str):
        res = harness.run(exe, name)
        out, err = res.stdout.decode(), res.stderr.decode()
        counters = dict(re.findall(r"(\w+)=(\d+)", err.split("STUB", 1)[1])) if "STUB" in err else {}
        fault = re.search(r"FAULT kind=(\d+) at scenarios\.cpp:(\d+): (.*)", err)
        return res.returncode, out, counters, fault, tags
    return run


def _values(out: str, label: str) -> list[float]:
    line = next(l for l in out.splitlines() if l.startswith(label + ":"))
    return [float(v) for v in line.split(":", 1)[1].split()]


def _fault(scenario, name, tag, kind=1):
    rc, out, counters, fault, tags = scenario(name)
    assert rc == 3 and fault, f"{name} did not fault"
    assert int(fault.group(1)) == kind
    assert int(fault.group(2)) == tags[tag], f"fault at line {fault.group(2)}, expected the @{tag} line {tags[tag]}"
    return fault.group(3)


def test_contiguous_copy_is_one_gm_record_per_copy(scenario):
    rc, out, c, _, _ = scenario("copy_contig")
    assert rc == 0 and _values(out, "y") == [250, 251, 252, 253, 254, 255]
    assert c["gm_access"] == "2" and c["gm_strided"] == "0" and c["gm_view"] == "2"
    assert c["cost_MTE2"] == "1024" and c["cost_MTE3"] == "1024"


def test_strided_copy_gaps_are_in_32_byte_blocks(scenario):
    rc, out, c, _, _ = scenario("copy_strided")
    assert rc == 0
    ub = _values(out, "ub")
    assert ub == [float(v) for blk in (0, 16, 32, 48) for v in range(blk, blk + 8)]
    y = _values(out, "y")
    assert y[:16] == ub[:16] and y[16:32] == [-1] * 16 and y[32:48] == ub[16:32]
    assert c["gm_strided"] == "2" and c["gm_access"] == "0"


def test_datacopypad_pads_each_block_to_32_bytes(scenario):
    rc, out, c, _, _ = scenario("copy_pad")
    assert rc == 0
    ub = _values(out, "ub")
    # each UB block: 1 left pad, 5 data, then pad up to 8 floats (32 bytes); GM blocks are 6 floats apart
    assert ub == [-7, 0, 1, 2, 3, 4, -7, -7, -7, 6, 7, 8, 9, 10, -7, -7, -7, 12, 13, 14, 15, 16, -7, -7]
    y = _values(out, "y")
    assert y == [-7, 0, 1, 2, 3, 4, -1, -1, -7, 6, 7, 8, 9, 10, -1, -1, -7, 12, 13, 14, 15, 16]
    assert c["gm_strided"] == "2" and c["cost_MTE2"] == "60" and c["cost_MTE3"] == "72"


def test_datacopypad_dummy_and_setpadvalue(scenario):
    rc, out, _, _, _ = scenario("copy_pad_dummy")
    assert rc == 0
    assert _values(out, "ub") == [10, 11, 12] + [10] * 5 + [13, 14, 15] + [13] * 5   # dummy = first element
    assert _values(out, "ub2")[:8] == [10, 11, 12, 5, 5, 5, 5, 5]                      # SetPadValue(5)


def test_atomic_add_accumulates_and_checks_the_type(scenario):
    rc, out, _, fault, tags = scenario("atomic_add")
    assert _values(out, "y") == [100, 103, 106, 109]      # 100+i plus i twice
    assert rc == 3 and int(fault.group(2)) == tags["atomic_type"]


def test_datacopy_length_not_multiple_of_32_bytes(scenario):
    msg = _fault(scenario, "f_copy_len", "copy_len")
    assert "40 bytes is not a multiple of 32" in msg and "copies only 32 bytes" in msg and "DataCopyPad" in msg


def test_gm_access_outside_setglobalbuffer_size(scenario):
    msg = _fault(scenario, "f_gm_view", "gm_view")
    assert "GM access out of bounds" in msg and "[0, 64)" in msg and "32 elements" in msg


def test_gm_access_is_checked_by_the_core_against_allocations(scenario):
    rc, _, c, fault, tags = scenario("f_gm_alloc")
    assert rc == 3 and int(fault.group(2)) == tags["gm_alloc"] and "outside every allocation" in fault.group(3)
    assert c["gm_access"] == "1"


def test_vector_count_larger_than_tensor(scenario):
    msg = _fault(scenario, "f_count", "count")
    assert "local tensor overflow" in msg and "256 elements" in msg and "src1 has 128 elements" in msg


def test_sub_tensor_out_of_range_reports_the_nearest_call(scenario):
    # operator[] cannot take a location: the fault points at the latest library call before it.
    msg = _fault(scenario, "f_subtensor", "before_sub")
    assert "sub-tensor [300] of a tensor of 256 elements" in msg


def test_ub_over_capacity_gives_bytes_needed_and_usable(scenario):
    msg = _fault(scenario, "f_ub_capacity", "ub_capacity")
    assert "needs 131072 bytes with 131072 already in use (262144 total)" in msg
    assert "188160 bytes of usable UB" in msg


def test_ub_address_not_32_byte_aligned(scenario):
    msg = _fault(scenario, "f_align", "align")
    assert "UB address 16 is not 32-byte aligned" in msg and "multiple of 8 elements" in msg


def test_waitflag_without_setflag_would_hang(scenario):
    msg = _fault(scenario, "f_waitflag", "waitflag", kind=5)
    assert "WaitFlag<HardEvent::MTE2_V>(1) without a matching SetFlag" in msg


def test_scalar_access_out_of_range(scenario):
    msg = _fault(scenario, "f_getvalue", "getvalue")
    assert "GetValue index 32, the tensor has 32 elements" in msg


def test_static_tensor_beyond_ub(scenario):
    msg = _fault(scenario, "f_static_tensor", "static_tensor")
    assert "ends at byte 200704" in msg and "188160 bytes of usable UB" in msg
