"""Issue 25 point 9, process life: a fork taken while another thread is inside launch() gives a child that
launches or says why (never hangs on the copied run lock); every compiler failure is a CompileError whose
first line is the useful one (a "compiler" that writes nothing, a full disk under 90 lines of linker noise);
two cores crashing at once give one whole crash line."""
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ascgen.errors import CompileError, KernelTimeoutError, SpecError
from ascgen.runtime import build, load
from tests.paths import RUNTIME_KERNELS

SOURCE = build.SourceText('extern "C" int answer() { return 42; }\n', "answer.cpp")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _child_outcome(launch) -> str:
    """Fork; the child runs `launch` and reports through a pipe; bounded by a deadline (a hang is a failure)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                  # the child: never returns into pytest
        try:
            os.close(read)
            try:
                launch()
                outcome = "launched"
            except SpecError as exc:
                outcome = f"SpecError: {exc}"
            except BaseException as exc:          # noqa: BLE001 - reported to the parent as text
                outcome = f"{type(exc).__name__}: {exc}"
            os.write(write, outcome.encode()[:4000])
        finally:
            os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(read)
        pytest.fail("the forked child hung (the run lock copied from the parent is never released)")
    with os.fdopen(read, "rb") as f:
        return f.read().decode()


def test_a_fork_during_another_threads_launch_gives_a_child_that_says_why_instead_of_hanging():
    faults = load(RUNTIME_KERNELS / "faults.cpp", product="ascend910b")
    x = np.zeros(4, np.float32)
    inside = threading.Event()
    errors = []

    def long_launch():
        inside.set()
        try:
            faults.launch("spin_with_api", 2, x, 4, time_limit_s=1.0)
        except KernelTimeoutError as exc:
            errors.append(exc)

    worker = threading.Thread(target=long_launch)
    worker.start()
    inside.wait()
    time.sleep(0.3)                               # the worker is inside launch(), holding the run lock
    outcome = _child_outcome(lambda: faults.launch("gm_out_of_bounds", 1, np.zeros(256, np.float32), 256))
    worker.join()
    assert errors, "the parent's launch should have reached its time limit"
    assert outcome.startswith("SpecError") and "forked" in outcome and "spawn" in outcome, outcome
    # A fork taken while no launch runs is a child that launches.
    assert _child_outcome(lambda: faults.launch("gm_out_of_bounds", 1, np.zeros(256, np.float32), 256)) == "launched"


def test_a_compiler_that_succeeds_without_output_is_a_compile_error(cache, monkeypatch):
    monkeypatch.setenv("ASCGEN_CXX", "/bin/true")
    with pytest.raises(CompileError) as info:
        build.compile_shared([SOURCE], name="nothing")
    first = str(info.value).splitlines()[0]
    assert "/bin/true" in first and "wrote no shared object" in first and "ASCGEN_CXX" in first


NOISY_LINKER = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "noisy c++ 1.0"; exit 0; fi
i=0
while [ $i -lt 45 ]; do
  echo "/usr/bin/ld: warning: libfoo.so.$i, needed by libbar.so, not found (try using -rpath or -rpath-link)" >&2
  i=$((i+1))
done
echo "/usr/bin/ld: final link failed: No space left on device" >&2
i=0
while [ $i -lt 45 ]; do
  echo "/usr/bin/ld: /tmp/ccXXXX$i.o: in function 'f$i': undefined reference to 'g$i'" >&2
  i=$((i+1))
done
echo "collect2: error: ld returned 1 exit status" >&2
exit 1
"""


def test_a_full_disk_is_the_first_line_however_much_linker_noise_surrounds_it(cache, tmp_path, monkeypatch):
    fake = tmp_path / "noisy-c++"
    fake.write_text(NOISY_LINKER)
    fake.chmod(0o755)
    monkeypatch.setenv("ASCGEN_CXX", str(fake))
    with pytest.raises(CompileError) as info:
        build.compile_shared([SOURCE], name="full")
    lines = str(info.value).splitlines()
    assert "no space left on device" in lines[0].lower() and "full" in lines[0], lines[:3]
    assert "ASCGEN_CACHE_DIR" in lines[1]
    assert len(lines) < 15


def test_a_compiler_that_fails_silently_is_a_compile_error_saying_so(cache, monkeypatch):
    monkeypatch.setenv("ASCGEN_CXX", "/bin/false")
    with pytest.raises(CompileError, match=r"/bin/false exited with status 1 and printed nothing"):
        build.compile_shared([SOURCE], name="silent")


CRASHING_PROGRAM = r"""
#include "acl/acl.h"
#include "tikicpulib.h"
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void all_crash(GM_ADDR x, uint32_t n)
{
    volatile float* p = reinterpret_cast<volatile float*>(static_cast<uintptr_t>(n) * 0);
    AscendC::SyncAll();
    *p = 1.0f;
}
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float* x = nullptr;
    aclrtMalloc((void**)&x, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    all_crash<<<16, nullptr, stream>>>((uint8_t*)x, 4);
    aclrtSynchronizeStream(stream);
    return 0;
}
"""


def test_sixteen_cores_crashing_at_once_print_one_whole_line(tmp_path):
    """Regression guard: the in-process crash line is written once, by one core, in one write(2)
    (runtime/core/host_guard.cpp); the interleaving itself was not reproduced on a 2-core machine."""
    program = tmp_path / "crash.asc"
    program.write_text(CRASHING_PROGRAM)
    proc = subprocess.run([sys.executable, "-m", "ascgen", "run", str(program), "--product", "ascend910b"],
                          capture_output=True, text=True, timeout=300, cwd=os.getcwd())
    assert proc.returncode != 0
    lines = [ln for ln in proc.stderr.splitlines() if "ascgen: error" in ln]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("ascgen: error: the host program") and lines[0].endswith("if a kernel crashed).")


BACKGROUND_CORE = """
import os, sys
from ascgen.runtime import core
core.build_in_background()
first = core._background
core.build_in_background()                      # one build at a time
assert core._background is first
if len(sys.argv) > 1:                           # the settings change before the result is taken
    os.environ["ASCGEN_CACHE_DIR"] = sys.argv[1]
    os.environ.pop("ASCGEN_CXX", None)
try:
    path = core.library_path()
except Exception as exc:                        # raised where it is waited for
    print(f"raised {type(exc).__name__}: {exc}")
    sys.exit(0)
print("built", path.is_file(), path.is_relative_to(os.environ["ASCGEN_CACHE_DIR"]))
"""


def _background_core(cache, *args, cxx=None):
    env = {**os.environ, "ASCGEN_CACHE_DIR": str(cache)}
    if cxx:
        env["ASCGEN_CXX"] = str(cxx)
    return subprocess.run([sys.executable, "-c", BACKGROUND_CORE, *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=env)


def test_the_core_built_in_the_background_is_the_one_loaded_and_a_failed_one_is_built_again(tmp_path):
    suite_cache = Path(os.environ["ASCGEN_CACHE_DIR"])      # the session's: its core is built once (7 s of CPU)
    ok = _background_core(suite_cache)
    assert ok.stdout.strip() == "built True True", ok.stdout + ok.stderr
    broken = tmp_path / "broken-cxx"
    broken.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'broken 1'; exit 0; fi\n"
                      "echo 'broken: cannot compile anything' >&2\nexit 1\n")
    broken.chmod(0o755)
    failed = _background_core(tmp_path / "other", cxx=broken)
    assert failed.stdout.startswith("raised CompileError:") and "cannot compile anything" in failed.stdout, \
        failed.stdout + failed.stderr
    # A pytest process changes settings between tests: what the background built with the old ones (a broken
    # compiler, a temporary cache folder since removed) must not be what a later load gets.
    moved = _background_core(tmp_path / "third", suite_cache, cxx=broken)
    assert moved.stdout.strip() == "built True True", moved.stdout + moved.stderr


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="this kernel has no autogroup scheduling")
def test_a_tool_started_by_a_lowered_thread_keeps_its_niceness_in_its_own_session():
    """Each compiler runs in a session of its own; with autogroup scheduling the session is a group whose
    weight ignores the niceness the process inherited, so the core's background build would take as much
    CPU as the compile the user waits for. The tool sets its group's niceness to its own."""
    seen = {}

    def lowered():
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        seen["lowered"] = build.run_tool(["sh", "-c", "cat /proc/self/autogroup"]).stdout
    thread = threading.Thread(target=lowered)
    thread.start()
    thread.join()
    seen["normal"] = build.run_tool(["sh", "-c", "cat /proc/self/autogroup"]).stdout
    assert seen["lowered"].strip().endswith("nice 10"), seen
    assert seen["normal"].strip().endswith("nice 0"), seen
