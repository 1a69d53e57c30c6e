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
