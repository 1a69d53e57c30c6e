// Clean twin of cube_behind_alias.cpp: both core types call the pair; the vector side does no cube work.
#include "kernel_operator.h"

using CubeOut = AscendC::LocalTensor<float>;
#define RUN_CUBE(dst, a, b) AscendC::Mmad(dst, a, b, params)

__aicore__ inline void CubePart(CubeOut& c, AscendC::LocalTensor<half>& a, AscendC::LocalTensor<half>& b)
{
    AscendC::MmadParams params;
    RUN_CUBE(c, a, b);
}

extern "C" __global__ __aicore__ void mm(GM_ADDR x)
{
    AscendC::WaitPreTaskEnd();
    if ASCEND_IS_AIC {
        CubeOut c;
        AscendC::LocalTensor<half> a, b;
        CubePart(c, a, b);
    }
    AscendC::SetNextTaskStart();
}
