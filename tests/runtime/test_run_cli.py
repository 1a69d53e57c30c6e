"""`ascgen run` on hand-written programs (<<<>>>, ICPU_RUN_KF, acl) and single kernels."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import devkit_tree
from tests.paths import REPO, RUNTIME_KERNELS

KERNELS = RUNTIME_KERNELS
REPO = REPO


def ascgen(*args, cwd=None, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "ascgen", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env=env)


def line_of(path: Path, marker: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if marker in ln)


def test_program_with_chevron_and_icpu_launches_runs():
    r = ascgen("run", str(KERNELS / "program.asc"), "--product", "ascend910b")
    assert r.returncode == 0, r.stderr
    assert "wrong=0 args=1" in r.stdout


def test_program_arguments_and_a_fault_in_a_launch():
    src = KERNELS / "program.asc"
    r = ascgen("run", str(src), "--product", "ascend910_93", "--args", "fault")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "wrong=0 args=2" in r.stdout and "not reached" not in r.stdout
    assert f"program.asc:{line_of(src, 'LINE:write_past')}" in r.stderr
    assert "write_past" in r.stderr


def test_cwd_is_where_the_program_runs(tmp_path):
    prog = tmp_path / "reader.cpp"
    prog.write_text('#include <cstdio>\n#include "acl/acl.h"\n#include "kernel_operator.h"\n'
                    'int main() { FILE* f = std::fopen("./input/x.txt", "r"); int v = 0;\n'
                    ' if (f) { std::fscanf(f, "%d", &v); std::fclose(f); } std::printf("v=%d\\n", v); return v == 42 ? 0 : 1; }\n')
    (tmp_path / "run" / "input").mkdir(parents=True)
    (tmp_path / "run" / "input" / "x.txt").write_text("42")
    r = ascgen("run", str(prog), "--cwd", str(tmp_path / "run"))
    assert r.returncode == 0 and "v=42" in r.stdout, (r.stdout, r.stderr)


def test_unsupported_acl_api_fails_at_compile_time_naming_it(tmp_path):
    prog = tmp_path / "uses_unsupported.asc"
    prog.write_text('#include "acl/acl.h"\n#include "kernel_operator.h"\n'
                    "int main() {\n  aclrtSetOpWaitTimeout(10);\n  return 0;\n}\n")
    r = ascgen("run", str(prog))
    assert r.returncode == 2
    assert "uses_unsupported.asc:4" in r.stderr and "aclrtSetOpWaitTimeout" in r.stderr


def test_a_source_without_main_asks_for_kernel():
    r = ascgen("run", str(KERNELS / "add_relu.cpp"))
    assert r.returncode == 2 and "--kernel" in r.stderr


def test_kernel_mode_reads_and_writes_files(tmp_path):
    n = 5000
    x = (np.arange(n, dtype=np.float32) - 2500)
    x.tofile(tmp_path / "x.bin")
    r = ascgen("run", str(KERNELS / "add_relu.cpp"), "--kernel", "add_relu", "--block-dim", "4",
               "--arg", "in:x.bin", "--arg", "in:x.bin", "--arg", f"out:z.bin:{4 * n}", "--arg", str(n),
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    z = np.fromfile(tmp_path / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, np.maximum(2 * x, 0))


def test_isolated_program_crash_is_reported(tmp_path):
    prog = tmp_path / "crash.asc"
    prog.write_text('#include "acl/acl.h"\n#include "kernel_operator.h"\n'
                    '__global__ __vector__ void boom(GM_ADDR x) {\n'
                    "    volatile int* p = nullptr;\n"
                    "    if (AscendC::GetBlockIdx() == 2) *p = 1;\n}\n"
                    "int main() { void* d; aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);\n"
                    "  boom<<<4, nullptr, nullptr>>>((GM_ADDR)d); return 0; }\n")
    r = ascgen("run", str(prog), "--isolated")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "SIGSEGV" in r.stderr and "crash.asc:5" in r.stderr and "AIV2" in r.stderr and "boom" in r.stderr
    # in-process the process cannot survive, but it says what died and how to get the report
    r = ascgen("run", str(prog))
    assert r.returncode == -11, (r.stdout, r.stderr)
    assert f"the host program {prog} died of SIGSEGV" in r.stderr and "ascgen run --isolated" in r.stderr


def test_an_emitted_host_project_runs_from_several_sources(tmp_path):
    """`ascgen emit --host` writes main.cpp (acl, calls add_relu_do) and add_relu.cpp (kernel + <<<>>>)."""
    out = tmp_path / "proj"
    r = ascgen("emit", str(REPO / "examples" / "add_relu.py"), "-p", "ascend910_93", "-o", str(out), "--host")
    assert r.returncode == 0, r.stderr
    r = ascgen("run", str(out / "main.cpp"), str(out / "add_relu.cpp"), "--product", "ascend910_93", "--cwd", str(out))
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert "add_relu: pass" in r.stdout


def test_several_sources_need_exactly_one_main(tmp_path):
    a, b = tmp_path / "a.cpp", tmp_path / "b.cpp"
    a.write_text("int main() { return 0; }\n")
    b.write_text("int main() { return 1; }\n")
    r = ascgen("run", str(a), str(b))
    assert r.returncode == 2 and "main() is defined in several sources" in r.stderr


def test_icpu_run_kf_takes_a_capture_less_lambda_and_a_template_instance():
    r = ascgen("run", str(KERNELS / "icpu_callables.cpp"), "--product", "ascend910b")
    assert r.returncode == 0, r.stderr
    assert "bad 0" in r.stdout


def _run_icpu_program(name: str, backend: str):
    if backend == "devkit":
        devkit_tree.require()
    r = ascgen("run", str(KERNELS / name), "--product", "ascend910b", "--backend", backend)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("backend", ["builtin", "devkit"])
def test_icpu_run_kf_runs_with_the_mode_set_kernel_mode_set(backend):
    assert "bad 0" in _run_icpu_program("icpu_kernel_mode.cpp", backend)


@pytest.mark.parametrize("backend", ["builtin", "devkit"])
def test_icpu_run_kf_runs_a_kernel_the_analysis_cannot_see_in_cann_s_default_mode_mix(backend):
    out = _run_icpu_program("icpu_macro_kernel.cpp", backend)
    assert "aic 2 aiv 4" in out, out       # 2 blocks of 1 AIC + 2 AIV; before: "aic 0 aiv 2"


def test_every_icpu_run_kf_launch_has_a_system_workspace_as_cann_s_launcher_gives_it():
    devkit_tree.require()
    r = ascgen("run", str(KERNELS / "icpu_system_workspace.cpp"), "--product", "ascend910b", "--backend", "devkit")
    assert "written 4 of 4" in r.stdout, r.stdout + r.stderr[-2000:]
    assert r.returncode == 0


def test_a_kernel_declared_in_the_main_source_and_defined_in_another_runs_with_its_workspace(tmp_path):
    """Both sources list the kernel (a kernel UT's test declares what the op's kernel file defines): the
    workspace registration of each source's kernels must name it once (stateless_sample_multinomial,
    dynamic_rnnv2 and apply_gradient_descent failed to compile: a redefinition in the wrapper)."""
    devkit_tree.require()
    decl = 'extern "C" __global__ __aicore__ void fill(GM_ADDR out, GM_ADDR workspace)'
    (tmp_path / "kernel.cpp").write_text('#include "kernel_operator.h"\n' + decl + " {\n"
                                         "    if (GetSysWorkSpacePtr() == nullptr) return;\n"
                                         "    AscendC::GlobalTensor<int32_t> o;\n"
                                         "    o.SetGlobalBuffer((__gm__ int32_t*)out, 8);\n"
                                         "    o.SetValue(AscendC::GetBlockIdx(), 5);\n}\n")
    (tmp_path / "main.cpp").write_text(
        '#include <cstdio>\n#include "tikicpulib.h"\n#include "kernel_operator.h"\n' + decl + ";\n"
        "int main() { int32_t* o = (int32_t*)AscendC::GmAlloc(32); o[0] = o[1] = 0;\n"
        "  AscendC::SetKernelMode(KernelMode::AIV_MODE);\n"
        "  ICPU_RUN_KF(fill, 2, (GM_ADDR)o, (GM_ADDR)nullptr);\n"
        '  std::printf("sum %d\\n", o[0] + o[1]); AscendC::GmFree(o); return 0; }\n')
    r = ascgen("run", str(tmp_path / "main.cpp"), str(tmp_path / "kernel.cpp"), "--product", "ascend910b",
               "--backend", "devkit")
    assert "sum 10" in r.stdout, r.stdout + r.stderr[-2000:]


def test_a_forced_include_sees_the_d_macros_as_with_gcc(tmp_path):
    # g++ processes every -D before any -include: a UT's tiling header tests __CCE_KT_TEST__ (a -D of the
    # build) to pick its CPU branch
    (tmp_path / "forced.h").write_text("#if defined(MODE) && MODE == 7\n#define SEEN 1\n#else\n#define SEEN 0\n#endif\n")
    prog = tmp_path / "main.cpp"
    prog.write_text('#include <cstdio>\nint main() { std::printf("seen %d mode %d\\n", SEEN, MODE); return 0; }\n')
    r = ascgen("run", str(prog), "--product", "ascend910b", "-D", "MODE=7", "--include", str(tmp_path / "forced.h"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "seen 1 mode 7" in r.stdout


def test_icpu_run_kf_given_a_generic_lambda_is_a_compile_error_saying_why(tmp_path):
    prog = tmp_path / "generic.cpp"
    prog.write_text('#include "tikicpulib.h"\n#include "kernel_operator.h"\n'
                    "__global__ __aicore__ void k(GM_ADDR x) {}\n"
                    "int main() { GM_ADDR p = (GM_ADDR)AscendC::GmAlloc(32); int s = 1;\n"
                    "  auto kernel = [s](auto x) { k(x + s); };\n"
                    "  ICPU_RUN_KF(kernel, 1, p); return 0; }\n")
    r = ascgen("run", str(prog), "--product", "ascend910b")
    assert r.returncode != 0
    assert "a generic lambda" in r.stderr, r.stderr[-2000:]
