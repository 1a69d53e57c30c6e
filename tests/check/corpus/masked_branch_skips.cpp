// Production pattern (issue 24, point 3): the wait is skipped at two different places, a core without
// rows in the first configuration and the whole second arm of an else-if chain. Both paths end in the
// same state (no wait, one set), which used to keep one witness: the second place was masked by the first.
// Each arm that lacks the call while a sibling arm makes it is now its own finding, reported at that arm.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void split(GM_ADDR y, uint32_t rows, uint32_t mode)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    if (mode == 0) {
        if (rows > 0) {  // EXPECT: tasksync-once-per-path
            AscendC::WaitPreTaskEnd();
            yGm.SetValue(0, 1.0f);
        }
    } else if (mode == 1) {  // EXPECT: tasksync-once-per-path
        rows = rows * 2;
    } else {
        AscendC::WaitPreTaskEnd();
        yGm.SetValue(1, 2.0f);
    }
    AscendC::SetNextTaskStart();
}
