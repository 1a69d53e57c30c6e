"""Product facts reach C++ once: runtime/common/ascgen_arch.h is what ascgen/products.py generates today, the
builtin library's memories and default pipes are read from it, and the product table's cube memories are
the library's own constants (asc-devkit impl/basic_api/utils/kernel_utils_constants.h)."""
from __future__ import annotations

import re

import pytest

from ascgen import products
from ascgen.runtime import product_cxx
from tests import devkit_tree
from tests.library import harness

KB = 1024


def test_the_committed_arch_header_is_what_the_product_table_generates():
    assert product_cxx.arch_path().read_text() == product_cxx.arch_header(), (
        "runtime/common/ascgen_arch.h is stale: run "
        "python -c 'from ascgen.runtime import product_cxx; product_cxx.write_arch_header()'")


def test_products_of_one_arch_that_disagree_are_a_named_error(monkeypatch):
    a, b = (p for p in products.all() if p.npu_arch == 2201)
    monkeypatch.setattr(products, "_TABLE", (a, b.__class__(**{**b.__dict__, "l0c_total": 256 * KB})))
    with pytest.raises(ValueError, match=rf"{b.id} and {a.id} share __NPU_ARCH__ 2201 but not l0c_total"):
        product_cxx.arch_rows()


CAPACITIES = r'''
#include "kernel_operator.h"
#include <cstdio>
using namespace AscendC;
// SetNextTaskStart's default pipes: the specialisation SetNextTaskStart<> names is one of these.
#define PIPES(aiv, aic) \
    if (&SetNextTaskStart<> == &SetNextTaskStart<aiv, aic>) std::printf("pipes=%d,%d\n", int(aiv), int(aic));
int main() {
    using ascgen::lib::Mem;
    using ascgen::lib::mem_capacity;
    std::printf("L1=%llu L0A=%llu L0B=%llu L0C=%llu\n", (unsigned long long)mem_capacity(Mem::L1),
                (unsigned long long)mem_capacity(Mem::L0A), (unsigned long long)mem_capacity(Mem::L0B),
                (unsigned long long)mem_capacity(Mem::L0C));
    PIPES(PIPE_MTE3, PIPE_MTE3) PIPES(PIPE_MTE3, PIPE_FIX) PIPES(PIPE_MTE2, PIPE_FIX) PIPES(PIPE_MTE3, PIPE_M)
}
'''


# 2002 is the arch whose L1 the builtin library once fixed at 512 KB (the table and the library say 1 MB).
@pytest.mark.parametrize("product_id", ["ascend310p", "ascend950"])
def test_builtin_library_memories_and_default_pipes_are_the_product_tables(product_id):
    p = products.get(product_id)
    res = harness.run(harness.build("capacities", CAPACITIES, arch=p.npu_arch))
    assert res.returncode == 0, res.stderr.decode()
    want = (f"L1={p.l1_total} L0A={p.l0a_total} L0B={p.l0b_total} L0C={p.l0c_total}\n"
            f"pipes={products.PIPE_NUMBERS[p.default_pipes[0]]},{products.PIPE_NUMBERS[p.default_pipes[1]]}\n")
    assert res.stdout.decode() == want


def _library_memories(text: str) -> dict[int, dict[str, int]]:
    """TOTAL_L1_SIZE / TOTAL_L0C_SIZE per __NPU_ARCH__ branch of kernel_utils_constants.h, and the
    L0A / L0B sizes it sets for every arch (the 3003 / 3113 branches set their own; not in the table)."""
    found: dict[int, dict[str, int]] = {}
    archs: list[int] = []
    common = {m: int(v) * KB for m, v in re.findall(r"^const uint32_t TOTAL_(L0[AB])_SIZE = (\d+) \* 1024;", text, re.M)}
    for line in text.splitlines():
        if re.match(r"#(el)?if\b", line) and "__NPU_ARCH__" in line:
            archs = [int(a) for a in re.findall(r"__NPU_ARCH__ == (\d+)", line)]
            for a in archs:
                found.setdefault(a, dict(common))
        m = re.match(r"const uint32_t TOTAL_(L1|L0C)_SIZE = (\d+) \* 1024", line)
        if m:
            for a in archs:
                found[a][m.group(1)] = int(m.group(2)) * KB
    return found


def test_the_product_tables_cube_memories_are_the_librarys_constants():
    tree = devkit_tree.require()
    lib = _library_memories(devkit_tree.read(tree, "impl/basic_api/utils/kernel_utils_constants.h"))
    for row in product_cxx.arch_rows():
        want = lib[row["npu_arch"]]
        got = {"L1": row["l1_total"], "L0A": row["l0a_total"], "L0B": row["l0b_total"], "L0C": row["l0c_total"]}
        # 2201: TOTAL_L1_SIZE is 512 KB less the library's 128 B KFC reserve; the table keeps the hardware size.
        assert got == {k: want[k] for k in got}, f"__NPU_ARCH__ {row['npu_arch']}"
    assert lib[2002]["L1"] == lib[1001]["L1"] == lib[3002]["L1"] == 1024 * KB
