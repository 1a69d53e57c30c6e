"""Issue 9 class 2, the static side: raw `__gm__` pointer loads and stores before WaitPreTaskEnd or after
SetNextTaskStart are warnings (GlobalTensor accesses already were findings); a raw access between the two
is not."""
from ascgen.check import check_file

SOURCE = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR ws, uint32_t n)
{
    __gm__ float* p = (__gm__ float*)x;
    float first = p[0];
    AscendC::WaitPreTaskEnd();
    p[3] = first;
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, n);
    g.SetValue(0, first);
    AscendC::SetNextTaskStart();
    p[1] = 2.0f;
    ((__gm__ float*)ws)[0] = 1.0f;
}
"""


def test_raw_accesses_outside_the_pair_are_warnings_with_their_lines(tmp_path):
    path = tmp_path / "raw.cpp"
    path.write_text(SOURCE)
    result = check_file(path, product="ascend910_93")
    ordered = [d for d in result.diagnostics if d.rule.startswith("tasksync-")]
    found = [(d.line, d.rule, d.severity) for d in ordered]
    assert found == [(5, "tasksync-gm-before-wait", "warning"), (12, "tasksync-gm-after-set", "warning"),
                     (13, "tasksync-gm-after-set", "warning")], found
    assert "raw read of `p` by p[0]" in ordered[0].message
    assert "raw write of `ws`" in ordered[2].message
    # On a SuperKernel product every scalar store is also unflushed at the end (none is followed by a
    # DataCacheCleanAndInvalid): sk-gm-scalar-no-dcci, the raw stores included.
    assert sorted(d.line for d in result.diagnostics if d.rule == "sk-gm-scalar-no-dcci") == [7, 10, 12, 13]
    assert result.ok        # warnings only: a raw pointer may address the task's own workspace
