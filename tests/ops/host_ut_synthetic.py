"""A small operator repository laid out like ops-nn / ops-math, with op_host tiling UTs whose verdicts are known
(`ascgen ut --host`, tests/ops/test_host_ut.py): a registered tiling function the test finds through the space
registry and a repository helper (tests/ut/common), a failing EXPECT, a crash, a private member read (the UT
build's -fno-access-control), a platform value ascgen's stand-in does not model, an op whose test needs a
header no public CANN tree has, and one whose second case hangs (Ctrl-C)."""
from __future__ import annotations

from pathlib import Path

TILING = """\
#include "register/op_impl_registry.h"
namespace optiling {
static ge::graphStatus TilingPlus(gert::TilingContext* context)
{
    context->SetTilingKey(7);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(Plus).Tiling(TilingPlus);
}  // namespace optiling
"""

HELPER_H = "#pragma once\nint Twice(int x);\n"
HELPER_CPP = '#include "twice_util.h"\nint Twice(int x) { return 2 * x; }\n'

TEST = """\
#include <gtest/gtest.h>
#include <string>
#include "base/registry/op_impl_space_registry_v2.h"
#include "platform/platform_infos_def.h"
#include "twice_util.h"

class Hidden {
    int secret_ = 42;
};

TEST(PlusTiling, registered)
{
    auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
    ASSERT_NE(registry, nullptr);
    auto funcs = registry->GetOpImpl("Plus");
    ASSERT_NE(funcs, nullptr);
    EXPECT_NE(funcs->tiling, nullptr);
    EXPECT_EQ(Twice(3), 6);
}

TEST(PlusTiling, private_member)
{
    Hidden h;
    EXPECT_EQ(h.secret_, 42);
}

TEST(PlusTiling, wrong) { EXPECT_EQ(Twice(3), 7); }

TEST(PlusTiling, crash)
{
    volatile int* p = nullptr;
    *p = 1;
}

TEST(PlusTiling, unmodelled_platform_value)
{
    fe::PlatFormInfos platform;
    platform.Init();
    std::string value;
    platform.GetPlatformRes("SoCInfo", "ai_core_cnt", value);
}
"""

CLOSED_TEST = """\
#include <gtest/gtest.h>
#include "runtime/rt_closed_only.h"

TEST(ClosedTiling, needs_closed_header) { EXPECT_TRUE(true); }
TEST(ClosedTiling, second) { EXPECT_TRUE(true); }
"""

SLOW_TEST = """\
#include <gtest/gtest.h>
#include <unistd.h>

TEST(SlowTiling, a_first) { EXPECT_TRUE(true); }
TEST(SlowTiling, b_hang) { sleep(600); }
TEST(SlowTiling, c_never_started) { EXPECT_TRUE(true); }
"""

CASES = {"PlusTiling.registered": "passed-ran", "PlusTiling.private_member": "passed-ran",
         "PlusTiling.wrong": "wrong", "PlusTiling.crash": "fault",
         "PlusTiling.unmodelled_platform_value": "unsupported"}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def repository(root: Path) -> Path:
    (root / "cmake").mkdir(parents=True)
    _write(root / "CMakeLists.txt", "project(synthetic)\n")
    _write(root / "tests" / "ut" / "common" / "twice_util.h", HELPER_H)
    _write(root / "tests" / "ut" / "common" / "twice_util.cpp", HELPER_CPP)
    for op, test in (("plus", TEST), ("closed", CLOSED_TEST), ("slow", SLOW_TEST)):
        _write(root / "cat" / op / "op_host" / f"{op}_tiling.cpp", TILING.replace("Plus", op.title()))
        _write(root / "cat" / op / "tests" / "ut" / "op_host" / f"test_{op}_tiling.cpp", test)
    return root
