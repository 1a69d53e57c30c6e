// Clean twin of core_side_macros_3510.cpp: the vector side's early exit still calls the pair, and the
// cube side uses the library's GetBlockNum.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sided3510(GM_ADDR x, uint32_t rows)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    AscendC::WaitPreTaskEnd();
#ifdef __DAV_C310_VEC__
    if (rows == 0) {
        AscendC::SetNextTaskStart();
        return;
    }
#endif
#if defined(__DAV_C310_CUBE__) && __NPU_ARCH__ == 3510
    rows = rows / AscendC::GetBlockNum();
#endif
    AscendC::SetNextTaskStart();
}
