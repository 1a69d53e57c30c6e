// Seeded bug (race across core types): a cube-core task calls SetNextTaskStart before its copy loop.
// The next task is MIX 1:2; its vector cores learn of the cube cores' arrival through the AIC -> AIV
// relay (flag 11, then 13), and read z while the cube cores may still be writing it.
#include "kernel_operator.h"

// z = y on cube cores, by scalar GM reads and writes
extern "C" __global__ __aicore__ void cube_copy_early(GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const uint32_t per = totalLength / AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> yGm, zGm;
    yGm.SetGlobalBuffer((__gm__ float*)y + per * AscendC::GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * AscendC::GetBlockIdx(), per);
    AscendC::WaitPreTaskEnd();
    AscendC::SetNextTaskStart();                  // BUG: the copy below still writes z
    for (uint32_t i = 0; i < per; ++i) {
        zGm.SetValue(i, yGm.GetValue(i));
    }
}
