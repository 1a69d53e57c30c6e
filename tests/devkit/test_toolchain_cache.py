"""toolchain.py: what the devkit backend keeps in the cache stays byte- and time-stable for the precompiled
library header, and its flags suit the compiler in use."""
from __future__ import annotations

import os
import time
from pathlib import Path

from ascgen.runtime.backends.devkit import toolchain
from tests import devkit_tree
from tests.core.test_build import _fake_clang


def test_a_use_of_the_tiling_folder_leaves_its_header_untouched(tmp_path, monkeypatch):
    """The generated kernel_tiling.h is an input of the precompiled header: touching it to record a use made
    clang refuse the PCH on the next compile ("has been modified since the precompiled header was built")."""
    devkit_tree.require()
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    tree = toolchain.tree()
    header = toolchain.tiling_dir(tree) / "kernel_tiling" / "kernel_tiling.h"
    before = header.stat().st_mtime_ns
    old = time.time() - 3600
    os.utime(header.parent.parent / "last-use", (old, old))
    time.sleep(0.01)
    folder = toolchain.tiling_dir(tree)
    assert header.stat().st_mtime_ns == before
    assert (folder / "last-use").stat().st_mtime > old + 1800      # the use is still recorded, on its own file


def test_the_gnu_unique_flag_only_goes_to_gcc(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ASCGEN_CXX", "g++")
    assert "-fno-gnu-unique" in toolchain.model_flags()
    monkeypatch.setenv("ASCGEN_CXX", str(_fake_clang(tmp_path)))
    assert "-fno-gnu-unique" not in toolchain.model_flags()


def test_an_edited_header_of_the_builtin_folder_the_model_includes_names_another_pch(tmp_path, monkeypatch):
    """dav_3510's model and tikicpulib.h include ascgen/host_icpu.h from the builtin library's folder. The stamp
    in every devkit cache key (and so in the precompiled header's) left that folder out: an edited host_icpu.h
    met the PCH's old copy (redefinition errors on ascend950, found when SetKernelMode changed)."""
    import shutil
    from ascgen import resources
    copy = tmp_path / "include"
    shutil.copytree(resources.include_dir(), copy)
    monkeypatch.setattr(resources, "include_dir", lambda: copy)
    before = toolchain._model_stamp()
    header = copy / "ascgen" / "host_icpu.h"
    header.write_text(header.read_text() + "\n// edited\n")
    assert toolchain._model_stamp() != before
