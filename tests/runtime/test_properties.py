"""Property-based tests (hypothesis): random, mostly bad input to the SK option parser and the launch
argument binder gives a result or a typed error (AscgenError), never another exception. Example counts
are small so the suite stays fast; the derandomized profile keeps CI runs reproducible."""
import math
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascgen.errors import SpecError
from ascgen.runtime.binding import bind
from ascgen.runtime.sk_options import VALID_KEYS, SkOptions, SkOptionWarning

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])

# ---- the SK option string ---------------------------------------------------------------------------

_values = st.one_of(st.sampled_from(["0", "1", "2", "3", "-1", "", " ", "max", "none", "per-func", "1.5",
                                     "²", "١", "99999999999999999999", "0x1", "=", ":"]),
                    st.text(max_size=6))
_entries = st.one_of(
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from(VALID_KEYS), _values),
    st.builds(lambda k, v: f"{k}={v}", st.text(max_size=8), _values),
    st.text(max_size=12),
)
_option_text = st.one_of(st.none(), st.lists(_entries, max_size=6).map(":".join), st.text(max_size=40),
                         st.integers(), st.binary(max_size=8))


@FAST
@given(_option_text)
def test_sk_option_parser_gives_options_or_spec_error(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkOptionWarning)
        try:
            opts = SkOptions.parse(text)
        except SpecError:
            return
    assert isinstance(opts, SkOptions)
    assert opts.early_start in (0, 1, 2)
    assert opts.debug_aic_num >= 0 and opts.debug_aiv_num >= 0


@FAST
@given(st.sampled_from(["debug-aic-num", "debug-aiv-num", "split-mode"]),
       st.text(alphabet=st.characters(categories=["Nd", "No"]), min_size=1, max_size=4))
def test_unicode_digits_are_refused_not_crashing(key, value):
    try:
        SkOptions.parse(f"{key}={value}")
    except SpecError:
        pass


# ---- the launch argument binder -----------------------------------------------------------------------

_KINDS = ["ptr:uint8", "ptr:float32", "ptr:float16", "ptr:int32", "ptr:void", "ptr:?struct", "uint8", "int8",
          "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32", "float64", "float16", "bfloat16",
          "bool", "struct Foo"]

_arrays = st.one_of(
    st.builds(lambda n, dt: np.zeros(n, dtype=dt), st.integers(0, 8),
              st.sampled_from(["float32", "float16", "int32", "uint8", "int64", "bool", "complex64"])),
    st.builds(lambda n: np.zeros((n, 2), np.float32)[:, 0], st.integers(2, 5)),         # not contiguous
    st.builds(lambda n: np.frombuffer(bytes(4 * n), np.float32), st.integers(0, 4)),    # read-only
    st.just(np.zeros(3, dtype=[("a", "<i4"), ("b", "<f4")])),
    st.just(np.array(1.5, dtype=np.float32)),
)
_values_any = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4), st.binary(max_size=8), st.builds(bytearray, st.binary(max_size=4)),
    st.sampled_from([np.float32(1.5), np.int8(-3), np.uint64(2 ** 63), np.float16(65504), np.bool_(True),
                     math.pi, complex(1, 2), object(), [1, 2], {"a": 1}]),
    _arrays,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_KINDS), max_size=5), st.lists(_values_any, max_size=6), st.lists(
    st.tuples(st.sampled_from(["p0", "p1", "p2"]), st.sampled_from(["float", "half", "int32_t", "Foo"])),
    max_size=2))
def test_binder_gives_slots_or_spec_error(kinds, values, casts):
    params = [(f"p{i}", k) for i, k in enumerate(kinds)]
    gm_casts = tuple((p, t, "k.cpp", 1) for p, t in casts)
    try:
        bound = bind("k", params, kinds, tuple(values), gm_casts)
    except SpecError:
        return
    assert len(bound.slots) == len(kinds)
    assert all(isinstance(s, int) and 0 <= s < 2 ** 64 for s in bound.slots)
    for _, original, copy in bound.readonly:          # a read-only array is never what the kernel gets
        assert not original.flags.writeable and copy.flags.writeable
        assert copy.ctypes.data in bound.slots

