"""runtime/common/securec.h: the bounds-checked functions of Huawei's securec, as the operator repositories'
UTs and the asc-devkit host sources call them, checked against the library's documented contract (return
codes, what an error writes), and reached through tikicpulib.h without an include of its own, as CANN's
CPU-debug header provides it."""
from __future__ import annotations

import subprocess

from ascgen import resources
from ascgen.runtime import build

PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "securec.h"

static int bad = 0;
#define CHECK(cond) do { if (!(cond)) { std::printf("FAIL line %d: %s\n", __LINE__, #cond); ++bad; } } while (0)

int main() {
    char b[8];
    // memset_s
    CHECK(memset_s(b, 8, 'x', 8) == EOK && std::memcmp(b, "xxxxxxxx", 8) == 0);
    CHECK(memset_s(b, 4, 'y', 5) == ERANGE_AND_RESET && std::memcmp(b, "yyyyxxxx", 8) == 0);   // fills destMax with c
    CHECK(memset_s(nullptr, 4, 0, 1) == EINVAL);
    CHECK(memset_s(b, 0, 'z', 1) == ERANGE && b[0] == 'y');
    CHECK(memset_s(b, 0, 'z', 0) == EOK);
    CHECK(memset_s(b, SECUREC_MEM_MAX_LEN + 1, 0, 1) == ERANGE && b[0] == 'y');
    // memcpy_s: errors clear the whole destination
    std::memset(b, 'q', 8);
    CHECK(memcpy_s(b, 8, "abcdefgh", 8) == EOK && std::memcmp(b, "abcdefgh", 8) == 0);
    CHECK(memcpy_s(b, 4, "0123456", 5) == ERANGE_AND_RESET && std::memcmp(b, "\0\0\0\0efgh", 8) == 0);
    std::memcpy(b, "abcdefgh", 8);
    CHECK(memcpy_s(b, 8, nullptr, 1) == EINVAL_AND_RESET && b[0] == 0 && b[7] == 0);
    CHECK(memcpy_s(nullptr, 8, "a", 1) == EINVAL);
    CHECK(memcpy_s(b, 0, "a", 0) == ERANGE);
    std::memcpy(b, "abcdefgh", 8);
    CHECK(memcpy_s(b + 1, 7, b, 4) == EOVERLAP_AND_RESET && b[0] == 'a' && b[1] == 0 && b[7] == 0);
    std::memcpy(b, "abcdefgh", 8);
    CHECK(memcpy_s(b, 8, b, 8) == EOK && b[7] == 'h');          // the same buffer is no overlap
    CHECK(memcpy_s(b, 8, "z", 0) == EOK && b[0] == 'a');
    // memmove_s allows overlap
    CHECK(memmove_s(b + 1, 7, b, 4) == EOK && std::memcmp(b, "aabcdfgh", 8) == 0);
    CHECK(memmove_s(b, 2, b, 3) == ERANGE_AND_RESET && b[0] == 0 && b[1] == 0 && b[2] == 'b');
    // strcpy_s / strncpy_s
    CHECK(strcpy_s(b, 8, "1234567") == EOK && std::strcmp(b, "1234567") == 0);
    CHECK(strcpy_s(b, 7, "1234567") == ERANGE_AND_RESET && b[0] == 0);
    CHECK(strcpy_s(b, 8, nullptr) == EINVAL_AND_RESET && b[0] == 0);
    CHECK(strcpy_s(b, 0, "a") == ERANGE);
    CHECK(strncpy_s(b, 8, "abcdefghij", 3) == EOK && std::strcmp(b, "abc") == 0);
    CHECK(strncpy_s(b, 8, "abcdefghij", 8) == ERANGE_AND_RESET && b[0] == 0);
    CHECK(strncpy_s(b, 8, "abcdefghij", 7) == EOK && std::strcmp(b, "abcdefg") == 0);
    CHECK(strncpy_s(b, 8, "ab", 0) == EOK && b[0] == 0);
    std::strcpy(b, "abcd");
    CHECK(strcpy_s(b + 1, 7, b) == EOVERLAP_AND_RESET && b[1] == 0);
    // strcat_s / strncat_s
    std::strcpy(b, "ab");
    CHECK(strcat_s(b, 8, "cde") == EOK && std::strcmp(b, "abcde") == 0);
    CHECK(strcat_s(b, 8, "fgh") == ERANGE_AND_RESET && b[0] == 0);    // 5 + 3 + 1 > 8
    std::memset(b, 'x', 8);
    CHECK(strcat_s(b, 8, "a") == EINVAL_AND_RESET && b[0] == 0);      // destination not terminated
    std::strcpy(b, "ab");
    CHECK(strncat_s(b, 8, "cdefghij", 2) == EOK && std::strcmp(b, "abcd") == 0);
    CHECK(strncat_s(b, 8, "efghij", 4) == ERANGE_AND_RESET && b[0] == 0);
    // the printf family: characters written, else -1 with the destination emptied
    CHECK(sprintf_s(b, 8, "%d-%s", 42, "ab") == 5 && std::strcmp(b, "42-ab") == 0);
    CHECK(sprintf_s(b, 8, "%s", "12345678") == -1 && b[0] == 0);
    CHECK(sprintf_s(nullptr, 8, "x") == -1);
    CHECK(snprintf_s(b, 8, 7, "%s", "1234567") == 7 && std::strcmp(b, "1234567") == 0);
    CHECK(snprintf_s(b, 8, 3, "%s", "12345") == -1 && std::strcmp(b, "123") == 0);   // truncated as asked
    CHECK(snprintf_s(b, 8, 8, "%s", "12345678") == -1 && b[0] == 0);                 // does not fit
    std::printf("bad %d\n", bad);
    return bad != 0;
}
"""

THROUGH_TIKICPULIB = r"""
#include "tikicpulib.h"
int main() { char b[4]; return memset_s(b, sizeof b, 0, sizeof b) == EOK && strcpy_s(b, sizeof b, "ab") == EOK ? 0 : 1; }
"""


def _compile_and_run(tmp_path, source: str, *flags: str) -> subprocess.CompletedProcess:
    src, exe = tmp_path / "t.cpp", tmp_path / "t"
    src.write_text(source)
    cc = subprocess.run([build.find_compiler(), "-std=c++17", "-Wall", "-Werror", "-Wno-format-truncation",
                         f"-I{resources.common_dir()}", *flags, str(src), "-o", str(exe)],
                        capture_output=True, text=True, timeout=300)
    assert cc.returncode == 0, cc.stderr[-3000:]
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


def test_every_function_keeps_the_documented_contract(tmp_path):
    r = _compile_and_run(tmp_path, PROGRAM)
    assert r.returncode == 0 and "bad 0" in r.stdout, r.stdout


def test_the_header_is_reachable_from_both_devkit_sides_by_its_role():
    # one file, in common/: the layering table lets the kernel side (devkit) and the host side
    # (devkit-host) include it, and no other copy shadows it on either include path
    from tests.test_layering_cxx import INCLUDE_DIRS, resolve
    for rel in ("runtime/devkit/include/tikicpulib.h", "runtime/devkit/host/include/register/tilingdata_base.h"):
        assert resolve(rel, "securec.h") == "runtime/common/securec.h", rel
    assert all("runtime/common" in dirs for dirs in INCLUDE_DIRS.values())
