"""ascgen ut's gtest main (ascgen/ut/plan.py GTEST_MAIN): inside the case server the executable is Python, so a
test that finds its data next to its executable (readlink("/proc/self/exe"), ops-nn sparse4to2quant_matmul's
CSV of cases) is given <working folder>/ut_program, 4 levels below the repository as in the build."""
import shutil
import subprocess

import pytest

from ascgen.ut import plan

TEST = r"""
#include <gtest/gtest.h>
#include <climits>
#include <string>
#include <unistd.h>
TEST(Exe, NextToTheWorkingFolder) {
    char path[PATH_MAX], cwd[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path);
    ASSERT_GT(n, 0);
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    EXPECT_EQ(std::string(path, n), std::string(cwd) + "/ut_program");
    EXPECT_EQ(readlink("/no/such/link", path, sizeof path), -1);     // any other path: the real readlink
}
"""


def test_the_executable_of_a_ut_program_is_in_its_working_folder(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    (tmp_path / "main.cpp").write_text(plan.GTEST_MAIN)
    (tmp_path / "t.cpp").write_text(TEST)
    build = subprocess.run(["g++", "-std=c++17", "-fvisibility=hidden", "main.cpp", "t.cpp", "-o", "prog",
                            "-lgtest", "-pthread"], cwd=tmp_path, capture_output=True, text=True)
    if build.returncode != 0 and "gtest" in build.stderr:
        pytest.skip("needs googletest (libgtest-dev)")
    assert build.returncode == 0, build.stderr[-2000:]
    work = tmp_path / "build" / "0" / "ut" / "op_kernel"
    work.mkdir(parents=True)
    run = subprocess.run([str(tmp_path / "prog")], cwd=work, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "[  PASSED  ] 1 test" in run.stdout
