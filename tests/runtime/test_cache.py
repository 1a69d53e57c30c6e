"""The cache you can see and manage: `ascgen cache info|clear`, the size cap with least-recently-used
eviction, and clear of a folder that is not an ascgen cache touching none of its files."""
import os
import time

import pytest

from ascgen import config
from ascgen.cli import main
from ascgen.errors import SpecError
from ascgen.runtime import build
from ascgen.runtime.build import cache


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("ASCGEN_CACHE_LIMIT", raising=False)      # the default cap (conftest raises the suite's)
    assert config.cache_dir() == folder         # created and tagged: ascgen's (files made below stay in it)
    return folder


def _build(name: str) -> os.PathLike:
    return build.compile_shared([build.SourceText(f'extern "C" int {name}() {{ return 1; }}\n', f"{name}.cpp")],
                                name=name)


def _age(path, seconds):
    """Pretend every file of path's entry was last used `seconds` ago."""
    stem = path.name.split(".")[0]
    for f in path.parent.glob(stem + ".*"):
        t = time.time() - seconds
        os.utime(f, (t, t))


def test_info_shows_location_size_and_entries(own_cache, capsys):
    _build("alpha")
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert str(own_cache) in out and "alpha-" in out and "cap 1.0 GiB" in out


def test_first_compile_prints_one_line_on_stderr_without_a_terminal(own_cache, capsys):
    _build("beta")
    assert capsys.readouterr().err.count("compiling beta...") == 1
    _build("beta")                      # cached: nothing to say
    assert "compiling" not in capsys.readouterr().err


def test_the_cap_evicts_least_recently_used_entries_and_keeps_the_new_one(own_cache, monkeypatch):
    old, used = _build("old"), _build("used")
    _age(old, 300)
    _age(used, 200)
    _build("used")                      # a hit: `used` becomes the most recently used
    one_entry = max(e.size for e in cache.entries())
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", str(2 * one_entry + one_entry // 2))
    fresh = _build("fresh")
    names = {e.stem.split("-")[0] for e in cache.entries()} - {"compilers"}   # the compiler-identity memo
    assert names == {"used", "fresh"}, names
    assert fresh.exists() and not old.exists()


def test_a_cap_smaller_than_one_entry_still_keeps_the_entry_just_built(own_cache, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1")
    path = _build("only")
    assert path.exists()


@pytest.mark.parametrize("raw, value", [("500M", 500 << 20), ("2GiB", 2 << 30), ("1073741824", 1 << 30),
                                        ("0", 0), ("1.5k", 1536)])
def test_cache_limit_spellings(monkeypatch, raw, value):
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", raw)
    assert config.cache_limit() == value


@pytest.mark.parametrize("raw", ["lots", "-5M", "5 parsecs", "nan"])
def test_a_bad_cache_limit_is_a_typed_error_naming_the_setting(monkeypatch, raw):
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", raw)
    with pytest.raises(SpecError, match="ASCGEN_CACHE_LIMIT"):
        config.cache_limit()


def test_clear_empties_the_cache(own_cache, capsys):
    _build("gamma")
    assert main(["cache", "clear"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    assert cache.entries() == [] and (own_cache / cache.TAG).is_file()


def test_clear_of_a_folder_that_is_not_an_ascgen_cache_leaves_its_files(tmp_path, monkeypatch, capsys):
    precious = tmp_path / "home"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(precious))
    assert main(["cache", "clear"]) == 0
    assert f"from {precious / 'ascgen'}" in capsys.readouterr().out      # its own subfolder (test_cache_ownership)
    assert sorted(p.name for p in precious.iterdir()) == ["ascgen", "thesis.tex"]
    assert (precious / "thesis.tex").read_text() == "years of work"


def test_a_devkit_folder_is_evicted_whole_or_not_at_all(own_cache, monkeypatch):
    """A precompiled header without its header, or half of the tiling folder's header links, would break the
    next build: such folders are one entry, and a use of one file keeps the whole folder."""
    tiling = own_cache / "devkit-tiling-abc"
    for rel in ("kernel_tiling/kernel_tiling.h", "lib/matmul_intf.h", "lib/matmul/tiling.h"):
        (tiling / rel).parent.mkdir(parents=True, exist_ok=True)
        (tiling / rel).write_text("x" * 1000)
    old = time.time() - 600
    for f in tiling.rglob("*.h"):
        os.utime(f, (old, old))
    (entry,) = [e for e in cache.entries() if e.folder == "devkit-tiling-abc"]
    assert entry.stem == "" and len(entry.files) == 3 and entry.name == "devkit-tiling-abc"
    _age(_build("newer"), 300)
    cache.touch(tiling / "kernel_tiling" / "kernel_tiling.h")       # a use of the folder
    assert cache.entries()[-1].folder == "devkit-tiling-abc"        # now the most recently used
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1")
    _build("last")
    assert not any(tiling.rglob("*.h"))                             # evicted whole


def test_an_operators_host_tiling_folder_is_owned_and_one_entry(own_cache):
    """ascgen/ops' runner folder and its build lock are ascgen's names; the folder is one entry (evicted
    whole) and clear removes it (a build lock stays, as the devkit backend's do)."""
    runner = own_cache / "ops-host-add_rms_norm-ascend910b-0123456789abcdef"
    runner.mkdir()
    (runner / "tiling_runner").write_text("x" * 100)
    lock = own_cache / "ops-host-add_rms_norm-ascend910b-0123456789abcdef.lock"
    lock.write_text("")
    assert cache.owned(lock) and cache.owned(runner)
    (entry,) = [e for e in cache.entries() if e.folder == runner.name]
    assert entry.stem == "" and [f.name for f in entry.files] == ["tiling_runner"]
    assert main(["cache", "clear"]) == 0
    assert not runner.exists()


def test_listing_skips_another_processs_build_in_progress_and_what_vanishes(own_cache, monkeypatch):
    """Another process builds into a dot-named folder inside a devkit folder and renames it when done; the
    listing that eviction runs must neither count it nor fail when it disappears mid-walk (a CI failure:
    FileNotFoundError on devkit-tiling-*/.lib.N/activation)."""
    tiling = own_cache / "devkit-tiling-abc"
    (tiling / "lib").mkdir(parents=True)
    (tiling / "lib" / "matmul_intf.h").write_text("x")
    (tiling / ".lib.123" / "activation").mkdir(parents=True)
    (tiling / ".lib.123" / "activation" / "half.h").write_text("x")
    (entry,) = [e for e in cache.entries() if e.folder == "devkit-tiling-abc"]
    assert [f.name for f in entry.files] == ["matmul_intf.h"]
    real_lstat = os.lstat
    gone = tiling / "lib" / "matmul_intf.h"
    # A file removed between the walk and its stat: skipped, not an error.
    monkeypatch.setattr(cache.Path, "lstat", lambda self: (_ for _ in ()).throw(FileNotFoundError(self))
                        if self == gone else real_lstat(self))
    assert not [e for e in cache.entries() if e.folder == "devkit-tiling-abc"]
