// Production pattern (crash class): a switch case whose body instantiates a template with a type the
// emulated headers do not declare (float16_t); clang gives an empty case. One case returns early.
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
        return;  // EXPECT: tasksync-once-per-path
    }
    case 1:
        Cast<float>(yGm, n);
        break;
    default:
        break;
    }
    AscendC::SetNextTaskStart();
}
