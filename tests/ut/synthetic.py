"""Small synthetic operator repositories for the `ascgen ut` tests, in both AddOpTestCase shapes.

`nn_repo` follows the ops-nn shape (optional op name, dependency ops, UT_SRC_DIR / MULTI_KERNEL_TARGET
keywords, `<op>_tiling_def.h`, -DKERNELUT=1); `math_repo` the ops-math shape (op name, socs, options,
tiling sources; `<op>_tiling.h`; short soc names mapped to full ones). The CMake text is our own, written
with the same argument conventions; the UT program runs on the builtin backend (fast to build).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

NN_CMAKE = """\
# synthetic kernel UT rule, ops-nn argument shape
set(ASCEND_KERNEL_SRC_DST ${CMAKE_BINARY_DIR}/tbe/ascendc)
function(AddOpTestCase)
    if("${ARGV0}" MATCHES "^ascend")
        set(opName "")
    endif()
    foreach(arg ${ARGN})
        if("${arg}" STREQUAL "UT_SRC_DIR")
            set(_expect_dir TRUE)
        elseif("${arg}" STREQUAL "MULTI_KERNEL_TARGET")
            set(multi TRUE)
        endif()
    endforeach()
    add_custom_target(copy_common
        COMMAND cp -r ${PROJECT_SOURCE_DIR}/common/inc/op_kernel/* ${CMAKE_BINARY_DIR}/tbe/ascendc/inc)
    set(kernel_dependency_files ${ASCEND_KERNEL_SRC_DST}/${opName})
    if(EXISTS "${_ut_src_dir}/${opName}_tiling_def.h")
        set(compileOptions -include "${_ut_src_dir}/${opName}_tiling_def.h")
    endif()
    get_target_dir(${lowerSocVersion} target_dir)
    set(kernelFile ${ASCEND_KERNEL_SRC_DST}/${opName}/${opName}.cpp)
    if(NOT DEFINED multi)
        add_library(opkernel_${opName} OBJECT ${cases} ${kernelFile})
    else()
        foreach(src ${cases})
            add_library(opkernel_${src} OBJECT ${src})
        endforeach()
    endif()
    target_compile_options(opkernel_${opName} PRIVATE ${compileOptions} -DUT_SOC_VERSION="${socVersion}" -DKERNELUT=1)
    target_include_directories(opkernel_${opName} PRIVATE
        ${ASCEND_DIR}/include
        ${PROJECT_SOURCE_DIR}/tests/ut/op_kernel
        ${PROJECT_SOURCE_DIR}/tests/ut/common
        ${kernel_dependency_files}
        ${CMAKE_BINARY_DIR}/tbe/ascendc/inc
        ${BASE_INC_DIRS})
    if(EXISTS "${opsInfo}")
        execute_process(COMMAND python3 get_opfile_from_opsinfo.py ${opsInfo} ${opType})
    endif()
endfunction()

function(get_target_dir soc out)
    set(socs "ascend910b1" "ascend950pr_9599")
    set(dirs "arch22" "arch35")
endfunction()
"""

MATH_CMAKE = """\
# synthetic kernel UT rule, ops-math argument shape
set(SHORT_SOCS "ascend910b" "ascend950")
set(FULL_SOCS "ascend910B1" "ascend950PR_9599")
function(AddOpsTestCase)
    cmake_parse_arguments(MODULE "" "OP_NAME;OTHER_COMPILE_OPTIONS" "SOC_VERSION;TILING_SRC_FILES" ${ARGN})
    file(GLOB KernelFile "${PROJECT_SOURCE_DIR}/*/${MODULE_OP_NAME}/op_kernel/${MODULE_OP_NAME}.cpp")
    find_value_by_key("${SHORT_SOCS}" "${FULL_SOCS}" "${lowerShortSocVersion}" oriSocVersion)
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${MODULE_OP_NAME}_tiling.h")
        set(compileOptions -include "${CMAKE_CURRENT_SOURCE_DIR}/${MODULE_OP_NAME}_tiling.h")
    endif()
    target_include_directories(cases PRIVATE
        ${PROJECT_SOURCE_DIR}/tests/ut/op_kernel
        ${PROJECT_SOURCE_DIR}/tests/ut/common)
endfunction()

function(AddOpTestCase opName shortSocVersion otherCompileOptions tilingSrcFiles)
    AddOpsTestCase(OP_NAME ${opName} SOC_VERSION ${shortSocVersion}
                   OTHER_COMPILE_OPTIONS "${otherCompileOptions}" TILING_SRC_FILES ${tilingSrcFiles})
endfunction()
"""

DATA_UTILS = """\
// synthetic UT helpers: read and write whole binary files
#pragma once
#include <cstdio>
#include <cstddef>
inline bool ReadFile(const char* path, void* buf, size_t n) {
    FILE* f = std::fopen(path, "rb");
    if (!f) return false;
    size_t got = std::fread(buf, 1, n, f);
    std::fclose(f);
    return got == n;
}
inline bool WriteFile(const char* path, const void* buf, size_t n) {
    FILE* f = std::fopen(path, "wb");
    if (!f) return false;
    size_t put = std::fwrite(buf, 1, n, f);
    std::fclose(f);
    return put == n;
}
"""

KERNEL = """\
#include "kernel_operator.h"
#include "../inc/shared_const.h"  // through the build's copy: tbe/ascendc/add_one/../inc

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    auto* t = reinterpret_cast<__gm__ AddOneTilingData*>(tiling);
    __gm__ float* px = reinterpret_cast<__gm__ float*>(x);
    __gm__ float* py = reinterpret_cast<__gm__ float*>(y);
    for (uint32_t i = 0; i < t->n; ++i) {
        py[i] = px[i] + ADD_ONE_STEP;
    }
}

extern "C" __global__ __aicore__ void add_one_oob(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x);
    AscendC::DataCopy(t, g[256], 64);  // FAULT: reads past the 256 floats of x
}
"""

TEST = """\
#include <cstdlib>
#include <unistd.h>
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "data_utils.h"

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);
extern "C" __global__ __aicore__ void add_one_oob(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);

static const size_t N = 256;

static void RunAddOne(bool readInput)
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    auto* tiling = (AddOneTilingData*)AscendC::GmAlloc(sizeof(AddOneTilingData));
    tiling->n = N;
    if (readInput) {
        ASSERT_TRUE(ReadFile("./add_one_data/input_x.bin", x, N * sizeof(float)));
    }
    ICPU_RUN_KF(add_one, 1, x, y, (uint8_t*)tiling);
    if (readInput) {
        ASSERT_TRUE(WriteFile("./add_one_data/output_y.bin", y, N * sizeof(float)));
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(tiling);
}

static void GetData()
{
    system("cp -rf ../../../../cat/add_one/tests/ut/op_kernel/add_one_data ./");
    system("cd ./add_one_data && python3 gen_data.py");
}

TEST(AddOneTest, compared)
{
    GetData();
    RunAddOne(true);
    system("cd ./add_one_data && python3 compare_data.py 1");
}

TEST(AddOneTest, ran)
{
    RunAddOne(false);
}

TEST(AddOneTest, wrong)
{
    GetData();
    RunAddOne(true);
    system("cd ./add_one_data && python3 compare_data.py 2");
}

TEST(AddOneTest, gtest_fails)
{
    EXPECT_EQ(1 + 1, 3);
}

TEST(AddOneTest, needs_module)
{
    GetData();
    system("cd ./add_one_data && python3 gen_torch.py");
    RunAddOne(true);
}

TEST(AddOneTest, writes_source)
{
    // A test writing into the repository's paths: the scratch tree takes it, the user's tree never does.
    system("echo changed > ../../../../cat/add_one/tests/ut/op_kernel/add_one_data/gen_data.py");
    system("echo new > ../../../../cat/add_one/tests/ut/op_kernel/created_by_test.txt");
}

TEST(AddOneTest, fault)
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * sizeof(float));
    ICPU_RUN_KF(add_one_oob, 1, x, x, x);
    AscendC::GmFree(x);
}

TEST(AddOneTest, crash)
{
    volatile int* p = nullptr;
    *p = 1;
}

TEST(AddOneTest, hang)
{
    // blocked, not spinning: the ~10 s until the runner kills it (its case limit) cost no CPU in the suite
    volatile bool forever = true;
    while (forever) {
        usleep(100000);
    }
}
"""

GEN_DATA = """\
import sys
import numpy as np
if "--broken" in sys.argv:
    raise SystemExit("gen_data: cannot make the data for this case")
np.arange(256, dtype=np.float32).tofile("input_x.bin")
"""

GEN_TORCH = """\
import ascgen_absent_module  # a module no Python has: the data script cannot run
"""

COMPARE_DATA = """\
import sys
import numpy as np
if sys.argv[1:] == ["quiet"]:
    sys.exit(0)
step = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
x = np.fromfile("input_x.bin", np.float32)
y = np.fromfile("output_y.bin", np.float32)
if np.array_equal(y, x + step):
    print("PASSED!")
else:
    print("FAILED!")
"""

CASES = {   # case -> expected status
    "AddOneTest.compared": "passed-compared", "AddOneTest.ran": "passed-ran", "AddOneTest.wrong": "wrong",
    "AddOneTest.gtest_fails": "wrong", "AddOneTest.needs_module": "unsupported",
    "AddOneTest.writes_source": "passed-ran", "AddOneTest.fault": "fault", "AddOneTest.crash": "fault",
    "AddOneTest.hang": "fault",
}


# How ops-nn and ops-math locate a sibling source tree (our own text, the same CMake shapes): the top
# CMakeLists.txt declares the third-party folder as a cache path, cmake/third_party/ looks for the tree
# there by repository name, a Find module's find_path() finds its include folder and lists the folders.
TOP_CMAKE = """\
set(CANN_3RD_LIB_PATH ${CMAKE_CURRENT_SOURCE_DIR}/third_party CACHE STRING "third party sources")
"""
THIRD_PARTY_CMAKE = """\
if(EXISTS "${PROJECT_SOURCE_DIR}/../../base-ci-name")
  get_filename_component(BASE_SOURCE_PATH ${PROJECT_SOURCE_DIR}/../../base-ci-name REALPATH)
elseif(EXISTS "${CANN_3RD_LIB_PATH}/opbase")
  get_filename_component(BASE_SOURCE_PATH ${CANN_3RD_LIB_PATH}/opbase REALPATH)
else()
  set(BASE_SOURCE_PATH ${CANN_3RD_LIB_PATH}/downloaded_opbase)
endif()
"""
FIND_CMAKE = """\
find_path(BASE_INC_DIR
  NAMES op_common/base_marker.h
  PATHS ${BASE_SOURCE_PATH}/include ${TOP_DIR}/base-ci-name/include
  NO_DEFAULT_PATH)
if(BASE_FOUND)
  set(BASE_INC_DIRS ${BASE_INC_DIR} ${BASE_INC_DIR}/../pkg_inc/op_common)
endif()
"""


def sibling_sources(root: Path) -> Path:
    """A folder of CANN source trees side by side (what ASCGEN_CANN_SOURCES names) with one `opbase`."""
    _write(root / "opbase" / "include" / "op_common" / "base_marker.h", "#pragma once\n")
    _write(root / "opbase" / "pkg_inc" / "op_common" / "atvoss" / "sched.h", "#pragma once\n#define ATVOSS_SCHED 1\n")
    return root


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def nn_repo(root: Path) -> Path:
    """An ops-nn-shaped repository with one op `cat/add_one` (UT rule in tests/ut/op_kernel/) and an op
    `cat/two_step` whose rule sits in the op's own CMakeLists.txt, omits the op name and names a
    dependency op, UT_SRC_DIR and MULTI_KERNEL_TARGET."""
    _write(root / "cmake" / "ut.cmake", NN_CMAKE)
    _write(root / "CMakeLists.txt", TOP_CMAKE)
    _write(root / "cmake" / "modules" / "FindBASE.cmake", FIND_CMAKE)     # read before the next one
    _write(root / "cmake" / "third_party" / "base.cmake", THIRD_PARTY_CMAKE)
    _write(root / "tests" / "ut" / "op_kernel" / "data_utils.h", DATA_UTILS)
    _write(root / "tests" / "ut" / "common" / "README", "common UT helpers\n")
    _write(root / "common" / "inc" / "op_kernel" / "shared_const.h", "#pragma once\n#define ADD_ONE_STEP 1.0f\n")
    op = root / "cat" / "add_one"
    ut = op / "tests" / "ut" / "op_kernel"
    _write(op / "op_kernel" / "add_one.cpp", KERNEL)
    _write(ut / "CMakeLists.txt", 'if (UT_TEST_ALL OR OP_KERNEL_UT)\n'
                                  '    AddOpTestCase(add_one "ascend910B1" "-DDTYPE_X=float")  # the rule\n'
                                  'endif()\n')
    _write(ut / "add_one_tiling_def.h", "#pragma once\n#include <cstdint>\n"
                                        "struct AddOneTilingData { uint32_t n; };\n")
    _write(ut / "test_add_one.cpp", TEST)
    _write(ut / "add_one_data" / "gen_data.py", GEN_DATA)
    _write(ut / "add_one_data" / "gen_torch.py", GEN_TORCH)
    _write(ut / "add_one_data" / "compare_data.py", COMPARE_DATA)
    two = root / "cat" / "two_step"
    _write(two / "CMakeLists.txt", 'AddOpTestCase("ascend950pr_9599" "-DDTYPE_X=half" add_one\n'
                                   '              UT_SRC_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tests/ut/op_kernel '
                                   'MULTI_KERNEL_TARGET)\n')
    _write(two / "op_kernel" / "two_step.cpp", "// kernel\n")
    _write(two / "tests" / "ut" / "op_kernel" / "arch35" / "test_two_step_arch35.cpp", "// test\n")
    _write(two / "tests" / "ut" / "op_kernel" / "test_two_step_ignored.cpp", "// not for MULTI_KERNEL_TARGET\n")
    _write(two / "tests" / "ut" / "op_kernel" / "two_step_tiling_def.h", "#pragma once\n")
    info = root / "cat" / "info_named"
    _write(info / "CMakeLists.txt", 'AddOpTestCase(info_named "ascend910B1;ascend950pr_9599" "")\n')
    _write(info / "op_host" / "info_named_def.cpp", INFO_DEF)
    for stem in ("info_named", "info_named_apt"):
        _write(info / "op_kernel" / f"{stem}.cpp", f"// kernel {stem}\n")
    _write(info / "tests" / "ut" / "op_kernel" / "test_info_named_apt.cpp", "// test of the _apt kernel\n")
    _write(info / "tests" / "ut" / "op_kernel" / "info_named_tiling_def.h", "#pragma once\n")
    return root


# An op definition (our own text in the OpDef shape) whose ascend950 config names the kernel file.
INFO_DEF = """\
namespace ops {
class InfoNamed : public OpDef {
public:
    explicit InfoNamed(const char* name) : OpDef(name)
    {
        this->AICore().AddConfig("ascend910b");
        // config.ExtendCfgInfo("opFile.value", "commented_out");
        OpAICoreConfig config950;
        config950.DynamicShapeSupportFlag(true)
            .ExtendCfgInfo("opFile.value", "info_named_apt");
        this->AICore().AddConfig("ascend950", config950);
    }
};
OP_ADD(InfoNamed);
}
"""


def math_repo(root: Path) -> Path:
    """An ops-math-shaped repository with one op `math/scale` (tiling sources from a set() variable)."""
    _write(root / "cmake" / "ut.cmake", MATH_CMAKE)
    _write(root / "tests" / "ut" / "op_kernel" / "data_utils.h", DATA_UTILS)
    op = root / "math" / "scale"
    ut = op / "tests" / "ut" / "op_kernel"
    _write(op / "op_kernel" / "scale.cpp", "// kernel\n")
    _write(ut / "CMakeLists.txt", 'set(scale_tiling_files\n    ${CMAKE_CURRENT_SOURCE_DIR}/../../../op_host/a.cpp\n'
                                  '    ${CMAKE_CURRENT_SOURCE_DIR}/../../../op_host/b.cpp)\n'
                                  'AddOpTestCase(scale "ascend910b;ascend950" "-DDTYPE_X=float -DUT_CUSTOM_TILING_DATA_KEYS=k" '
                                  '"${scale_tiling_files}")\n')
    _write(ut / "scale_tiling.h", "#pragma once\n")
    _write(ut / "test_scale.cpp", "// test\n")
    return root
