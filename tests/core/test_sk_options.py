"""SK option strings: parsed like the SK compiler (unknown/duplicate keys are errors naming the key and
listing the valid ones, an entry without '=' is a warning and ignored) into a frozen SkOptions."""
import dataclasses
import warnings

import pytest

from ascgen import products
from ascgen.errors import SpecError
from ascgen.runtime.sk_options import VALID_KEYS, SkOptions, SkOptionWarning

A3 = products.get("ascend910_93")


def test_defaults_are_early_start_on():
    o = SkOptions.parse("", A3)
    assert (o.early_start, o.feed_sync_all, o.debug_sync_all, o.stream_fusion) == (1, False, False, False)
    assert o.effective_early_start == 1 and o.effective


def test_every_option_with_an_effect():
    o = SkOptions.parse("early-start=2:feed-sync-all=1:debug-sync-all=1:debug-aic-num=4:debug-aiv-num=8", A3)
    assert (o.early_start, o.feed_sync_all, o.debug_sync_all, o.debug_aic_num, o.debug_aiv_num) == (2, True, True, 4, 8)


def test_stream_fusion_forces_early_start_off():
    o = SkOptions.parse("early-start=1:stream-fusion=1", A3)
    assert o.early_start == 1 and o.effective_early_start == 0


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        SkOptions.parse("", A3).early_start = 0


def test_unknown_key_names_it_suggests_and_lists_valid_keys():
    with pytest.raises(SpecError) as err:
        SkOptions.parse("early-start=1:feed-syncall=1", A3)
    msg = str(err.value)
    assert "'feed-syncall'" in msg and "Did you mean 'feed-sync-all'" in msg
    assert all(k in msg for k in VALID_KEYS)


def test_duplicate_key_is_an_error():
    with pytest.raises(SpecError, match="'early-start' is given twice"):
        SkOptions.parse("early-start=1:early-start=0", A3)


def test_entry_without_equals_warns_and_is_ignored():
    with pytest.warns(SkOptionWarning, match="'debug-sync-all' has no '='"):
        o = SkOptions.parse("debug-sync-all:early-start=0", A3)
    assert o.early_start == 0 and not o.debug_sync_all and len(o.warnings) == 1


@pytest.mark.parametrize("text,match", [("early-start=3", "one of 0, 1, 2"), ("feed-sync-all=yes", "one of 0, 1"),
                                        ("debug-aic-num=x", "non-negative integer"), ("early-start=", "empty value"),
                                        ("debug-aic-num=3:debug-aiv-num=4", "ratio")])
def test_bad_values(text, match):
    with pytest.raises(SpecError, match=match):
        SkOptions.parse(text, A3)


def test_options_without_effect_are_accepted_and_kept():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        o = SkOptions.parse('"split-mode=4:func-align=64:preload-code=max:profiling=1:debug-dcci-all=0:'
                            'compile-options=-O2:dcci-before-kernel-start=a,b:strict-scope-check=1"', A3)
    assert dict(o.ignored)["split-mode"] == "4" and o.effective_early_start == 1


def test_compile_only_products_are_not_effective_unless_asked():
    b = products.get("ascend910b")
    assert not SkOptions.parse("", b).effective and SkOptions.parse("", b).effective_early_start == 0
    assert SkOptions.parse("", b, treat_as_effective=True).effective


def test_non_string_is_an_error():
    with pytest.raises(SpecError, match="must be a string"):
        SkOptions.parse(1, A3)
