"""Issue 25 point 2: a cache nobody else can write into. New folders are 0700 and files 0600; nothing is
loaded from a folder or entry another user owns or can write (a CacheError naming the folder and the fix,
and the planted library's constructor never runs); the temporary fallback is a fresh mkdtemp folder, never
a predictable name another user could create first; ASCGEN_CACHE_SHARED=1 is the documented opt-in."""
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ascgen import config
from ascgen.errors import CacheError
from ascgen.runtime import build, core
from ascgen.runtime.build import cache_integrity

SOURCE = build.SourceText('extern "C" int answer() { return 42; }\n', "answer.cpp")
NOBODY = 65534
PLANT = r"""
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE* f = fopen(MARKER, "w");
    if (f) { fputs("the planted constructor ran", f); fclose(f); }
}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("ASCGEN_CACHE_SHARED", raising=False)
    monkeypatch.setattr(cache_integrity, "_fallback", None)
    return folder


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_cache_folders_are_0700_and_files_0600(cache):
    so = build.compile_shared([SOURCE], name="private")
    assert _mode(cache) == 0o700
    key = so.name.split(".", 1)[0]
    for path in (so, so.with_suffix(".json"), cache / f"{key}.lock", cache / f"{key}.deps", cache / "CACHEDIR.TAG"):
        assert _mode(path) == 0o600, (path.name, oct(_mode(path)))


def _plant(folder: Path, marker: Path, entry: Path) -> Path:
    """`folder` as another user left it: mode 0777, owned by nobody, with a library named like the real
    entry `entry` and a manifest that matches it (size and hash)."""
    folder.mkdir(parents=True)
    (folder / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    src = folder / "plant.c"
    src.write_text(f'#define MARKER "{marker}"\n' + PLANT)
    planted = folder / entry.name
    subprocess.run(["gcc", "-shared", "-fPIC", str(src), "-o", str(planted)], check=True)
    src.unlink()
    record = json.loads(entry.with_suffix(".json").read_text())
    record.update(cache_integrity.artifact_record(planted))
    planted.with_suffix(".json").write_text(json.dumps(record))
    deps_list = entry.parent / (entry.name.split(".", 1)[0] + ".deps")   # what the lookup names the module by
    shutil.copyfile(deps_list, folder / deps_list.name)
    for path in (folder, *folder.iterdir()):
        os.chown(path, NOBODY, NOBODY)
        path.chmod(0o777)
    return planted


def _load_core_in_a_new_process(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from ascgen.runtime import core; core.ensure_loaded()"],
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create a folder another uid owns")
def test_a_planted_core_library_in_a_folder_another_user_owns_is_refused(tmp_path):
    real = core.library_path()                  # the suite's cache: the entry name a victim would look up
    marker = tmp_path / "constructor-ran"
    folder = tmp_path / "theirs"
    _plant(folder, marker, real)
    proc = _load_core_in_a_new_process({**os.environ, "ASCGEN_CACHE_DIR": str(folder)})
    assert not marker.exists(), "the planted library was loaded: its constructor ran"
    assert proc.returncode != 0
    assert "CacheError" in proc.stderr and str(folder) in proc.stderr and "ASCGEN_CACHE_DIR" in proc.stderr


def test_a_group_writable_cache_of_my_own_is_refused_unless_shared_on_purpose(cache, monkeypatch):
    so = build.compile_shared([SOURCE], name="team")
    cache.chmod(0o770)
    with pytest.raises(CacheError) as info:
        build.compile_shared([SOURCE], name="team")
    assert str(cache) in str(info.value) and "group" in str(info.value) and "ASCGEN_CACHE_SHARED" in str(info.value)
    monkeypatch.setenv("ASCGEN_CACHE_SHARED", "1")
    assert build.compile_shared([SOURCE], name="team") == so
    cache.chmod(0o777)                          # world-writable: never, shared or not
    with pytest.raises(CacheError, match="every user"):
        build.compile_shared([SOURCE], name="team")


def test_a_shared_cache_gives_new_files_the_users_umask(cache, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_SHARED", "1")
    old = os.umask(0o002)
    try:
        so = build.compile_shared([SOURCE], name="shared")
    finally:
        os.umask(old)
    assert _mode(cache) == 0o775 and _mode(so) == 0o664 and _mode(so.with_suffix(".json")) == 0o664


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create a folder another uid owns")
def test_the_fallback_is_a_fresh_private_folder_never_the_predictable_one(cache, tmp_path, monkeypatch):
    tmp = tmp_path / "tmp"
    predictable = tmp / f"ascgen-cache-{os.getuid()}"
    predictable.mkdir(parents=True)
    os.chown(predictable, NOBODY, NOBODY)
    predictable.chmod(0o777)
    monkeypatch.setattr(cache_integrity.tempfile, "tempdir", str(tmp))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    chosen = cache_integrity.writable_root(blocker / "cache")
    assert chosen != predictable and chosen.parent == tmp
    assert chosen.stat().st_uid == os.geteuid() and _mode(chosen) == 0o700
    assert cache_integrity.writable_root(blocker / "cache") == chosen        # once per process
