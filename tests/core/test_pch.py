"""runtime/build/pch.py: a precompiled header per flag set, built once, shared, keyed by the emulated
headers' contents, used by a compile, and owned by the cache as one whole entry."""
import ctypes

import pytest

from ascgen.runtime import build
from ascgen.runtime.build import cache, pch

INCLUDES = ("#include <vector>", "#include <numeric>")
SRC = ('#include <vector>\n#include <numeric>\n'
       'extern "C" int answer() { std::vector<int> v{40, 2}; return std::accumulate(v.begin(), v.end(), 0); }\n')


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ASCGEN_BUILTIN_NO_PCH", raising=False)
    return tmp_path / "cache"


def test_built_once_used_by_a_compile_and_owned_whole_by_the_cache(cache_dir, tmp_path):
    flags = build.build_flags()
    first = pch.include_flags("t", INCLUDES, flags)
    header = first[first.index("-include") + 1]
    gch = cache_dir.glob("pch-t-*/ascgen_pch.h.gch")
    (built,) = list(gch)
    stamp = built.stat().st_mtime_ns
    assert pch.include_flags("t", INCLUDES, flags) == first and built.stat().st_mtime_ns >= stamp
    assert header.endswith("ascgen_pch.h") and "-Winvalid-pch" in first
    src = tmp_path / "a.cpp"
    src.write_text(SRC)
    so = build.compile_shared([src], name="a", extra_flags=first)
    assert ctypes.CDLL(str(so)).answer() == 42
    (entry,) = [e for e in cache.entries(cache_dir) if e.folder.startswith("pch-")]
    assert entry.stem == "" and len(entry.files) == 3       # one whole entry: header, .gch and lock go together


def test_a_changed_emulated_header_or_flag_builds_another(cache_dir, monkeypatch):
    flags = build.build_flags()
    one = pch.include_flags("t", INCLUDES, flags)
    assert pch.include_flags("t", INCLUDES, [*flags, "-DX=1"]) != one
    monkeypatch.setattr(build, "runtime_headers_digest", lambda: "edited")
    assert pch.include_flags("t", INCLUDES, flags) != one
    assert len(list(cache_dir.glob("pch-t-*"))) == 3


def test_the_setting_turns_it_off(cache_dir, monkeypatch):
    monkeypatch.setenv("ASCGEN_BUILTIN_NO_PCH", "1")
    assert pch.include_flags("t", INCLUDES, build.build_flags()) == []
