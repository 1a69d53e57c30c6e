// Clean twin of macro_kernel_entry.cpp: the empty case still sets.
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void Run(GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<T> yGm;
    yGm.SetGlobalBuffer((__gm__ T*)y, 8);
    AscendC::WaitPreTaskEnd();
    if (n == 0) {
        AscendC::SetNextTaskStart();
        return;
    }
    yGm.SetValue(0, (T)1);
    AscendC::SetNextTaskStart();
}

#define DEFINE_KERNEL(name, T)                                                  \
    extern "C" __global__ __aicore__ void name(GM_ADDR y, uint32_t n)          \
    {                                                                           \
        Run<T>(y, n);                                                           \
    }

DEFINE_KERNEL(kernel_fp32, float)
DEFINE_KERNEL(kernel_int32, int32_t)
