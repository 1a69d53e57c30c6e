// Production pattern: the cube work is behind a type alias and a macro, so the kernel is MIX; the vector
// side's early return then skips the pair on AIV cores.
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
    if ASCEND_IS_AIV {
        return;  // EXPECT: tasksync-once-per-path tasksync-once-per-path
    }
    AscendC::WaitPreTaskEnd();
    CubeOut c;
    AscendC::LocalTensor<half> a, b;
    CubePart(c, a, b);
    AscendC::SetNextTaskStart();
}
