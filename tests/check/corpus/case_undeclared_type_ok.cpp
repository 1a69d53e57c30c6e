// Clean twin of case_undeclared_type.cpp: every case reaches SetNextTaskStart.
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void Cast(AscendC::GlobalTensor<T>& y, uint32_t n) { y.SetValue(0, (T)n); }

extern "C" __global__ __aicore__ void cast_op(GM_ADDR y, uint32_t mode, uint32_t n)
{
    AscendC::GlobalTensor<float> yGm;
    AscendC::WaitPreTaskEnd();
    switch (mode) {
    case 0: {
        AscendC::GlobalTensor<float16_t> hGm;
        Cast<float16_t>(hGm, n);
        break;
    }
    case 1:
        Cast<float>(yGm, n);
        break;
    default:
        break;
    }
    AscendC::SetNextTaskStart();
}
