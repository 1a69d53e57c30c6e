// The clean twin of sk_bind_bits.cpp: the cap advertises both calls the kernel makes (1 | 2).
#include "kernel_operator.h"

#define COPY_CAP 3

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

SK_BIND(copy, COPY_CAP, copy_sk<0>, copy_sk<1>, copy_sk<2>, copy_sk<3>);
