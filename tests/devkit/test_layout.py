"""CANN's installed header names over the asc-devkit tree (ascgen/runtime/backends/devkit/layout.py)."""
from __future__ import annotations

import os

from ascgen.runtime.backends.devkit import layout
from tests import devkit_tree

NAMES = ("ascendc/host_api/tiling/template_argument.h", "impl/dav_c220/kernel_operator_reg_others_impl.h")


def _found(farm, name):
    return [d for d in layout.include_dirs(farm) if (d / name).is_file()]


def test_the_installed_names_resolve_into_the_tree_from_its_cmake_rules(tmp_path):
    tree = devkit_tree.require()
    farm = layout.farm(tree, tmp_path / "devkit-layout")
    for name in NAMES:
        found = _found(farm, name)
        assert found, name
        assert os.path.realpath(found[0] / name).startswith(str(tree.resolve()))


def test_a_farm_the_cache_emptied_is_built_again(tmp_path):
    tree = devkit_tree.require()
    farm = layout.farm(tree, tmp_path / "devkit-layout")
    for root, dirs, files in os.walk(farm):          # what the cache's eviction does: every file and link
        for n in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            os.unlink(os.path.join(root, n))
    assert not _found(farm, NAMES[0])
    farm = layout.farm(tree, tmp_path / "devkit-layout")
    assert all(_found(farm, name) for name in NAMES)
