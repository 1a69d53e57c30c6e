"""The kernel tiling header written from an op's op_host sources (ascgen/source/op_tiling.py): layouts of
synthetic classes against metadef's rules worked by hand, and real ops' layouts against metadef's own
implementation (its register/tilingdata_base.h and base/asc/tilingdata_base_impl.cc, compiled here)."""
from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from ascgen import resources
from ascgen.errors import OpTilingError
from ascgen.runtime import build
from ascgen.source import op_tiling
from tests import devkit_tree

HOST = textwrap.dedent("""\
    #include "register/tilingdata_base.h"
    namespace optiling {
    constexpr uint32_t LANES = 3;   // an array length by name
    BEGIN_TILING_DATA_DEF(InnerTiling)
    TILING_DATA_FIELD_DEF(int32_t, a);
    TILING_DATA_FIELD_DEF(uint8_t, b);
    END_TILING_DATA_DEF;
    /* a comment with BEGIN_TILING_DATA_DEF(Ignored) in it */
    BEGIN_TILING_DATA_DEF(DemoTilingData)
    TILING_DATA_FIELD_DEF(uint8_t, flag);
    TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
    TILING_DATA_FIELD_DEF_ARR(int16_t, LANES, lanes);
    TILING_DATA_FIELD_DEF(int64_t, total);
    TILING_DATA_FIELD_DEF(float, scale);
    END_TILING_DATA_DEF;
    REGISTER_TILING_DATA_CLASS(Demo, DemoTilingData)
    REGISTER_TILING_DATA_CLASS(Demo_7, InnerTiling)
    }
""")


def _op(tmp_path: Path, text: str = HOST, name: str = "demo") -> Path:
    op = tmp_path / name
    (op / "op_host").mkdir(parents=True)
    (op / "op_host" / f"{name}_tiling.h").write_bytes(text.encode() + "// 注释\n".encode("gbk"))  # not UTF-8
    return op


def test_the_layout_follows_metadefs_placeholder_and_alignment_rules(tmp_path):
    tree = devkit_tree.require()
    tiling = op_tiling.read_op_tiling(_op(tmp_path), asc_devkit=tree)
    # InnerTiling: a@0 (4), b@4 (1), tail to 8: InnerTilingPH[3]; size 8
    inner = tiling.layout("InnerTiling")
    assert [(m.name, m.offset, m.size) for m in inner.members] == [("a", 0, 4), ("b", 4, 1), ("InnerTilingPH", 5, 3)]
    # DemoTilingData: flag@0; a nested class starts at a multiple of 8 (innerPH[7]); lanes (int16 x 3) @16;
    # total (int64) at 24 after lanesPH... 16 + 6 = 22 -> totalPH[2]; scale@32; tail to 40
    demo = tiling.layout("DemoTilingData")
    assert [(m.name, m.offset, m.size) for m in demo.members] == [
        ("flag", 0, 1), ("innerPH", 1, 7), ("inner", 8, 8), ("lanes", 16, 6), ("totalPH", 22, 2),
        ("total", 24, 8), ("scale", 32, 4), ("DemoTilingDataPH", 36, 4)]
    assert demo.size == 40 and tiling.order == ["InnerTiling", "DemoTilingData"]
    assert tiling.default == "DemoTilingData"          # Demo_7's class is reached WITH_STRUCT only


def test_the_header_compiles_and_its_asserts_hold(tmp_path):
    tree = devkit_tree.require()
    header = op_tiling.kernel_tiling_header(_op(tmp_path), asc_devkit=tree)
    assert "#define GET_TILING_DATA(tiling_data, tiling_arg)" in header and "DemoTilingData> tiling_data;" in header
    src = tmp_path / "use.cpp"
    (tmp_path / "demo_tiling_data.h").write_text(header)
    src.write_text('#include "demo_tiling_data.h"\nint main() { DemoTilingData d{}; return int(sizeof d) - 40; }\n')
    proc = subprocess.run([build.find_compiler(), "-std=c++17", "-fsyntax-only", str(src)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("body, message", [
    ("BEGIN_TILING_DATA_DEF(T)\nTILING_DATA_FIELD_DEF(Widget, w);\nEND_TILING_DATA_DEF;", r"demo_tiling\.h:2: .*Widget"),
    ("BEGIN_TILING_DATA_DEF(T)\nTILING_DATA_FIELD_DEF_ARR(int32_t, UNKNOWN_LEN, v);\nEND_TILING_DATA_DEF;",
     r"demo_tiling\.h:2: .*UNKNOWN_LEN"),
    ("BEGIN_TILING_DATA_DEF(T)\nTILING_DATA_FIELD_DEF_STRUCT(Missing, m);\nEND_TILING_DATA_DEF;",
     r"demo_tiling\.h:2: .*Missing"),
    ("BEGIN_TILING_DATA_DEF(T)\nTILING_DATA_FIELD_DEF(int32_t, a);\n", r"demo_tiling\.h:1: .*END_TILING_DATA_DEF"),
])
def test_what_cannot_be_read_is_an_error_naming_file_and_line(tmp_path, body, message):
    tree = devkit_tree.require()
    with pytest.raises(OpTilingError, match=message):
        op_tiling.kernel_tiling_header(_op(tmp_path, body), asc_devkit=tree)


def test_a_dependency_op_may_register_its_class_for_this_op(tmp_path):
    # ops-nn add_rms_norm_quant_v2: its op_host has no tiling; add_rms_norm_quant's registers its class for
    # AddRmsNormQuantV2 too, and the rule names add_rms_norm_quant as a dependency op
    tree = devkit_tree.require()
    base = _op(tmp_path, HOST.replace("REGISTER_TILING_DATA_CLASS(Demo_7, InnerTiling)",
                                      "REGISTER_TILING_DATA_CLASS(DemoV2, DemoTilingData)"))
    v2 = tmp_path / "demo_v2"
    (v2 / "op_host").mkdir(parents=True)
    (v2 / "op_host" / "demo_v2_def.cpp").write_text('#include "register/op_def_registry.h"\n')
    alone = op_tiling.kernel_tiling_header(v2, asc_devkit=tree)
    assert "struct DemoTilingData" not in alone and "GET_TILING_DATA" not in alone
    header = op_tiling.kernel_tiling_header(v2, asc_devkit=tree, dependency_ops=[base])
    assert "struct DemoTilingData {" in header and "DemoTilingData> tiling_data; \\" in header


def test_another_products_tiling_folder_is_left_out(tmp_path):
    # ops-nn deep_norm: op_host/arch22 defines BEGIN_TILING_DATA_DEF(DeepNormTilingData) for ascend910b, and
    # the ascend950 kernel declares its own plain struct of that name (op_kernel/arch35): its header must not
    # declare arch22's (its CMakeLists: SUPPORT_TILING_DIR "arch22" ... "arch35", one per compute unit)
    from ascgen.ut import cmake
    tree = devkit_tree.require()
    op = _op(tmp_path)
    (op / "op_host" / "demo_tiling.h").rename(op / "op_host" / "arch22.h")
    (op / "op_host" / "arch22").mkdir()
    (op / "op_host" / "arch22.h").rename(op / "op_host" / "arch22" / "demo_tiling.h")
    (op / "op_host" / "arch35").mkdir()
    (op / "op_host" / "CMakeLists.txt").write_text(
        'set(SUPPORT_COMPUTE_UNIT "ascend910b" "ascend950")\nset(SUPPORT_TILING_DIR "arch22" "arch35")\n')
    skip = cmake.other_tiling_dirs(op, "ascend950")
    assert skip == [op / "op_host" / "arch22"]
    assert "struct DemoTilingData {" not in op_tiling.kernel_tiling_header(op, asc_devkit=tree, skip_dirs=skip)
    assert cmake.other_tiling_dirs(op, "ascend910b") == [op / "op_host" / "arch35"]
    assert "struct DemoTilingData {" in op_tiling.kernel_tiling_header(
        op, asc_devkit=tree, skip_dirs=cmake.other_tiling_dirs(op, "ascend910b"))


KEYED = HOST.replace("REGISTER_TILING_DATA_CLASS(Demo_7, InnerTiling)", """BEGIN_TILING_DATA_DEF(KeyedTiling)
    TILING_DATA_FIELD_DEF(int32_t, k);
    END_TILING_DATA_DEF;
    REGISTER_TILING_DATA_CLASS(Demo_7, KeyedTiling)
    BEGIN_TILING_DATA_DEF(OtherKeyTiling)
    TILING_DATA_FIELD_DEF(int32_t, o);
    END_TILING_DATA_DEF;
    REGISTER_TILING_DATA_CLASS(Demo_8, OtherKeyTiling)""")


def test_a_kernel_ut_header_holds_the_op_types_class_and_the_listed_keys_only(tmp_path):
    """CANN's UT header generator writes the class registered for the op type and those of the keys the rule
    lists (-DUT_CUSTOM_TILING_DATA_KEYS), nested classes with them; a UT test defining a keyed class itself
    (ops-math concat) met `redefinition of struct` while every class was written. The op build keeps every
    class (keys=None)."""
    tree = devkit_tree.require()
    op = _op(tmp_path, KEYED)
    structs = lambda text: sorted(line.split()[1] for line in text.splitlines() if line.startswith("struct "))  # noqa: E731
    assert structs(op_tiling.kernel_tiling_header(op, asc_devkit=tree, keys=())) == ["DemoTilingData", "InnerTiling"]
    assert structs(op_tiling.kernel_tiling_header(op, asc_devkit=tree, keys=("Demo_8",))) == [
        "DemoTilingData", "InnerTiling", "OtherKeyTiling"]
    assert structs(op_tiling.kernel_tiling_header(op, asc_devkit=tree)) == [
        "DemoTilingData", "InnerTiling", "KeyedTiling", "OtherKeyTiling"]


def test_an_op_without_op_host_is_an_error(tmp_path):
    with pytest.raises(OpTilingError, match="no op_host"):
        op_tiling.kernel_tiling_header(tmp_path, asc_devkit=tmp_path)


def test_the_op_type_comes_from_the_binary_json_else_the_folder_name(tmp_path):
    op = _op(tmp_path, name="add_rms_norm")
    assert op_tiling.op_type_of(op) == "AddRmsNorm"
    cfg = op / "op_host" / "config" / "ascend910b"
    cfg.mkdir(parents=True)
    (cfg / "add_rms_norm_binary.json").write_text('{\n  "op_type": "AddRMSNorm",\n  "op_list": []}')
    assert op_tiling.op_type_of(op) == "AddRMSNorm"


# ---- real ops against metadef's own implementation ---------------------------------------------------

# Scalars only; arrays with named lengths; a nested op class; the library's TCubeTiling nested.
REAL_OPS = ["ops-nn/optim/advance_step", "ops-nn/foreach/foreach_non_finite_check_and_unscale",
            "ops-math/math/cumsum", "ops-nn/conv/deformable_conv2d"]


def _cann_sources() -> Path:
    value = os.environ.get("ASCGEN_CANN_SOURCES")
    need = ("metadef", "ops-nn", "ops-math")
    if value and all((Path(value) / n).is_dir() for n in need):
        return Path(value)
    message = ("the CANN source repositories are not available: set ASCGEN_CANN_SOURCES to a folder holding "
               f"{', '.join(need)} side by side")
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _metadef_side(tiling, index: int) -> str:
    """Each class declared with metadef's macros, its field list and data size printed from metadef's
    own bookkeeping (GetFieldInfo, GetDataSize)."""
    lines = ["namespace optiling {"]
    for name in tiling.order:
        lines.append(f"BEGIN_TILING_DATA_DEF({name})")
        for kind, ctype, fname, count in tiling.fields(name):
            if kind == "array":
                lines.append(f"TILING_DATA_FIELD_DEF_ARR({ctype}, {count}, {fname});")
            elif kind == "struct":
                lines.append(f"TILING_DATA_FIELD_DEF_STRUCT({ctype}, {fname});")
            else:
                lines.append(f"TILING_DATA_FIELD_DEF({ctype}, {fname});")
        lines.append("END_TILING_DATA_DEF;")
    lines.append("}")
    lines.append(f"void metadef_{index}() {{")
    for name in tiling.layouts.library_used:       # a nested class's size is recorded by its constructor
        lines.append(f"  {{ optiling::{name} t; (void)t; }}")
    for name in tiling.order:
        lines.append(f'  {{ optiling::{name} t; dump("{name}", t); }}')
    lines.append("}")
    return "\n".join(lines)


def _ascgen_side(tiling, index: int) -> str:
    lines = [f"void ascgen_{index}() {{"]
    for name in tiling.order:
        lines.append(f'  std::printf("A %s size %zu\\n", "{name}", sizeof({name}));')
        for m in tiling.layout(name).members:
            lines.append(f'  std::printf("A %s %s %zu %zu\\n", "{name}", "{m.name}", offsetof({name}, {m.name}), '
                         f'sizeof((({name}*)0)->{m.name}));')
    lines.append("}")
    return "\n".join(lines)


PROLOGUE = r"""
#include <cstdio>
#include <cstddef>
#include <cstring>
#include "register/tilingdata_base.h"
#include "matmul/matmul_tilingdata.h"
static size_t scalar_size(const char* t) {
    if (!std::strcmp(t, "int8_t") || !std::strcmp(t, "uint8_t") || !std::strcmp(t, "bool")) return 1;
    if (!std::strcmp(t, "int16_t") || !std::strcmp(t, "uint16_t")) return 2;
    if (!std::strcmp(t, "int32_t") || !std::strcmp(t, "uint32_t") || !std::strcmp(t, "float")) return 4;
    return 8;
}
template <class T> static void dump(const char* name, T& t) {
    size_t at = 0;
    for (auto& f : t.GetFieldInfo()) {
        size_t n = f.classType_[0] == '0' ? scalar_size(f.dtype_)
                 : f.classType_[0] == '1' ? f.arrSize_ * scalar_size(f.dtype_) : f.structSize_;
        std::printf("M %s %s %zu %zu\n", name, f.name_, at, n);
        at += n;
    }
    std::printf("M %s size %zu\n", name, t.GetDataSize());
}
"""


def _merge_tails(lines: list[str]) -> list[str]:
    """ascgen's `<field>_ascgen_tail` pads a library struct to metadef's size: one field, as metadef sees it."""
    out: list[list[str]] = []
    for line in lines:
        parts = line.split()
        if parts[2].endswith("_ascgen_tail"):
            out[-1][4] = str(int(out[-1][4]) + int(parts[4]))
            continue
        out.append(parts)
    return [" ".join(p[1:]) for p in out]


def test_real_ops_layouts_match_metadefs_own_implementation(tmp_path):
    cann = _cann_sources()
    tree = devkit_tree.require()
    from ascgen.runtime.backends.devkit import toolchain
    stub = tmp_path / "stub" / "common" / "ge_common" / "debug"
    stub.mkdir(parents=True)
    (stub / "ge_log.h").write_text("// metadef's logging, unused with ASCENDC_DEVICE_REG_STATIC\n")
    sources, calls = [], []
    for i, rel in enumerate(REAL_OPS):
        op = cann / rel
        tiling = op_tiling.read_op_tiling(op, asc_devkit=tree, search_dirs=[cann / rel.split("/")[0]])
        (tmp_path / f"op{i}_tiling_data.h").write_text(op_tiling.kernel_tiling_header(
            op, asc_devkit=tree, search_dirs=[cann / rel.split("/")[0]]).replace("#undef GET_TILING_DATA", "")
            .split("#define GET_TILING_DATA")[0])
        src = tmp_path / f"op{i}.cpp"
        src.write_text(PROLOGUE + f'#include "op{i}_tiling_data.h"\n' + _metadef_side(tiling, i) + "\n"
                       + _ascgen_side(tiling, i) + "\n")
        sources.append(src)
        calls += [f"metadef_{i}();", f"ascgen_{i}();"]
    main = tmp_path / "main.cpp"
    main.write_text("".join(f"void metadef_{i}(); void ascgen_{i}();\n" for i in range(len(REAL_OPS)))
                    + "int main() { " + " ".join(calls) + " }\n")
    metadef = cann / "metadef"
    common = resources.common_dir()                                     # ascgen's securec.h
    exe = tmp_path / "layouts"
    cmd = [build.find_compiler(), "-std=c++17", "-O0", "-DASCENDC_DEVICE_REG_STATIC", f"-I{tmp_path / 'stub'}",
           f"-I{metadef / 'inc' / 'external'}", f"-I{metadef / 'inc'}", f"-I{metadef / 'pkg_inc'}", f"-I{metadef}",
           f"-I{common}", f"-I{tree / 'include' / 'adv_api'}", f"-I{toolchain.tiling_dir(tree)}",
           *map(str, sources), str(main), str(metadef / "base" / "asc" / "tilingdata_base_impl.cc"), "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    theirs = [" ".join(line.split()[1:]) for line in out if line.startswith("M ")]
    ours = _merge_tails([line for line in out if line.startswith("A ") and " size " not in line])
    ours_sizes = [" ".join(line.split()[1:]) for line in out if line.startswith("A ") and " size " in line]
    assert len(theirs) > 40
    assert [t for t in theirs if " size " not in t] == ours
    assert [t for t in theirs if " size " in t] == ours_sizes
