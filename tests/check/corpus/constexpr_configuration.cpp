// Production pattern: a bool template parameter selects the configuration (`SPLIT == 0` / `SPLIT == 1`:
// there is no third), and `if (true)` guards a debug tail. Neither the "no configuration" path nor the
// dead tail is a path; the real defect (an early return before the set) is reported on its own path.
#include "kernel_operator.h"

template <bool SPLIT>
__aicore__ inline void Run(AscendC::GlobalTensor<float>& y, uint32_t n)
{
    if constexpr (SPLIT == 0) {
        AscendC::WaitPreTaskEnd();
        y.SetValue(0, 1.0f);
    } else if constexpr (SPLIT == 1) {
        AscendC::WaitPreTaskEnd();
        if (n == 0) {
            return;  // EXPECT: tasksync-once-per-path
        }
        y.SetValue(1, 1.0f);
    }
    AscendC::SetNextTaskStart();
    if (true) {
        return;
    }
    AscendC::SetNextTaskStart();
}

template <bool SPLIT>
__global__ __aicore__ void split_kernel(GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    Run<SPLIT>(yGm, n);
}
