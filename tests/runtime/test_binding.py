"""Launch arguments -> 8-byte slots by the C types the compiler resolved (binding.py; no compiler here)."""
import ml_dtypes
import numpy as np
import pytest

from ascgen.errors import SpecError
from ascgen.runtime.binding import bind

P3 = [("x", "GM_ADDR"), ("n", "uint8_t"), ("alpha", "float")]


def test_arrays_bind_in_place_and_scalars_by_type():
    x = np.arange(8, dtype=np.float32)
    b = bind("k", P3, ["ptr:uint8", "uint8", "float32"], (x, 200, 0.5))
    assert b.slots[0] == x.ctypes.data                         # the caller's memory, not a copy
    assert b.slots[1] == 200
    assert b.slots[2] == int.from_bytes(np.float32(0.5).tobytes(), "little")
    assert [name for name, _ in b.buffers] == ["x"]


def test_out_of_range_scalar_names_the_parameter():
    with pytest.raises(SpecError, match=r'parameter "n" \(uint8_t, uint8\) takes values in \[0, 255\]; got 300'):
        bind("k", P3, ["ptr:uint8", "uint8", "float32"], (np.zeros(4), 300, 1.0))


def test_negative_into_unsigned_and_float_into_int_are_errors():
    with pytest.raises(SpecError, match="got -1"):
        bind("k", [("n", "uint32_t")], ["uint32"], (-1,))
    with pytest.raises(SpecError, match="takes an integer; got 1.5"):
        bind("k", [("n", "int32_t")], ["int32"], (1.5,))


def test_wrong_argument_count_lists_the_parameters():
    with pytest.raises(SpecError, match=r"k takes 3 argument\(s\) after block_dim \(x \(GM_ADDR\), n \(uint8_t\), "
                                        r"alpha \(float\)\); got 2"):
        bind("k", P3, ["ptr:uint8", "uint8", "float32"], (np.zeros(4), 1))


def test_non_contiguous_array_is_refused_with_a_hint():
    x = np.zeros((4, 4), dtype=np.float32)[:, 1]
    with pytest.raises(SpecError, match="C-contiguous.*np.ascontiguousarray"):
        bind("k", [("x", "GM_ADDR")], ["ptr:uint8"], (x,))


def test_typed_pointer_checks_the_dtype():
    with pytest.raises(SpecError, match=r'"x" is __gm__ float\* \(float32 elements\); got a int32 array'):
        bind("k", [("x", "__gm__ float*")], ["ptr:float32"], (np.zeros(4, dtype=np.int32),))
    bind("k", [("x", "__gm__ float*")], ["ptr:float32"], (np.zeros(4, dtype=np.float32),))


def test_bfloat16_arrays_are_elements_not_tiling_bytes():
    """ml_dtypes' bfloat16 has dtype kind "V" like raw records. It was bound as bytes: a bfloat16 array for a
    half parameter ran with the bits read as half (1.0 -> 1.875, no error), and race reports named its
    ranges in bytes as a uint8 buffer. It is an element array: checked, bound in place with its dtype."""
    x = np.ones(16, dtype=ml_dtypes.bfloat16)
    with pytest.raises(SpecError, match=r'"x" is used as half elements .*got a bfloat16 array'):
        bind("k", [("x", "GM_ADDR")], ["ptr:uint8"], (x,), casts=[("x", "half", "k.cpp", 3)])
    with pytest.raises(SpecError, match=r'"x" is __gm__ half\* \(float16 elements\); got a bfloat16 array'):
        bind("k", [("x", "__gm__ half*")], ["ptr:float16"], (x,))
    b = bind("k", [("x", "GM_ADDR")], ["ptr:uint8"], (x,), casts=[("x", "bfloat16_t", "k.cpp", 3)])
    (name, arr), = b.buffers
    assert arr is x and arr.dtype.name == "bfloat16"


def test_tiling_bytes_and_structured_arrays_are_copied_to_gm():
    tiling = np.zeros(1, dtype=[("total", "<u4"), ("tile", "<u4")])
    tiling[0] = (100, 32)
    b = bind("k", [("t", "GM_ADDR")], ["ptr:uint8"], (tiling,))
    (name, arr), = b.buffers
    assert arr.tobytes() == tiling.tobytes()
    b = bind("k", [("t", "GM_ADDR")], ["ptr:uint8"], (b"\x01\x02\x03\x04",))
    assert b.buffers[0][1].tobytes() == b"\x01\x02\x03\x04"


def test_half_and_bfloat16_scalars_carry_their_bits():
    b = bind("k", [("h", "half"), ("b", "bfloat16_t")], ["float16", "bfloat16"], (1.5, 2.0))
    assert b.slots[0] == int(np.float16(1.5).view(np.uint16))
    assert b.slots[1] == int(np.array([2.0], dtype=ml_dtypes.bfloat16).view(np.uint16)[0])


def test_none_is_a_null_pointer_and_numpy_scalars_work():
    b = bind("k", [("w", "GM_ADDR"), ("n", "int64_t")], ["ptr:uint8", "int64"], (None, np.int64(-3)))
    assert b.slots == [0, (-3) & 0xFFFFFFFFFFFFFFFF]


def test_a_number_for_a_pointer_is_refused():
    with pytest.raises(SpecError, match='"x" is a GM pointer'):
        bind("k", [("x", "GM_ADDR")], ["ptr:uint8"], (5,))


def test_a_struct_by_value_fits_its_slot_or_is_passed_by_address():
    rec = np.zeros((), dtype=[("a", "<u4"), ("b", "<u4")])
    rec["a"], rec["b"] = 7, 9
    b = bind("k", [("t", "Small")], ["?8"], (rec,))
    assert b.slots == [7 | 9 << 32]
    big = np.arange(6, dtype=np.uint32).tobytes()
    b = bind("k", [("t", "Tiling")], ["?24"], (big,))
    copy = b.keepalive[0]
    assert b.slots == [copy.ctypes.data] and copy.tobytes() == big


def test_a_struct_by_value_of_the_wrong_size_or_kind_is_refused():
    with pytest.raises(SpecError, match=r'"t" is a 24-byte struct passed by value \(Tiling\); got 20 bytes'):
        bind("k", [("t", "Tiling")], ["?24"], (bytes(20),))
    with pytest.raises(SpecError, match="got int. Hint: pass one numpy structured record or 24 bytes"):
        bind("k", [("t", "Tiling")], ["?24"], (3,))
