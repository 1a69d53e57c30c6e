"""build.py: compiler discovery, content-keyed cache, diagnostics against the user's file, and
concurrent builders of one entry (several processes at once never see a half-written .so)."""
import ctypes
import multiprocessing as mp
import os
from pathlib import Path

import pytest

from ascgen.errors import CompileError
from ascgen.runtime import build
from ascgen.runtime.build import cache_integrity

SRC = 'extern "C" int answer() { return %d; }\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _call_answer(so: Path) -> int:
    return ctypes.CDLL(str(so)).answer()


def test_builds_loads_and_reuses_the_entry(cache, tmp_path):
    src = tmp_path / "a.cpp"
    src.write_text(SRC % 41)
    so = build.compile_shared([src], name="a")
    assert so.parent == cache and so.suffix == ".so" and _call_answer(so) == 41
    stamp = so.stat().st_mtime_ns
    assert build.compile_shared([src], name="a") == so
    assert so.stat().st_mtime_ns == stamp            # a hit does not rebuild
    assert so.with_suffix(".json").is_file()          # manifest written


def test_key_changes_with_source_flags_and_local_header(cache, tmp_path):
    src = tmp_path / "a.cpp"
    hdr = tmp_path / "tiling.h"
    hdr.write_text("#define V 1\n")
    src.write_text('#include "tiling.h"\nextern "C" int answer() { return V; }\n')
    first = build.compile_shared([src], name="a")
    assert build.compile_shared([src], name="a", defines={"X": 1}) != first
    hdr.write_text("#define V 2\n")
    second = build.compile_shared([src], name="a")
    assert second != first and _call_answer(second) == 2


def test_an_edited_header_anywhere_the_build_read_rebuilds(cache, tmp_path):
    # The key once digested only the headers beside the source: an edit of inc/v.h or ../common/w.h
    # loaded the old module and its old answer. The compiler's own list of what it read decides now.
    src = tmp_path / "k" / "a.cpp"
    (tmp_path / "k" / "inc").mkdir(parents=True)
    (tmp_path / "common").mkdir()
    sub, parent = tmp_path / "k" / "inc" / "v.h", tmp_path / "common" / "w.h"
    sub.write_text("#define V 1\n")
    parent.write_text("#define W 10\n")
    src.write_text('#include "inc/v.h"\n#include "../common/w.h"\nextern "C" int answer() { return V + W; }\n')
    first = build.compile_shared([src], name="a")
    assert _call_answer(first) == 11
    sub.write_text("#define V 2\n")
    second = build.compile_shared([src], name="a")
    assert second != first and _call_answer(second) == 12
    parent.write_text("#define W 20\n")
    third = build.compile_shared([src], name="a")
    assert third not in (first, second) and _call_answer(third) == 22
    stamp = third.stat().st_mtime_ns
    assert build.compile_shared([src], name="a") == third and third.stat().st_mtime_ns == stamp


def test_compile_error_names_the_users_file_and_line(cache, tmp_path):
    src = tmp_path / "broken_kernel.cpp"
    src.write_text("int ok;\n\nint f() { return undefined_name; }\n")
    with pytest.raises(CompileError) as err:
        build.compile_shared([src], name="broken")
    assert f"{src}:3:" in str(err.value)
    assert "undefined_name" in str(err.value)


def test_source_text_diagnostics_use_the_given_path(cache):
    with pytest.raises(CompileError) as err:
        build.compile_shared([build.SourceText("int x = ;\n", "gen/scale.cpp")], name="gen")
    assert "gen/scale.cpp:1:" in str(err.value)


def test_diagnostics_are_truncated(cache):
    text = "".join(f"int f{i}() {{ return nope{i}; }}\n" for i in range(80))
    with pytest.raises(CompileError) as err:
        build.compile_shared([build.SourceText(text, "many.cpp")], name="many")
    assert "more lines" in str(err.value)
    assert len(str(err.value).splitlines()) <= build.DIAGNOSTIC_LINES + 3


def test_diagnostics_show_the_first_error_after_many_warnings(cache):
    # A template error comes after a long instantiation chain; the message must still contain the error.
    text = "".join(f"#warning w{i}\n" for i in range(60)) + "int y = ;\n"
    with pytest.raises(CompileError) as err:
        build.compile_shared([build.SourceText(text, "late.cpp")], name="late")
    msg = str(err.value)
    assert "late.cpp:61:" in msg and "error:" in msg and "before the first error not shown" in msg, msg
    assert len(msg.splitlines()) <= build.DIAGNOSTIC_LINES + 3


def test_missing_compiler_is_a_clear_error(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("ASCGEN_CXX", "no-such-compiler-xyz")
    with pytest.raises(CompileError, match="ASCGEN_CXX"):
        build.compile_shared([build.SourceText(SRC % 1, "a.cpp")], name="a")


def test_no_compiler_on_path(cache, monkeypatch):
    monkeypatch.delenv("ASCGEN_CXX", raising=False)
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(CompileError, match="install"):
        build.find_compiler()


def _build_in_child(args):
    cache_dir, src, value = args
    os.environ["ASCGEN_CACHE_DIR"] = cache_dir
    so = build.compile_shared([Path(src)], name="race")
    return str(so), ctypes.CDLL(str(so)).answer() == value


def test_concurrent_processes_build_one_entry(cache, tmp_path):
    src = tmp_path / "race.cpp"
    src.write_text(SRC % 7)
    ctx = mp.get_context("spawn")
    with ctx.Pool(4) as pool:
        results = pool.map(_build_in_child, [(str(cache), str(src), 7)] * 4)
    paths = {p for p, _ in results}
    assert len(paths) == 1 and all(ok for _, ok in results)
    leftovers = [p.name for p in cache.iterdir() if p.name.startswith(".") and p.name != cache_integrity.SWEEP_STAMP]
    assert leftovers == []                               # no temp files or build folders left behind


def test_concurrent_builders_without_the_lock(cache, tmp_path, monkeypatch):
    """Correctness must not depend on the advisory lock: with it disabled every builder compiles and
    renames into place; each still ends with a loadable, complete entry."""
    src = tmp_path / "race2.cpp"
    src.write_text(SRC % 9)
    ctx = mp.get_context("fork")
    monkeypatch.setattr(build._lock, "__enter__", lambda self: self)
    monkeypatch.setattr(build._lock, "__exit__", lambda self, *a: None)
    with ctx.Pool(3) as pool:
        results = pool.map(_build_in_child, [(str(cache), str(src), 9)] * 3)
    assert len({p for p, _ in results}) == 1 and all(ok for _, ok in results)


def test_debug_builds_use_their_own_flags_and_entry(cache, tmp_path, monkeypatch):
    src = tmp_path / "a.cpp"
    src.write_text(SRC % 3)
    release = build.compile_shared([src], name="a")
    monkeypatch.setenv("ASCGEN_DEBUG", "1")
    assert build.optimisation_flags() == ("-O0", "-g")
    debug = build.compile_shared([src], name="a")
    assert debug != release and _call_answer(debug) == 3
    assert "-O0" in (debug.with_suffix(".json")).read_text()


def test_asc_sources_compile_as_cxx(cache, tmp_path):
    src = tmp_path / "kernel.asc"
    src.write_text(SRC % 5)
    assert _call_answer(build.compile_shared([src], name="asc")) == 5


def test_several_sources_compile_in_parallel_and_link(cache, tmp_path):
    a, b = tmp_path / "a.cpp", tmp_path / "b.cpp"
    a.write_text('int helper();\nextern "C" int answer() { return helper() + 1; }\n')
    b.write_text("int helper() { return 41; }\n")
    assert _call_answer(build.compile_shared([a, b], name="two")) == 42


def test_an_error_in_one_of_several_sources_names_that_file(cache, tmp_path):
    a, b = tmp_path / "good.cpp", tmp_path / "bad.cpp"
    a.write_text("int ok() { return 1; }\n")
    b.write_text("int bad() { return missing_symbol; }\n")
    with pytest.raises(CompileError) as err:
        build.compile_shared([a, b], name="two")
    assert f"{b}:1:" in str(err.value) and "missing_symbol" in str(err.value)


def _relocatable_kernel(folder: Path, w: int) -> Path:
    (folder / "k" / "inc").mkdir(parents=True)
    (folder / "common").mkdir()
    (folder / "k" / "inc" / "v.h").write_text("#define V 1\n")
    (folder / "common" / "w.h").write_text(f"#define W {w}\n")
    src = folder / "k" / "a.cpp"
    src.write_text('#include "inc/v.h"\n#include "../common/w.h"\nextern "C" int answer() { return V + W; }\n'
                   'extern "C" const char* file() { return __FILE__; }\n')
    return src


def test_the_same_sources_in_two_folders_build_once_and_each_reads_its_own_headers(cache, tmp_path):
    # The key once held the source's absolute path: a second checkout or a CI clone compiled everything again.
    a, b = _relocatable_kernel(tmp_path / "a", 10), _relocatable_kernel(tmp_path / "b", 10)
    first = build.compile_shared([a], include_dirs=[a.parent], name="a", source_root=a.parent)
    assert build.compile_shared([b], include_dirs=[b.parent], name="a", source_root=b.parent) == first
    lib = ctypes.CDLL(str(first))
    lib.file.restype = ctypes.c_char_p
    assert lib.file() == f"{build.relocate.TOKEN}/a.cpp".encode()     # no folder inside the module
    # A header outside the source's folder that differs in the other copy (../common/w.h) is that copy's.
    (tmp_path / "b" / "common" / "w.h").write_text("#define W 20\n")
    second = build.compile_shared([b], include_dirs=[b.parent], name="a", source_root=b.parent)
    assert second != first and _call_answer(second) == 21 and _call_answer(first) == 11
    assert build.compile_shared([a], include_dirs=[a.parent], name="a", source_root=a.parent) == first
    # A macro naming the folder is compiled in as it is: the two folders' modules stay apart.
    one = build.compile_shared([a], name="a", source_root=a.parent, defines={"HERE": f'"{a.parent}"'})
    assert build.compile_shared([b], name="a", source_root=b.parent, defines={"HERE": f'"{b.parent}"'}) != one


FAKE_CLANG = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "Debian clang version 14.0.6"; exit 0; fi
exec g++ "$@"
"""


def _fake_clang(folder: Path) -> Path:
    clang = folder / "clang++"
    clang.write_text(FAKE_CLANG)
    clang.chmod(0o755)
    return clang


def test_a_clang_build_reads_sources_with_gcc(cache, monkeypatch, tmp_path):
    """clang++ has no -fdirectives-only: with ASCGEN_CXX=clang++ the source analysis still uses g++ (it used to
    pass the flag to clang, so no source loaded: "clang: error: unknown argument: '-fdirectives-only'")."""
    monkeypatch.setenv("ASCGEN_CXX", str(_fake_clang(tmp_path)))
    assert build.find_compiler() == str(tmp_path / "clang++")
    assert Path(build.find_preprocessor()).name == "g++"
    monkeypatch.setenv("ASCGEN_CXX", "g++")
    assert build.find_preprocessor() == build.find_compiler()


def test_clang_without_gcc_is_an_error_naming_the_missing_tool(cache, monkeypatch, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    clang = _fake_clang(bin_dir)
    monkeypatch.setenv("ASCGEN_CXX", str(clang))
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(CompileError) as info:
        build.find_preprocessor()
    assert "-fdirectives-only" in str(info.value) and "install g++" in str(info.value)
