"""Issue 25 points 1 and 2 (the cache lifecycle): the cache owns only what it writes. A folder of the user's
given as ASCGEN_CACHE_DIR is never written into nor emptied; `clear` and eviction remove only ascgen's names,
never follow a link out, never evict a module a live process has loaded; files a killed build left, at any
depth, are counted and then removed; a compiler dies with the process that started it.

Each case runs on throwaway folders and tiny C++ sources (a small compile per build)."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ascgen import config
from ascgen.cli import main
from ascgen.runtime import build, core, module
from ascgen.runtime.build import cache, cache_integrity


def _build(name: str) -> Path:
    return build.compile_shared([build.SourceText(f'extern "C" int {name}() {{ return 7; }}\n', f"{name}.cpp")],
                                name=name)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A folder like $HOME: a user's files, no CACHEDIR.TAG."""
    folder = tmp_path / "home"
    (folder / "Documents").mkdir(parents=True)
    (folder / "Documents" / "thesis.tex").write_text("years of work")
    (folder / ".ssh").mkdir()
    (folder / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----")
    (folder / "notes.md").write_text("notes")
    (folder / "Pictures" / "2024").mkdir(parents=True)
    (folder / "Pictures" / "2024" / "photo.jpg").write_bytes(b"\xff" * (2 << 20))      # 2 MB at depth 2
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("ASCGEN_CACHE_LIMIT", raising=False)
    return folder


def _users_files(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "ascgen" not in p.relative_to(folder).parts}


def test_a_home_folder_survives_a_build_and_clear_and_the_cache_goes_to_its_own_subfolder(home, capsys):
    before = _users_files(home)
    so = _build("homely")
    assert so.parent == home / "ascgen" and (home / "ascgen" / cache.TAG).is_file()
    assert not (home / cache.TAG).exists()
    assert "holds other files" in capsys.readouterr().err
    assert main(["cache", "clear"]) == 0
    assert _users_files(home) == before
    assert not so.exists()


def test_a_photo_at_depth_2_survives_eviction_in_a_home_folder_and_inside_the_cache(home, tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1M")
    _build("first")
    assert (home / "Pictures" / "2024" / "photo.jpg").stat().st_size == 2 << 20
    # A user's file put inside a real (tagged) cache is not ascgen's either.
    tagged = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tagged))
    _build("second")
    (tagged / "Pictures" / "2024").mkdir(parents=True)
    (tagged / "Pictures" / "2024" / "photo.jpg").write_bytes(b"\xff" * (2 << 20))
    (tagged / "report.so").write_bytes(b"\x7fELF" * 1000)          # an .so not named like an entry
    _build("third")
    assert (tagged / "Pictures" / "2024" / "photo.jpg").stat().st_size == 2 << 20
    assert (tagged / "report.so").exists()
    assert main(["cache", "clear"]) == 0
    assert (tagged / "Pictures" / "2024" / "photo.jpg").exists() and (tagged / "report.so").exists()


def test_eviction_and_clear_never_follow_a_link_out_of_the_cache(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "big.bin").write_bytes(b"x" * (2 << 20))
    (outside / "abcd-0123456789abcdef01234567.so").write_bytes(b"x" * 1000)
    root = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(root))
    _build("linked")
    (root / "host").symlink_to(outside, target_is_directory=True)         # an owned name, as a link
    (root / "devkit-pch-x").symlink_to(outside, target_is_directory=True)
    (root / "analysis").mkdir()
    (root / "analysis" / "escape").symlink_to(outside / "sub", target_is_directory=True)
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1")
    _build("again")
    assert main(["cache", "clear"]) == 0
    assert (outside / "sub" / "big.bin").stat().st_size == 2 << 20
    assert (outside / "abcd-0123456789abcdef01234567.so").exists()


def test_a_module_loaded_in_this_process_is_not_evicted(tmp_path, monkeypatch):
    core.ensure_loaded()                        # from the suite's cache; then a cache of this test's own
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    loaded = _build("loaded")
    module._dlopen(loaded)
    monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1")
    _build("next")
    assert loaded.exists(), "a loaded module was evicted: its next devkit copy or isolated launch fails"
    not_loaded = _build("other")
    _build("newest")
    assert not not_loaded.exists()              # eviction still works for what nobody loaded


PINNER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from ascgen.runtime.build import cache
    cache.pin(Path(sys.argv[1]))
    print("pinned", flush=True)
    sys.stdin.read()
""")


def test_a_module_another_live_process_loaded_is_pinned_until_it_exits(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    theirs = _build("theirs")
    other = subprocess.Popen([sys.executable, "-c", PINNER, str(theirs)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert other.stdout.readline().strip() == "pinned"
        monkeypatch.setenv("ASCGEN_CACHE_LIMIT", "1")
        _build("mine")
        assert theirs.exists()
    finally:
        other.communicate("", timeout=30)
    _build("after")                             # the other process is gone: its pin file goes, so does the entry
    assert not theirs.exists()
    assert not list((tmp_path / "cache" / cache.PINS).glob(f"*-{other.pid}"))


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_an_orphaned_precompiled_header_is_counted_then_removed(tmp_path, monkeypatch, capsys):
    """kill -9 during the devkit precompiled-header build left `.kernel_operator.h.<pid>.gch` (219 MB in the
    issue) deep in a devkit folder: `cache info` counts it, the next build removes it; a live writer's stays."""
    root = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(root))
    _build("seed")
    pch = root / "devkit-pch-dav-2201-abc"
    pch.mkdir()
    orphan = pch / f".kernel_operator.h.{_dead_pid()}.gch"
    orphan.write_bytes(b"p" * (3 << 20))
    deep = root / "devkit-tiling-x" / "lib" / f".lib.{_dead_pid()}"
    deep.mkdir(parents=True)
    (deep / "a.h").write_text("x")
    live = pch / f".kernel_operator.h.{os.getpid()}.gch"          # being written by a live process
    live.write_bytes(b"p")
    quiet = time.time() - 120                                    # past cache_integrity.QUIET_S
    for p in (orphan, deep, live):
        os.utime(p, (quiet, quiet))
    capsys.readouterr()
    assert main(["cache", "info", "--format", "json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert sorted(facts["orphans"]) == sorted([str(orphan), str(deep)])
    assert facts["orphans_bytes"] >= 3 << 20 and facts["size_bytes"] >= 3 << 20
    _build("next")
    assert not orphan.exists() and not deep.exists() and live.exists()


def test_a_build_walks_the_cache_s_top_levels_and_every_depth_once_an_hour(tmp_path, monkeypatch, capsys):
    """A full walk of a cache holding operator-repository UT trees lists ~90,000 names (over a second, on
    every compile before). A build now removes orphans in the top two levels of folders at once, and one
    deeper inside a tree at the first build after the hourly full sweep is due; `cache clear` walks it all."""
    root = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(root))
    _build("first")                                                # a full sweep: stamps its time
    quiet = time.time() - 120
    near = root / "devkit-tiling-x" / "lib" / f".lib.{_dead_pid()}"
    far = root / "ut-tree" / "ops-nn" / "norm" / "op_kernel" / f".kernel.cpp.{_dead_pid()}.tmp"
    for path in (near, far):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half written")
        os.utime(path, (quiet, quiet))
    _build("second")
    assert not near.exists() and far.exists()
    stamp = root / cache_integrity.SWEEP_STAMP
    old = time.time() - cache_integrity.SWEEP_EVERY_S - 10
    os.utime(stamp, (old, old))
    _build("third")
    assert not far.exists() and stamp.stat().st_mtime > old
    capsys.readouterr()
    assert main(["cache", "info", "--format", "json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["orphans"] == [] and facts["in_progress"] == []   # the stamp is neither an orphan nor a build


FAKE_CXX = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "fake c++ 1.0"; exit 0; fi
echo $$ > "{pidfile}"
exec sleep 300
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"     # a zombie is dead
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_compiler_dies_with_the_process_that_started_it(tmp_path):
    pidfile = tmp_path / "compiler.pid"
    fake = tmp_path / "fake-c++"
    fake.write_text(FAKE_CXX.format(pidfile=pidfile))
    fake.chmod(0o755)
    env = {**os.environ, "ASCGEN_CACHE_DIR": str(tmp_path / "cache"), "ASCGEN_CXX": str(fake)}
    script = ("from ascgen.runtime import build\n"
              "build.compile_shared([build.SourceText('int x;', 'x.cpp')], name='slow')\n")
    parent = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.monotonic() + 60
    while not (pidfile.is_file() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    compiler = int(pidfile.read_text())
    try:
        assert _alive(compiler)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while _alive(compiler) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(compiler), "the compiler outlived the killed process that started it"
    finally:
        if _alive(compiler):
            os.kill(compiler, signal.SIGKILL)


def test_cache_info_hides_locks_and_says_default(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("ASCGEN_CACHE_DIR")
    _build("listed")
    assert config.cache_dir() == tmp_path / ".cache" / "ascgen"
    capsys.readouterr()
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert "(default)" in out and "(ASCGEN_CACHE_DIR)" not in out
    assert ".lock" not in out and "listed-" in out
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / ".cache" / "ascgen"))
    assert main(["cache", "info", "--format", "json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["location_from"] == "ASCGEN_CACHE_DIR"
    assert [e["name"] for e in facts["entries"] if e["name"].startswith("listed-")]
    assert not [e for e in facts["entries"] if e["name"].endswith(".lock")]
