// Clean twin of constexpr_configuration.cpp: the early return sets first.
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
            AscendC::SetNextTaskStart();
            return;
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
