// Production pattern: the operator's helper class lives in `namespace AscendC`; its output zero-fill runs
// before WaitPreTaskEnd (the previous task may still read that buffer). User code is decided by file.
#include "kernel_operator.h"

namespace AscendC {
class OutputZero {
public:
    __aicore__ inline void Init(GM_ADDR y, uint32_t n) { yGm.SetGlobalBuffer((__gm__ float*)y, n); len = n; }
    __aicore__ inline void Fill() { InitGlobalMemory(yGm, len, 0.0f); }  // EXPECT: tasksync-gm-before-wait
    GlobalTensor<float> yGm;
    uint32_t len = 0;
};
}  // namespace AscendC

extern "C" __global__ __aicore__ void zero_then_sync(GM_ADDR y, uint32_t n)
{
    AscendC::OutputZero z;
    z.Init(y, n);
    z.Fill();
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();
}
