// Production pattern (issue 24): a kernel launched with <<<>>> and bound to its SuperKernel twins with
// SK_BIND, whose cap word tells the SuperKernel which boundary calls the task makes (bit 1 WaitPreTaskEnd,
// bit 2 SetNextTaskStart). The kernel calls both but the cap says only the wait (a copy from an older
// version that had no set): the boundary does not wait for this task's arrival.
#include "kernel_operator.h"

#define COPY_CAP 1

extern "C" __global__ __aicore__ void copy(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    AscendC::WaitPreTaskEnd<true>();
    yGm.SetValue(0, 1.0f);
    AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
}

template <uint32_t splitNum>
__aicore__ void copy_sk(GM_ADDR x, GM_ADDR y)
{
    copy(x, y);
}

SK_BIND(copy, COPY_CAP, copy_sk<0>, copy_sk<1>, copy_sk<2>, copy_sk<3>);  // EXPECT: sk-bind-bits
