"""The build plan of one UT program (ascgen/ut/plan.py) on synthetic repositories of both shapes."""
import pytest

from ascgen.ut import cmake, plan
from tests.ut import synthetic


def _plan(repo, op, soc):
    rule = next(r for r in cmake.discover([repo])[0] if r.op == op)
    return plan.plan(rule, soc, cmake.convention(repo))


def test_nn_plan_compiles_what_the_rule_names(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    p = _plan(repo, "add_one", "ascend910B1")
    ut = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel"
    assert p.product == "ascend910b"
    assert p.tests == [ut / "test_add_one.cpp"]
    (kernel_file,) = p.kernels             # the build's copy (plan.compiled_kernel), a link to the op's file
    assert kernel_file.parts[-4:] == ("tbe", "ascendc", "add_one", "add_one.cpp")
    assert kernel_file.resolve() == (repo / "cat" / "add_one" / "op_kernel" / "add_one.cpp").resolve()
    assert p.forced_includes == [ut / "add_one_tiling_def.h"]
    assert p.defines == {"DTYPE_X": "float", "NO_OPERATOR_IMPL": None, "UT_SOC_VERSION": '"Ascend910B1"',
                         "__CCE_KT_TEST__": "1", "KERNELUT": "1"}
    # The build's copy rule (cp -r common/inc/op_kernel/* -> tbe/ascendc/inc) is replayed as links, and the
    # op's kernel folder is reachable as tbe/ascendc/<op>, as the kernel_src_copy of the build makes it.
    assert any((d / "shared_const.h").is_file() for d in p.include_dirs)
    assert any((d / "add_one.cpp").is_file() for d in p.include_dirs)
    assert all(not d.is_relative_to(repo) or d.is_relative_to(repo / "tests") for d in p.include_dirs)


def test_without_the_graph_engines_header_op_def_h_is_read_as_metadef_builds_it(tmp_path):
    """register/op_def.h includes graph/operator_reg.h, in no public tree, unless NO_OPERATOR_IMPL (metadef's
    configuration for its registry library): 14 ops-nn kernel UTs include it through register/op_def_registry.h
    and stopped at the missing header. Defined only when no include folder has the header."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    assert "NO_OPERATOR_IMPL" in _plan(repo, "add_one", "ascend910B1").defines
    folder = next(d for d in _plan(repo, "add_one", "ascend910B1").include_dirs if d.is_relative_to(repo / "tests"))
    (folder / "graph").mkdir()
    (folder / "graph" / "operator_reg.h").write_text("#pragma once\n")
    assert "NO_OPERATOR_IMPL" not in _plan(repo, "add_one", "ascend910B1").defines


def test_the_copy_tree_holds_the_dependencies_of_the_dependencies(tmp_path):
    """ops-nn layer_norm's rule names layer_norm_v3, whose kernel includes `../../norm_common/x.h`: a whole-
    repository build finds it in the copy folder all ops share, where layer_norm_v3's own rule copied
    norm_common. ascgen's copy tree per rule holds the dependencies' add_modules_sources DEPENDENCIES too."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    for name, deps in (("dep_one", "DEPENDENCIES dep_two"), ("dep_two", "")):
        (repo / "cat" / name / "op_kernel").mkdir(parents=True)
        (repo / "cat" / name / "op_kernel" / f"{name}.h").write_text("#pragma once\n")
        (repo / "cat" / name / "CMakeLists.txt").write_text(
            f"add_modules_sources(HOSTNAME x MODE PRIVATE OPTYPE {name} ACLNNTYPE aclnn_exclude {deps})\n")
    rule = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    rule.write_text(rule.read_text().replace('"-DDTYPE_X=float")', '"-DDTYPE_X=float" dep_one)'))
    p = _plan(repo, "add_one", "ascend910B1")
    assert plan.copied_dependencies(p.rule) == ("dep_one", "dep_two")
    (kernel_file,) = p.kernels
    assert (kernel_file.parent.parent / "dep_two" / "dep_two.h").is_file()
    assert [copy.name for copy, _ in p.file_maps] == ["add_one", "dep_one", "dep_two"]


def test_the_copy_tree_holds_the_dependencies_the_op_itself_declares(tmp_path):
    """ops-math tril's kernel includes `../triu/arch35/triangulator_base.h`, stateless_sample_multinomial's
    `../../random_common/arch35/...`: ops its own add_all_modules_sources names (`DEPENDENCIES triu`), which the
    op build copies beside it. Its UT rule names no dependency, so the copy tree held the op alone and the
    header was missing (4 cases in the sweep's shards)."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    (repo / "cat" / "sibling" / "op_kernel").mkdir(parents=True)
    (repo / "cat" / "sibling" / "op_kernel" / "sibling.h").write_text("#pragma once\n")
    (repo / "cat" / "add_one" / "CMakeLists.txt").write_text(
        "add_all_modules_sources(OPTYPE add_one ACLNNTYPE aclnn_exclude DEPENDENCIES sibling)\n")
    p = _plan(repo, "add_one", "ascend910B1")
    assert plan.copied_dependencies(p.rule) == ("sibling",)
    (kernel_file,) = p.kernels
    assert (kernel_file.parent.parent / "sibling" / "sibling.h").is_file()


def test_the_staging_folder_a_rule_lays_out_is_replayed_and_its_include_option_resolves(tmp_path):
    """ops-math tril, concat_v2 and 16 more: the rule's CMakeLists.txt makes a staging folder in its build
    folder (`file(MAKE_DIRECTORY ...)`), links a sibling op's headers into it (`execute_process(COMMAND
    ${CMAKE_COMMAND} -E create_symlink ...)`, in a foreach for tril) and names it with `-I` in the rule's
    options, so the kernel's `../triu/arch35/x.h` resolves. The option named an unknown folder and was left
    out: the header was missing."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    (repo / "cat" / "sibling" / "op_kernel" / "arch").mkdir(parents=True)
    for name in ("a.h", "b.h"):
        (repo / "cat" / "sibling" / "op_kernel" / "arch" / name).write_text("#pragma once\n")
    rule = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    rule.write_text(
        "set(STAGE ${CMAKE_CURRENT_BINARY_DIR}/stage)\n"
        "file(MAKE_DIRECTORY ${STAGE}/op_kernel)\nfile(MAKE_DIRECTORY ${STAGE}/sibling/arch)\n"
        "set(HEADERS a.h b.h)\n"
        "foreach(h ${HEADERS})\n"
        "  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink\n"
        "      ${PROJECT_SOURCE_DIR}/cat/sibling/op_kernel/arch/${h} ${STAGE}/sibling/arch/${h})\n"
        "endforeach()\n"
        'AddOpTestCase(add_one "ascend910B1" "-DDTYPE_X=float -I${STAGE}/op_kernel")\n')
    p = _plan(repo, "add_one", "ascend910B1")
    (stage,) = [d for d in p.include_dirs if d.name == "op_kernel" and d.parent.name == "stage"]
    assert (stage / ".." / "sibling" / "arch" / "a.h").is_file()
    assert (stage / ".." / "sibling" / "arch" / "b.h").is_file()
    assert not stage.is_relative_to(repo)          # laid out in ascgen's cache, never in the checkout


def test_a_staging_link_pointing_outside_the_build_folder_is_not_made(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    rule = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    outside = tmp_path / "elsewhere"
    rule.write_text(f"execute_process(COMMAND ${{CMAKE_COMMAND}} -E create_symlink {repo} {outside})\n"
                    f"file(MAKE_DIRECTORY {tmp_path / 'made'})\n"
                    'AddOpTestCase(add_one "ascend910B1" "-DDTYPE_X=float")\n')
    _plan(repo, "add_one", "ascend910B1")
    assert not outside.exists() and not (tmp_path / "made").exists()


def test_the_kernel_a_product_s_add_kernel_sources_names_is_the_one_compiled(tmp_path):
    """ops-nn foreach_div_scalar: `add_kernel_sources(KERNEL_SRC arch35/foreach_div_scalar.cpp COMPUTE_UNITS
    ascend950)`; the UT definition compiles `${ASCEND_KERNEL_SRC_DST}/<op>/<KERNEL_SRC>` (its kernel_src_list).
    The plan compiled the ascend910b kernel for ascend950 too, so the arch35 tests' key ran no branch and their
    outputs stayed their inputs (2 `wrong`)."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "info_named"
    (op / "op_kernel" / "arch35").mkdir()
    (op / "op_kernel" / "arch35" / "info_named.cpp").write_text("// the ascend950 kernel\n")
    (op / "op_kernel" / "CMakeLists.txt").write_text(
        "add_kernel_sources(\n    KERNEL_SRC arch35/info_named.cpp\n    COMPUTE_UNITS ascend950\n    AUTO_SYNC false\n)\n")
    (kernel_950,) = [k for k in _plan(repo, "info_named", "ascend950pr_9599").kernels if k.suffix == ".cpp"][:1]
    assert kernel_950.parts[-2:] == ("arch35", "info_named.cpp")
    assert [k.name for k in _plan(repo, "info_named", "ascend910B1").kernels] == ["info_named.cpp"]
    assert _plan(repo, "info_named", "ascend910B1").kernels[0].parent.name != "arch35"


def test_multi_kernel_target_takes_only_the_target_folder_and_compiles_no_kernel_file(tmp_path):
    """The definition's flagged branch makes one object per test source and leaves out the kernel file (ops-nn:
    `add_library(opkernel_${src_name} OBJECT ${src_file})`): each test includes what it needs. Compiling the
    kernel file anyway stopped ops-nn deep_norm_grad (8 cases) and quant_batch_matmul_v3 (2) on ascend950 at
    `'DTYPE_DY' not declared`, a macro only the real op build gives that file."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    assert not cmake.convention(repo).multi_kernel_compiles_kernel
    p = _plan(repo, "two_step", "ascend950pr_9599")
    assert p.product == "ascend950"
    assert [t.name for t in p.tests] == ["test_two_step_arch35.cpp"]
    assert not [k for k in p.kernels if k.name == "two_step.cpp"]


def test_a_kernel_file_the_rules_folder_marks_header_only_is_not_compiled(tmp_path):
    """ops-nn fused_patch_mlp's UT folder: `set_source_files_properties(${ASCEND_KERNEL_SRC_DST}/<op>/<op>.cpp
    PROPERTIES HEADER_FILE_ONLY TRUE)`: its tests wrap the kernel's class themselves (5 cases stopped at
    `'DTYPE_X' not declared` in the production entry)."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    assert [k.name for k in _plan(repo, "add_one", "ascend910B1").kernels] == ["add_one.cpp"]
    rules = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    rules.write_text(rules.read_text() + "set(copied ${ASCEND_KERNEL_SRC_DST}/add_one/add_one.cpp)\n"
                     "set_source_files_properties(${copied} PROPERTIES HEADER_FILE_ONLY TRUE)\n")
    assert [k.name for k in _plan(repo, "add_one", "ascend910B1").kernels] == []


def test_the_folders_around_the_rule_define_macros_and_the_rules_options_override_them(tmp_path):
    # ops-nn silu_mul: tests/CMakeLists.txt says add_compile_definitions(DTYPE_X=${TEST_DTYPE}), a directory
    # property the kernel UT target in tests/ut/op_kernel inherits
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "add_one"
    (op / "tests" / "CMakeLists.txt").write_text(
        "if(NOT DEFINED TEST_DTYPE)\n  set(TEST_DTYPE bfloat16_t)  # float / half\nendif()\n"
        "add_compile_definitions(DTYPE_Y=${TEST_DTYPE} ORIG_DTYPE_Y=DT_BF16 ${UNSET}=1 DTYPE_X=half)\n")
    (op / "CMakeLists.txt").write_text("add_definitions(-DOUTER=1 -Wall)\n")
    p = _plan(repo, "add_one", "ascend910B1")
    assert p.defines["DTYPE_Y"] == "bfloat16_t" and p.defines["ORIG_DTYPE_Y"] == "DT_BF16"
    assert p.defines["OUTER"] == "1" and p.defines["DTYPE_X"] == "float"     # the rule's -DDTYPE_X=float wins
    assert not any("$" in name or name.startswith("-W") for name in p.defines)


def test_math_plan_maps_short_socs_to_full_names(tmp_path):
    repo = synthetic.math_repo(tmp_path / "math")
    p = _plan(repo, "scale", "ascend910b")
    assert p.defines["UT_SOC_VERSION"] == '"Ascend910B1"' and "KERNELUT" not in p.defines
    assert p.forced_includes[0].name == "scale_tiling.h"
    assert _plan(repo, "scale", "ascend950").product == "ascend950"


def test_a_kernel_the_definitions_glob_misses_is_compiled_only_when_the_tests_call_it(tmp_path):
    # ops-math globs ${PROJECT_SOURCE_DIR}/*/<op>/op_kernel/<op>.cpp: experimental/math/<op> is one folder too
    # deep. sign's tests declare and launch the kernel (they need it to link); arange's instantiate its
    # classes themselves, and its kernel reads DTYPE_START, which nothing defines.
    repo = synthetic.math_repo(tmp_path / "math")
    assert cmake.convention(repo).kernel_glob == "${PROJECT_SOURCE_DIR}/*/${MODULE_OP_NAME}/op_kernel/${MODULE_OP_NAME}.cpp"
    for op, test in (("sign", 'extern "C" __global__ __aicore__ void sign(GM_ADDR x);\nvoid t() { ICPU_RUN_KF(sign, 1, 0); }\n'),
                     ("arange", "#include \"../../../op_kernel/arange.h\"\nvoid arange_ut_fp32() {}\n")):
        folder = repo / "experimental" / "math" / op
        (folder / "op_kernel").mkdir(parents=True)
        (folder / "op_kernel" / f"{op}.cpp").write_text(
            f"template <int M> __global__ __aicore__ void {op}(GM_ADDR x) {{ Op<DTYPE_START> k; }}\n")
        ut = folder / "tests" / "ut" / "op_kernel"
        ut.mkdir(parents=True)
        (ut / "CMakeLists.txt").write_text(f'AddOpTestCase({op} "ascend910b" "" "")\n')
        (ut / f"test_{op}.cpp").write_text(test)
        (ut / f"{op}_tiling.h").write_text("#pragma once\n")
    assert [k.name for k in _plan(repo, "sign", "ascend910b").kernels] == ["sign.cpp"]
    assert not any(k.name == "arange.cpp" for k in _plan(repo, "arange", "ascend910b").kernels)
    assert [k.name for k in _plan(repo, "scale", "ascend910b").kernels][:1] == ["scale.cpp"]   # found by the glob


def test_an_unknown_soc_is_unsupported_with_its_name(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    rule = next(r for r in cmake.discover([repo])[0] if r.op == "add_one")
    with pytest.raises(plan.Unsupported, match="soc 'ascend_quant' is not a product"):
        plan.plan(rule, "ascend_quant", cmake.convention(repo))


def test_kernel_headers_reach_the_copied_neighbours_through_the_copy(tmp_path):
    """The build copies op_kernel/ to tbe/ascendc/<op>/ and common/inc/op_kernel/* to tbe/ascendc/inc/, so a
    kernel's `#include "../inc/shared_const.h"` resolves inside the copy. A linked folder would send `..`
    to the original op folder, which has no inc/."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    p = _plan(repo, "add_one", "ascend910B1")
    (copy,) = [d for d in p.include_dirs if (d / "add_one.cpp").is_file()]
    assert (copy / ".." / "inc" / "shared_const.h").is_file()


def test_a_copied_kernel_climbing_out_of_the_build_folder_reaches_the_repository(tmp_path):
    """build.sh configures in <repository>/build, so from the copy build/tbe/ascendc/<op>/ a header's
    `../../../../common/...` is the repository's common/ (ops-nn fused_add_rms_norm reaches norm/rms_norm this
    way). The build folder's parent mirrors the repository's top level; nothing is written into it."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    before = sorted(p.name for p in repo.iterdir())
    p = _plan(repo, "add_one", "ascend910B1")
    (copy,) = [d for d in p.include_dirs if (d / "add_one.cpp").is_file()]
    climbed = copy / ".." / ".." / ".." / ".." / "common" / "inc" / "op_kernel" / "shared_const.h"
    assert climbed.is_file()
    assert climbed.resolve() == (repo / "common" / "inc" / "op_kernel" / "shared_const.h").resolve()
    assert sorted(p.name for p in repo.iterdir()) == before


def test_sibling_trees_are_found_the_way_the_cmake_finds_them(tmp_path, monkeypatch):
    """CANN_3RD_LIB_PATH is ASCGEN_CANN_SOURCES; cmake/third_party/ picks the tree by EXISTS, the Find
    module's find_path() its include folder, and the list variable gives both include folders."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    sources = synthetic.sibling_sources(tmp_path / "cann")
    monkeypatch.setenv("ASCGEN_CANN_SOURCES", str(sources))
    p = _plan(repo, "add_one", "ascend910B1")
    assert sources / "opbase" / "include" in p.include_dirs
    assert sources / "opbase" / "pkg_inc" / "op_common" in p.include_dirs
    monkeypatch.delenv("ASCGEN_CANN_SOURCES")
    p = _plan(repo, "add_one", "ascend910B1")      # no sources given: the entries do not resolve, skipped
    assert not [d for d in p.include_dirs if d.is_relative_to(sources)]


def test_the_op_definitions_opfile_names_kernel_and_tests(tmp_path):
    """ascend950's config says `ExtendCfgInfo("opFile.value", "info_named_apt")`: kernel info_named_apt.cpp,
    tests test_info_named_apt*.cpp. ascend910b names none: info_named.cpp, test_info_named*.cpp."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    p = _plan(repo, "info_named", "ascend950pr_9599")
    assert [k.name for k in p.kernels] == ["info_named_apt.cpp"]
    assert [t.name for t in p.tests] == ["test_info_named_apt.cpp"]
    p = _plan(repo, "info_named", "ascend910B1")
    assert [k.name for k in p.kernels] == ["info_named.cpp"]


def test_an_opfile_without_tests_falls_back_to_the_op_name(tmp_path):
    """The ops info exists only after a first build; on a fresh configure the op name is used. When the
    opFile names no test sources, the fresh-configure reading is the one that has cases."""
    repo = synthetic.nn_repo(tmp_path / "nn")
    ut = repo / "cat" / "info_named" / "tests" / "ut" / "op_kernel"
    (ut / "test_info_named_apt.cpp").rename(ut / "test_info_named.cpp")
    p = _plan(repo, "info_named", "ascend950pr_9599")
    assert [k.name for k in p.kernels] == ["info_named.cpp"] and [t.name for t in p.tests] == ["test_info_named.cpp"]


def test_real_plans_of_ops_nn_and_ops_math():
    """Three real UT programs (needs ASCGEN_CANN_SOURCES with ops-nn and ops-math, and ASCGEN_ASC_DEVKIT for
    the generated tiling headers): a hand-written tiling header, two generated ones, both products."""
    from tests.ut.test_cmake import _cann_sources
    cann = _cann_sources()
    cases = [("ops-nn/activation/clipped_swiglu", "ascend910B1", "ascend910b", "clipped_swiglu_tiling_def.h"),
             ("ops-nn/activation/bnll", "ascend950pr_9599", "ascend950", "bnll_tiling_data.h"),
             ("ops-math/math/histogram_v2", "ascend910b", "ascend910b", "histogram_v2_tiling_data.h")]
    for folder, soc, product, header in cases:
        rule = cmake.discover([cann / folder])[0][0]
        p = plan.plan(rule, soc, cmake.convention(rule.repository))
        assert p.product == product and [f.name for f in p.forced_includes] == [header]
        assert p.tests == [rule.ut_dir / f"test_{rule.op}.cpp"]
        kernel_file = rule.op_dir / "op_kernel" / f"{rule.op}.cpp"
        # ops-nn compiles the copy in ${ASCEND_KERNEL_SRC_DST}, ops-math (a glob) the file itself
        assert p.kernels[0] == kernel_file if folder.startswith("ops-math") else \
            p.kernels[0] != kernel_file and p.kernels[0].resolve() == kernel_file.resolve()
    # The UT helper data_utils.cpp comes with the header the test includes.
    assert p.kernels[1] == cann / "ops-math" / "tests" / "ut" / "op_kernel" / "data_utils.cpp"


def test_real_sibling_trees_copies_and_opfile_of_ops_nn():
    """ops-nn as its CMake reads (needs ASCGEN_CANN_SOURCES with ops-nn and opbase): ${OPBASE_INC_DIRS} gives
    opbase's folders (atvoss/, op_kernel/platform_util.h), rms_norm_quant_v3's `../../rms_norm_quant_v2/...`
    resolves through the copy, and sigmoid on ascend950 compiles its opFile kernel sigmoid_apt.cpp."""
    from tests.ut.test_cmake import _cann_sources
    cann = _cann_sources()
    if not (cann / "opbase").is_dir():
        pytest.skip("ASCGEN_CANN_SOURCES has no opbase")

    def real(folder, soc):
        rule = cmake.discover([cann / folder])[0][0]
        return plan.plan(rule, soc, cmake.convention(rule.repository))
    p = real("ops-nn/activation/fast_gelu", "ascend950pr_9599")
    assert any((d / "atvoss" / "util" / "dag.h").is_file() for d in p.include_dirs)
    assert any((d / "op_kernel" / "platform_util.h").is_file() for d in p.include_dirs)
    p = real("ops-nn/norm/rms_norm_quant_v3", "ascend950pr_9599")
    (copy,) = [d for d in p.include_dirs if d.name == "rms_norm_quant_v3" and "tbe" in d.parts]
    assert (copy / "arch35" / ".." / ".." / "rms_norm_quant_v2" / "rms_norm_quant_v2_apt.h").is_file()
    p = real("ops-nn/experimental/activation/sigmoid", "ascend950pr_9599")
    assert [k.name for k in p.kernels][:1] == ["sigmoid_apt.cpp"]


def test_a_helper_declared_by_the_op_s_own_header_comes_from_the_ut_folder_that_defines_it(tmp_path):
    """ops-nn dequant_swiglu_quant's tests include their own data_utils.h (declarations only), which shadows
    tests/ut/op_kernel/data_utils.h; the repository's build links tests/ut/op_kernel/data_utils.cpp into
    every kernel UT program all the same. The plan took no helper: 45 cases stopped at `undefined symbol
    ReadFile(...)`."""
    common = tmp_path / "tests" / "ut" / "op_kernel"
    own = tmp_path / "cat" / "op" / "tests" / "ut" / "op_kernel"
    for folder in (common, own):
        folder.mkdir(parents=True)
        (folder / "data_utils.h").write_text("#pragma once\nbool ReadFile(const char* path);\n")
    (common / "data_utils.cpp").write_text('#include "data_utils.h"\nbool ReadFile(const char*) { return true; }\n')
    test = own / "test_op.cpp"
    test.write_text('#include "data_utils.h"\n')
    assert plan.helper_sources([test], [common, own], [tmp_path / "tests", tmp_path / "cat"]) == \
        [(common / "data_utils.cpp").resolve()]


def test_a_test_that_includes_an_op_host_header_gets_the_host_side_of_an_installation(tmp_path, monkeypatch):
    """ops-math pows, lin_space, unfold_grad, ops-nn glu_grad...: the test includes the op's op_host tiling
    header, which reaches register/tilingdata_base.h (metadef's TilingDef, registered through
    CTilingDataClassFactory), opbase's log/log.h (base/err_msg.h) and platform/ headers. A CANN installation
    gives the build those headers and libraries; the plan gave none (`missing header base/err_msg.h`,
    `undefined symbol optiling::CTilingDataClassFactory::GetInstance()`). Now: ascgen's host stand-ins and
    metadef's folders on the include path after the installed ones, metadef's registry and ascgen's log
    among the program's sources."""
    sources, devkit = tmp_path / "cann", tmp_path / "devkit"
    registry = sources / "metadef" / "base" / "asc" / "tilingdata_base_impl.cc"
    registry.parent.mkdir(parents=True)
    registry.write_text("// metadef's registry\n")
    for folder in (sources / "metadef" / "pkg_inc", sources / "metadef" / "inc" / "external",
                   devkit / "include" / "utils" / "tiling"):
        folder.mkdir(parents=True)
    monkeypatch.setenv("ASCGEN_CANN_SOURCES", str(sources))
    monkeypatch.setenv("ASCGEN_ASC_DEVKIT", str(devkit))
    repo = synthetic.nn_repo(tmp_path / "nn")
    assert not any(k.name == "tilingdata_base_impl.cc" for k in _plan(repo, "add_one", "ascend910B1").kernels)
    test = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "test_add_one.cpp"
    test.write_text('#include "../../../op_host/add_one_tiling.h"\n' + test.read_text())
    p = _plan(repo, "add_one", "ascend910B1")
    wrapped = next(k for k in p.kernels if k.name == "tilingdata_base_impl.cc")
    assert f'#include "{registry}"' in wrapped.read_text()
    assert any(k.name == "ops_log.cpp" for k in p.kernels)
    assert sources / "metadef" / "pkg_inc" in p.include_dirs
    assert p.include_dirs.index(sources / "metadef" / "pkg_inc") > max(
        i for i, d in enumerate(p.include_dirs) if d.is_relative_to(repo))      # after the repository's own


def test_the_generated_tiling_header_reads_only_the_products_tiling_folder(tmp_path):
    """ops-nn scatter_elements_v2 registers a class for its op type in op_host/arch22 (ascend910b) and another
    in op_host/arch35 (ascend950); its build for one product compiles that product's folder only
    (SUPPORT_TILING_DIR). Read together, the two made GET_TILING_DATA ambiguous ("no tiling struct is known")."""
    from tests import devkit_tree
    devkit_tree.require()
    repo = synthetic.nn_repo(tmp_path / "nn")
    op = repo / "cat" / "add_one"
    (op / "tests" / "ut" / "op_kernel" / "add_one_tiling_def.h").unlink()      # so the header is generated
    for folder, name in (("arch22", "AddOneTilingData"), ("arch35", "AddOneRegbaseTilingData")):
        (op / "op_host" / folder).mkdir(parents=True)
        (op / "op_host" / folder / "add_one_tiling.h").write_text(
            f"BEGIN_TILING_DATA_DEF({name})\nTILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n"
            f"REGISTER_TILING_DATA_CLASS(AddOne, {name})\n")
    (op / "op_host" / "CMakeLists.txt").write_text(
        'set(SUPPORT_COMPUTE_UNIT "ascend910b" "ascend950")\nset(SUPPORT_TILING_DIR "arch22" "arch35")\n')
    (header,) = _plan(repo, "add_one", "ascend910B1").forced_includes
    text = header.read_text()
    assert "struct AddOneTilingData {" in text and "AddOneRegbaseTilingData" not in text
    assert "#define GET_TILING_DATA(" in text
