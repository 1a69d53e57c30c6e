"""The committed cffi glue (ascgen/runtime/_autogen/core_cffi.py) is what core_api.h generates today."""
from ascgen.runtime import core, core_cffi_build


def test_committed_glue_matches_the_header(tmp_path):
    fresh = core_cffi_build.generate(tmp_path / "glue.py")
    committed = core_cffi_build.MODULE.read_text()
    assert fresh == committed, "run `python -m ascgen.runtime.core_cffi_build` and commit the result"


def test_core_uses_the_fast_glue():
    from ascgen.runtime._autogen import core_cffi as _core_cffi
    assert core._ffi is _core_cffi.ffi
