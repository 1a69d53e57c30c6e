"""Issue 9 class 1: a damaged cache entry is rebuilt, never loaded; a killed build leaves no folder for good;
an unwritable cache gives a temporary one with a warning, or a CacheError naming the folder and setting.

Each test uses a fresh cache folder and a tiny C++ source, so the cost is one small compile per build."""
import ctypes
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from ascgen import config
from ascgen.errors import CacheError
from ascgen.runtime import build
from ascgen.runtime.build import cache_integrity

SOURCE = build.SourceText('extern "C" int answer() { return 42; }\n', "answer.cpp")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache_integrity, "_fallback", None)
    return folder


def claimed(folder):
    """The folder created and tagged as ascgen's cache (files a test plants below it stay in it)."""
    assert config.cache_dir() == folder
    return folder


def built(name="answer"):
    return build.compile_shared([SOURCE], name=name)


def answer(so_path) -> int:
    return ctypes.CDLL(str(so_path)).answer()


def test_manifest_records_size_and_hash(cache):
    so = built()
    record = json.loads(so.with_suffix(".json").read_text())
    assert record["so_size"] == so.stat().st_size
    assert record["so_sha256"] == cache_integrity._sha256(so)


@pytest.mark.parametrize("damage", ["truncate", "empty", "random", "flip"])
def test_damaged_so_is_rebuilt_not_loaded(cache, damage, capsys):
    so = built()
    data = so.read_bytes()
    so.write_bytes({"truncate": data[: len(data) // 2], "empty": b"", "random": os.urandom(len(data)),
                    "flip": data[:100] + bytes([data[100] ^ 0xFF]) + data[101:]}[damage])
    cache_integrity._verified.clear()          # a new process would not remember the old stamp
    again = built()
    assert again == so and cache_integrity.problem(again, again.with_suffix(".json")) is None
    assert "damaged" in capsys.readouterr().err
    assert answer(again) == 42


def test_truncated_core_library_does_not_kill_a_new_process(cache):
    """The SIGBUS case, end to end, in a child process: truncate the cached .so and load it again."""
    so = built("corelike")
    so.write_bytes(so.read_bytes()[:4096])
    script = textwrap.dedent(f"""
        import ctypes
        from ascgen.runtime import build
        so = build.compile_shared([build.SourceText({SOURCE.text!r}, "answer.cpp")], name="corelike")
        print(ctypes.CDLL(str(so)).answer())
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "ASCGEN_CACHE_DIR": str(cache)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "42"
    assert "damaged" in proc.stderr


def test_manifest_without_hash_is_rebuilt(cache):
    so = built()
    manifest = so.with_suffix(".json")
    record = json.loads(manifest.read_text())
    del record["so_sha256"]
    manifest.write_text(json.dumps(record))
    assert cache_integrity.problem(so, manifest) is not None
    built()
    assert cache_integrity.problem(so, manifest) is None


def test_build_folder_of_a_killed_compiler_is_removed(cache):
    claimed(cache)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    prefix = cache_integrity.build_folder_prefix("victim").replace(f"-{os.getpid()}-", f"-{dead.pid}-")
    orphan = cache / (prefix + "abc123")
    orphan.mkdir()
    (orphan / "obj0.o").write_bytes(b"half an object")
    alive = cache / (cache_integrity.build_folder_prefix("alive") + "xyz")     # ours: still building
    alive.mkdir()
    old_tmp = cache / ".answer.so.abcd.tmp"
    old_tmp.write_bytes(b"x")
    past = time.time() - cache_integrity.STALE_AFTER_S - 10
    os.utime(old_tmp, (past, past))
    built()                       # any build cleans up
    assert not orphan.exists() and not old_tmp.exists()
    assert alive.exists()


def test_sigkilled_compile_leaves_nothing_behind_after_the_next_build(cache):
    """Kill a real build with SIGKILL while the compiler runs; the next build removes its folder."""
    script = textwrap.dedent("""
        from ascgen.runtime import build
        src = "#include <vector>\\n#include <map>\\n#include <regex>\\n" + "".join(
            f"int f{i}() {{ std::regex r(\\"a{i}\\"); return std::regex_match(\\"a\\", r); }}\\n" for i in range(40))
        build.compile_shared([build.SourceText(src, "slow.cpp")], name="slow")
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "ASCGEN_CACHE_DIR": str(cache)})
    deadline = time.monotonic() + 120
    while not list(cache.glob(".build-slow-*")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert list(cache.glob(".build-slow-*")), "the build folder never appeared"
    proc.kill()
    proc.wait()
    assert list(cache.glob(".build-slow-*")), "SIGKILL cannot clean up: the folder must still be there"
    built()
    assert not list(cache.glob(".build-slow-*"))


def test_read_only_cache_falls_back_to_a_temporary_one_with_a_warning(cache, tmp_path, monkeypatch, capsys):
    if os.geteuid() == 0:
        # root writes through permission bits: make the cache a file's child instead (ENOTDIR).
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("")
        monkeypatch.setenv("ASCGEN_CACHE_DIR", str(blocker / "cache"))
    else:
        cache.mkdir(parents=True)
        cache.chmod(0o500)
    fallback = tmp_path / "fallback"
    fallback.mkdir()
    monkeypatch.setattr(cache_integrity.tempfile, "gettempdir", lambda: str(fallback))
    so = built()
    assert str(so).startswith(str(fallback))
    err = capsys.readouterr().err
    assert "cannot be written" in err and "ASCGEN_CACHE_DIR" in err
    assert answer(so) == 42


def test_no_writable_cache_is_a_cache_error_naming_folder_and_setting(cache, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(cache_integrity.tempfile, "gettempdir", lambda: str(blocker))
    with pytest.raises(CacheError) as info:
        built()
    assert str(blocker / "cache") in str(info.value) and "ASCGEN_CACHE_DIR" in str(info.value)


def test_read_only_cache_still_serves_its_entries(cache, tmp_path, monkeypatch):
    so = built()
    # Entries found in the configured folder are used even when it cannot take new files.
    monkeypatch.setattr(cache_integrity, "_writable", lambda folder: "read-only file system")
    monkeypatch.setattr(cache_integrity.tempfile, "gettempdir", lambda: str(tmp_path / "unused"))
    assert built() == so
    assert not (tmp_path / "unused").exists()
