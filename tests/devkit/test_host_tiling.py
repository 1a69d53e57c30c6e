"""The host side of the advanced API on the devkit backend (ascgen/runtime/backends/devkit/host.py,
runtime/devkit/host): the library's own tiling sources built over ascgen's CANN host pieces.

* Layout: every tiling-data class the library declares with the registration macros saves the bytes of
  the kernel struct the tree's own generator (gen_kernel_tiling_data_def.py) makes from the same
  declaration: size and every field, nested structs and arrays included.
* Platform: the values PlatformAscendC answers are the product table's (ascgen/products.py), and a SoC
  the table does not know is an error naming it.
* An advanced-API example (GeGLU) runs unchanged on --backend devkit and passes its own check.

The host library's objects are built once into the test cache, only the tiling sources a program may
need (`needed_advanced`), not all ~100.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ascgen import products
from ascgen.runtime import build
from ascgen.runtime.backends.devkit import toolchain as devkit
from ascgen.runtime.backends.devkit import host as devkit_host
from tests import devkit_tree

PRODUCT = products.get("ascend910b")
STRUCT = re.compile(r"struct (\w+) \{(.*?)\n\};", re.S)
FIELD = re.compile(r"^\s*([\w:]+)\s+(\w+)(?:\[(\d+)\])?\s*(?:=[^;]*)?;", re.M)
SCALARS = {"uint8_t": 0xFF, "int8_t": 0x7F, "char": 0x7F, "uint16_t": 0xFFFF, "int16_t": 0x7FFF,
           "uint32_t": 0xFFFFFFFF, "int32_t": 0x7FFFFFFF, "uint64_t": 2**63, "int64_t": 2**62, "bool": 1,
           "float": 2**20, "double": 2**40}


@pytest.fixture(scope="module")
def tree() -> Path:
    devkit_tree.require()
    return devkit.tree()


def _host_lib(tree, program: str):
    """The host library with the advanced-API sources `program` may need (devkit_host.needed_advanced)."""
    return devkit_host.library(tree, PRODUCT, devkit_host.needed_advanced(tree, [program]))


def _kernel_structs(tree: Path) -> dict[str, list[tuple[str, str, int | None]]]:
    text = (devkit.tiling_dir(tree) / "kernel_tiling" / "kernel_tiling.h").read_text()
    return {name: [(t, f, int(n) if n else None) for t, f, n in FIELD.findall(body)]
            for name, body in STRUCT.findall(text)}


def _fill(structs, name, host, kern, counter, sets, checks):
    """C++ lines that set every field of host object `host` and check it in kernel struct `kern`."""
    for ftype, field, count in structs[name]:
        if ftype in structs:                    # a nested tiling struct
            _fill(structs, ftype, f"{host}.{field}", f"{kern}.{field}", counter, sets, checks)
            continue
        mask = SCALARS[ftype]
        if count is None:
            counter[0] += 1
            v = f"({ftype})({(counter[0] * 2654435761) % (mask + 1) if mask > 1 else 1}ull)"
            sets.append(f"{host}.set_{field}({v});")
            checks.append(f'CHECK({kern}.{field} == {v}, "{kern}.{field}");')
        else:
            counter[0] += 1
            arr = f"a{counter[0]}"
            sets.append(f"{ftype} {arr}[{count}]; for (int i = 0; i < {count}; ++i) {arr}[i] = ({ftype})(i * 7 + {counter[0]}); "
                        f"{host}.set_{field}({arr});")
            checks.append(f'for (int i = 0; i < {count}; ++i) CHECK({kern}.{field}[i] == ({ftype})(i * 7 + {counter[0]}), '
                          f'"{kern}.{field}[i]");')


def _layout_program(tree: Path, structs) -> tuple[str, list[str]]:
    headers = sorted(p.relative_to(tree / "include" / "adv_api") for p in (tree / "include" / "adv_api").rglob("*.h")
                     if "BEGIN_TILING_DATA_DEF" in p.read_text(errors="replace"))
    host_classes = set()
    for h in headers:
        host_classes |= set(re.findall(r"BEGIN_TILING_DATA_DEF\((\w+)\)", (tree / "include" / "adv_api" / h).read_text()))
    names = sorted(n for n in structs if n in host_classes)
    body = []
    for n in names:
        sets, checks, counter = [], [], [0]
        _fill(structs, n, "h", "k", counter, sets, checks)
        body.append(f'{{ optiling::{n} h; AscendC::tiling::{n} k; std::memset(&k, 0xA5, sizeof k);\n'
                    f'  CHECK(h.GetDataSize() == sizeof(k), "sizeof {n}");\n  ' + "\n  ".join(sets) +
                    '\n  h.SaveToBuffer(&k, sizeof k);\n  ' + "\n  ".join(checks) + '\n  ++classes; }')
    text = "\n".join([
        "#include <cstdint>", "#include <cstdio>", "#include <cstring>", '#include "kernel_tiling/kernel_tiling.h"',
        *(f'#include "adv_api/{h}"' for h in headers),
        "static int failures = 0;",
        '#define CHECK(c, what) do { if (!(c)) { std::printf("MISMATCH %s\\n", what); ++failures; } } while (0)',
        "int main() { int classes = 0;", *body, 'std::printf("classes=%d failures=%d\\n", classes, failures);',
        "return failures != 0; }"])
    return text, names


def test_tiling_data_classes_save_the_kernel_structs_bytes(tree, tmp_path):
    structs = _kernel_structs(tree)
    text, names = _layout_program(tree, structs)
    host_lib = _host_lib(tree, text)
    assert len(names) >= 20, f"expected the library's tiling structs, found {names}"
    src = tmp_path / "layout.cpp"
    src.write_text(text)
    flags = [f for f in devkit_host.compile_flags(tree, PRODUCT, host_lib.folder) if f not in ("-shared",)]
    exe = tmp_path / "layout"
    extra, libs = host_lib.link_flags()
    proc = subprocess.run([build.find_compiler(), *flags, *extra, str(src), "-o", str(exe), *libs],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:]
    assert f"classes={len(names)} failures=0" in run.stdout


PLATFORM_MAIN = r'''
#include <cstdio>
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
int main(int argc, char** argv) {
    auto* p = argc > 1 ? platform_ascendc::PlatformAscendCManager::GetInstance(argv[1])
                       : platform_ascendc::PlatformAscendCManager::GetInstance();
    if (p == nullptr) { std::printf("null\n"); return 3; }
    uint64_t ub = 0, l1 = 0, l0a = 0, l0b = 0, l0c = 0;
    p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    std::printf("aic=%u aiv=%u core=%u soc=%d arch=%u ub=%llu l1=%llu l0a=%llu l0b=%llu l0c=%llu ws=%u\n",
                p->GetCoreNumAic(), p->GetCoreNumAiv(), p->GetCoreNum(), (int)p->GetSocVersion(),
                (unsigned)p->GetCurNpuArch(), (unsigned long long)ub, (unsigned long long)l1,
                (unsigned long long)l0a, (unsigned long long)l0b, (unsigned long long)l0c,
                p->GetLibApiWorkSpaceSize());
    return 0;
}
'''


@pytest.fixture(scope="module")
def platform_exe(tree, tmp_path_factory) -> Path:
    """The platform program, compiled once for the tests that run it."""
    host_lib = _host_lib(tree, PLATFORM_MAIN)
    tmp_path = tmp_path_factory.mktemp("platform")
    src = tmp_path / "platform.cpp"
    src.write_text(PLATFORM_MAIN)
    flags = [f for f in devkit_host.compile_flags(tree, PRODUCT, host_lib.folder) if f != "-shared"]
    extra, libs = host_lib.link_flags()
    exe = tmp_path / "platform"
    proc = subprocess.run([build.find_compiler(), *flags, *extra, str(src), "-o", str(exe), *libs],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return exe


def test_platform_answers_come_from_the_product_table(platform_exe):
    exe = platform_exe
    p = PRODUCT
    # The library takes 256 B of UB and L1 off on the 910B family (its KFC reserve); ASCEND910B is
    # SocVersion 1; the 910B family's system workspace is 16 MiB (platform_ascendc.cpp).
    want = (f"aic={p.aic_cores} aiv={p.aiv_cores} core={p.aiv_cores} soc=1 arch={p.npu_arch} "
            f"ub={p.ub_total - 256} l1={p.l1_total - 256} l0a={p.l0a_total} l0b={p.l0b_total} "
            f"l0c={p.l0c_total} ws={16 * 1024 * 1024}")
    for argv in ([], ["Ascend910B1"]):       # the device's SoC (libruntime.so) and a named one
        run = subprocess.run([str(exe), *argv], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == want
    assert want.startswith("aic=24 aiv=48") and "ub=196352" in want and "l0c=131072" in want


def test_an_unknown_soc_is_an_error_naming_it(platform_exe):
    exe = platform_exe
    run = subprocess.run([str(exe), "Ascend999X"], capture_output=True, text=True)
    assert run.returncode != 0
    assert "Ascend999X" in run.stderr and "not in ascgen's product table" in run.stderr
    assert "Ascend910B1" in run.stderr        # the known names are listed


# GeGLU: its host code asks the library's tiling API for the temporary buffer (GetGeGLUMaxMinTmpSize) and
# its main compares with the golden itself. One example keeps the suite's cost to one compile.
EXAMPLE = "examples/01_simd_cpp_api/04_advanced_api/01_activation/geglu"


def test_advanced_api_example_runs_unchanged_and_passes_its_check(tree, tmp_path):
    folder = devkit_tree.extract(tree, EXAMPLE, tmp_path)
    work = folder / "build"
    (work / "input").mkdir(parents=True)
    (work / "output").mkdir()
    gen = subprocess.run([sys.executable, "../scripts/gen_data.py"], cwd=work, capture_output=True, text=True)
    assert gen.returncode == 0, gen.stderr
    run = subprocess.run([sys.executable, "-m", "ascgen", "run", str(folder / "geglu.asc"), "--product", "ascend910b",
                          "--backend", "devkit", "--cwd", str(work)], capture_output=True, text=True,
                         cwd=work, timeout=900)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-3000:]
    assert "test pass!" in run.stdout and "failed" not in run.stdout


def test_a_program_gets_the_tiling_sources_it_names_not_all_of_them(tree):
    """The selection: softmax's tiling for a program calling GetSoftMaxMaxTmpSize, the multi-core matmul's for
    one using MultiCoreMatmulTiling, nothing for the platform program, and far fewer than all (the library's
    matmul example took 4 of 98, softmax 2, geglu 1 when this was written)."""
    everything = devkit_host.advanced_sources(tree)
    names = lambda program: {p.name for p in devkit_host.needed_advanced(tree, [program])}   # noqa: E731
    softmax = names("uint32_t n = AscendC::GetSoftMaxMaxTmpSize(shape, 4, false);")
    matmul = names("matmul_tiling::MultiCoreMatmulTiling tiling(*platform); tiling.GetTiling(t);")
    assert "softmax_tiling.cpp" in softmax and "bmm_tiling.cpp" not in softmax
    assert {"bmm_tiling.cpp", "matmul_tiling_base.cpp"} <= matmul
    assert names(PLATFORM_MAIN) == set() and names("GetGeGLUMaxMinTmpSize(shape, 2, false, mx, mn);") == {"geglu_tiling.cpp"}
    assert len(softmax) < len(everything) / 4 and len(matmul) < len(everything) / 4


def test_a_program_the_selection_misses_is_built_again_with_every_source(tree, monkeypatch):
    """A guess that leaves a tiling function out must not fail (or load) the program: the first link leaves
    the symbol undefined, and the module is built again with the whole library. Here the selection is made
    to miss (nothing) and the whole library is made small (softmax's source only), so the test builds little."""
    from ascgen.runtime.loader import load
    softmax = [s for s in devkit_host.advanced_sources(tree) if s.name == "softmax_tiling.cpp"]
    monkeypatch.setattr(devkit_host, "needed_advanced", lambda root, texts: [])
    monkeypatch.setattr(devkit_host, "advanced_sources", lambda root: softmax)
    built = []
    real = devkit_host.library
    monkeypatch.setattr(devkit_host, "library", lambda root, product, advanced=None:
                        built.append(None if advanced is None else list(advanced)) or real(root, product, advanced))
    module = load(MISSED, "ascend910b", backend="devkit", filename="missed.cpp")
    assert built == [[], None]                        # the guess, then every source
    out = np.zeros(1, np.uint32)
    module.launch("tmp_size", 1, out)
    assert out[0] > 0                                 # GetSoftMaxMaxTmpSize ran, from the whole library


MISSED = r"""
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
extern "C" __global__ __aicore__ void tmp_size(GM_ADDR out) {
    AscendC::GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer((__gm__ uint32_t*)out, 1);
    std::vector<int64_t> dims = {16, 64};
    g.SetValue(0, AscendC::GetSoftMaxMaxTmpSize(ge::Shape(dims), 4, false));
}
"""
