"""Issue 9 class 7: `do { ... } while (0)` written out (not through a macro) is a block, as docs/check.md
says, on the AST path too; `while (1)` stays a loop."""
from ascgen.cli import main

SOURCE = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n)
{
    AscendC::WaitPreTaskEnd();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    g.SetValue(0, 1.0f);
    do { AscendC::SetNextTaskStart(); } while (COND);
}
"""


def check(tmp_path, cond, capsys):
    path = tmp_path / f"dowhile_{cond}.cpp"
    path.write_text(SOURCE.replace("COND", cond))
    code = main(["check", str(path), "--product", "ascend910_93"])
    return code, capsys.readouterr().out


def test_do_while_zero_is_a_block(tmp_path, capsys):
    code, out = check(tmp_path, "0", capsys)
    assert code == 0 and "tasksync-in-loop" not in out, out


def test_do_while_one_is_a_loop(tmp_path, capsys):
    code, out = check(tmp_path, "1", capsys)
    assert code == 1 and "tasksync-in-loop" in out, out


TWO_KERNELS = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void with_calls(GM_ADDR x, uint32_t n)
{
    AscendC::WaitPreTaskEnd();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    g.SetValue(0, 1.0f);
    AscendC::SetNextTaskStart();
}
extern "C" __global__ __aicore__ void without_calls(GM_ADDR x, uint32_t n)
{
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    g.SetValue(0, 2.0f);
}
"""


def test_call_free_kernel_in_a_task_sync_source_is_reported_like_the_runtime(tmp_path, capsys):
    """The runtime raises SyncCountError for `without_calls` in a SuperKernel (op-wide detection, as the
    SK compiler does it; tests/superkernel covers that side); the checker now says the same."""
    path = tmp_path / "two.cpp"
    path.write_text(TWO_KERNELS)
    code = main(["check", str(path), "--product", "ascend910_93"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "tasksync-op-wide" in out and "without_calls" in out and f"{path}:10:" in out, out
