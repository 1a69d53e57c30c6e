"""The installation's include/ laid out from the sibling source trees' install rules (ascgen/ut/installed.py)."""
from pathlib import Path

from ascgen.ut import installed


def _tree(sources: Path) -> Path:
    meta = sources / "metadef"
    for rel in ("inc/external/graph/c_types.h", "inc/external/graph/types.h", "inc/external/asc/register/op_def.h",
                "pkg_inc/base/checker.h", "inc/external/runtime/tensor.h"):
        (meta / rel).parent.mkdir(parents=True, exist_ok=True)
        (meta / rel).write_text(f"// {rel}\n")
    (meta / "cmake").mkdir()
    (meta / "cmake" / "package.cmake").write_text(
        "function(install_public_packages)\n"
        "set(EXTERNAL_GRAPH_FILES\n    ${CMAKE_CURRENT_SOURCE_DIR}/inc/external/graph/c_types.h  # a comment\n"
        "    ${CMAKE_CURRENT_SOURCE_DIR}/inc/external/graph/types.h)\n"
        "install(FILES ${EXTERNAL_GRAPH_FILES}\n    DESTINATION ${CMAKE_SYSTEM_PROCESSOR}-linux/include/graph\n"
        "    COMPONENT metadef)\n"
        "install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/inc/external/asc/register/op_def.h\n"
        "    DESTINATION ${CMAKE_SYSTEM_PROCESSOR}-linux/include/register/asc)\n"
        "install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/pkg_inc/base/checker.h DESTINATION ${CMAKE_SYSTEM_PROCESSOR}-linux/pkg_inc/base)\n"
        "install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/inc/external/runtime/tensor.h DESTINATION include/runtime)\n"
        "install(TARGETS stub LIBRARY DESTINATION lib)\n"
        "endfunction()\n")
    (sources / "notes").mkdir()                # a folder that is no repository
    return meta


def test_install_rules_to_include_are_laid_out_by_their_destination(tmp_path):
    meta = _tree(tmp_path)
    headers = installed.installed_headers(tmp_path)
    assert headers == {"graph/c_types.h": meta / "inc/external/graph/c_types.h",
                       "graph/types.h": meta / "inc/external/graph/types.h",
                       "register/asc/op_def.h": meta / "inc/external/asc/register/op_def.h",
                       "runtime/tensor.h": meta / "inc/external/runtime/tensor.h"}     # pkg_inc is not include/
    folder = installed.installed_include(tmp_path)
    assert (folder / "graph" / "c_types.h").read_text() == "// inc/external/graph/c_types.h\n"
    assert not (folder / "register" / "op_def.h").exists()     # installed under register/asc/, not renamed


def test_no_sources_no_folder(tmp_path):
    assert installed.installed_include(tmp_path) is None


MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<block name="MetadefInc" copy_type="delivery" src_path="" dst_path="" install_path="">
    <file_info value="include" copy_type="source" dst_path="$(TARGET_ENV)/include/register/asc"
               install_path="$(TARGET_ENV)/include/register/asc" install_type="devel">
        <file value="op_def.h" install_softlink="$(TARGET_ENV)/include/register/op_def.h"/>
        <file value="absent.h" install_softlink="$(TARGET_ENV)/include/register/absent.h"/>
    </file_info>
    <file_info copy_type="source" src_path="" dst_path="$(TARGET_ENV)/include/graph" install_path="$(TARGET_ENV)/include/graph">
        <file value="types.h" install_softlink="runtime/include/graph/types.h"/>
    </file_info>
</block>
"""


def test_package_manifest_links_into_include_are_laid_out_too(tmp_path):
    # CANN's installer makes include/register/op_def.h a link to register/asc/op_def.h (the name kernel UTs use)
    meta = _tree(tmp_path)
    (meta / "scripts" / "package" / "module").mkdir(parents=True)
    (meta / "scripts" / "package" / "module" / "Inc.xml").write_text(MANIFEST)
    (meta / "scripts" / "package" / "broken.xml").write_text("<block>")
    headers = installed.installed_headers(tmp_path)
    assert headers["register/op_def.h"] == meta / "inc/external/asc/register/op_def.h"
    assert headers["register/asc/op_def.h"] == meta / "inc/external/asc/register/op_def.h"
    # not: a link to a file no install rule provides, a link outside $(TARGET_ENV)/include/ (runtime/include/...)
    assert set(headers) == {"graph/c_types.h", "graph/types.h", "register/asc/op_def.h", "register/op_def.h",
                            "runtime/tensor.h"}
    folder = installed.installed_include(tmp_path)
    assert (folder / "register" / "op_def.h").read_text() == "// inc/external/asc/register/op_def.h\n"
