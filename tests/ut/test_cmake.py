"""Discovery of kernel UT rules from CMake text (ascgen/ut/cmake.py), on synthetic repositories in both
AddOpTestCase shapes and, when ASCGEN_CANN_SOURCES is set, on real rules of ops-nn and ops-math."""
import os
from pathlib import Path

import pytest

from ascgen.errors import SpecError
from ascgen.ut import cmake
from tests.ut import synthetic


def _by_op(rules):
    return {r.op: r for r in rules}


def test_nn_shape_rules(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    conv = cmake.convention(repo)
    assert conv.optional_name and conv.kernelut
    assert conv.value_keywords == ("UT_SRC_DIR",) and conv.flag_keywords == ("MULTI_KERNEL_TARGET",)
    assert conv.tiling_headers == ("_tiling_def.h",) and conv.kernel_from_op_info
    rules, problems = cmake.discover([repo])
    assert problems == []
    rules = _by_op(rules)
    add = rules["add_one"]
    assert add.socs == ("ascend910B1",) and add.options == ("-DDTYPE_X=float",) and add.deps == ()
    assert add.ut_dir == repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" and add.category == "cat"
    assert add.where.endswith("add_one/tests/ut/op_kernel/CMakeLists.txt:2")
    two = rules["two_step"]           # rule in the op's own CMakeLists.txt, op name left out
    assert two.socs == ("ascend950pr_9599",) and two.deps == ("add_one",) and two.multi_kernel
    assert two.op_dir == repo / "cat" / "two_step"


def test_math_shape_rules(tmp_path):
    repo = synthetic.math_repo(tmp_path / "math")
    conv = cmake.convention(repo)
    assert conv.params == ("opName", "shortSocVersion", "otherCompileOptions", "tilingSrcFiles")
    assert not conv.optional_name and not conv.kernelut and conv.tiling_headers == ("_tiling.h",)
    assert conv.full_soc == {"ascend910b": "ascend910B1", "ascend950": "ascend950PR_9599"}
    (rule,), problems = cmake.discover([repo / "math"])
    assert problems == []
    # The fourth argument (a set() list of op_host sources) is not a dependency op; the tiling-keys
    # option is the build's, not the compiler's.
    assert rule.op == "scale" and rule.socs == ("ascend910b", "ascend950") and rule.deps == ()
    assert rule.options == ("-DDTYPE_X=float",)
    assert rule.tiling_keys == ("k",)           # what the generated tiling header holds besides the op type's


def test_options_are_a_cmake_list_a_semicolon_separates_them_as_a_space_does(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    rules = repo / "cat" / "add_one" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    rules.write_text('AddOpTestCase(add_one "ascend910B1" "-DDTYPE_X=float;-DORIG_DTYPE_X=DT_FLOAT -DN=2")\n')
    (rule,), _ = cmake.discover([rules.parent])
    assert rule.options == ("-DDTYPE_X=float", "-DORIG_DTYPE_X=DT_FLOAT", "-DN=2")


def test_root_is_found_walking_up(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    assert cmake.find_root(repo / "cat" / "add_one" / "op_kernel") == repo.resolve()
    with pytest.raises(SpecError, match="not inside an operator repository"):
        cmake.find_root(tmp_path)


def test_a_broken_cmakelists_is_one_problem_and_the_others_are_still_read(tmp_path):
    repo = synthetic.nn_repo(tmp_path / "nn")
    broken = repo / "cat" / "broken" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    broken.parent.mkdir(parents=True)
    broken.write_text('AddOpTestCase(broken "ascend910B1" "-DX=1"\n')
    rules, problems = cmake.discover([repo])
    assert {r.op for r in rules} == {"add_one", "two_step", "info_named"}
    assert len(problems) == 1 and str(broken) in problems[0] and "no closing parenthesis" in problems[0]


def test_cmake_arguments_follow_cmake_quoting():
    args = cmake.arguments('x "a b" ${L} "${L}" \\"q\\" ""', {"L": "p;q"})
    assert args == ["x", "a b", "p", "q", "p;q", '\\"q\\"', ""]
    assert cmake.strip_comments('set(a "#not" b) # comment\nx') == 'set(a "#not" b) \nx'


def test_set_variables_follows_exists_branches_find_path_and_the_command_line(tmp_path):
    (tmp_path / "b" / "inc" / "sub").mkdir(parents=True)
    (tmp_path / "b" / "inc" / "sub" / "marker.h").write_text("")
    text = cmake.strip_comments(f"""
        set(ROOT {tmp_path} CACHE STRING "given on the command line wins")
        if(EXISTS "${{ROOT}}/a")
          set(WHERE ${{ROOT}}/a)
        elseif(EXISTS "${{ROOT}}/b")
          get_filename_component(WHERE ${{ROOT}}/b/../b REALPATH)
        else()
          set(WHERE ${{ROOT}}/c)
        endif()
        if(NOT EXISTS "${{ROOT}}/b")
          set(NEVER 1)
        endif()
        if(SOME_OPTION)               # unknown: read as taken
          set(OPTIONAL yes)
        endif()
        find_path(INC NAMES sub/marker.h PATHS ${{UNSET}}/x ${{ROOT}}/a ${{WHERE}}/inc NO_DEFAULT_PATH)
        find_path(NONE NAMES absent.h PATHS ${{ROOT}})
        get_filename_component(PARENT ${{INC}} DIRECTORY)
        """)
    v = cmake.set_variables(text, {"ROOT": str(tmp_path / "given")})
    assert v["ROOT"] == str(tmp_path / "given")          # a CACHE set without FORCE keeps a given value
    v = cmake.set_variables(text, {})
    assert v["WHERE"] == str(tmp_path / "b") and "NEVER" not in v and v["OPTIONAL"] == "yes"
    assert v["INC"] == str(tmp_path / "b" / "inc") and "NONE" not in v and v["PARENT"] == str(tmp_path / "b")


# ---- real repositories -------------------------------------------------------------------------------

def _cann_sources() -> Path:
    value = os.environ.get("ASCGEN_CANN_SOURCES")
    need = ("ops-nn", "ops-math")
    if value and all((Path(value) / n).is_dir() for n in need):
        return Path(value)
    message = f"set ASCGEN_CANN_SOURCES to a folder holding {', '.join(need)} side by side (the CANN corpora)"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def test_real_rules_of_ops_nn_and_ops_math():
    cann = _cann_sources()
    nn = _by_op(cmake.discover([cann / "ops-nn" / "activation"])[0])
    assert nn["clipped_swiglu"].socs == ("ascend910B1",)
    assert nn["bnll"].options == ("-DDTYPE_X=float",) and nn["bnll"].socs == ("ascend950pr_9599",)
    math = _by_op(cmake.discover([cann / "ops-math" / "math" / "histogram_v2"])[0])
    assert math["histogram_v2"].socs == ("ascend910b",) and math["histogram_v2"].deps == ()
    assert cmake.convention(cann / "ops-math").full_soc["ascend950"] == "ascend950PR_9599"
