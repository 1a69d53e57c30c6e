// Seeded bug: a KERNEL_TYPE_MIX_AIC_1_1 kernel, which a SuperKernel launches 1:2 (two vector cores per
// cube core). The cube handshake is made by vector core 0 only, so the cube core's wait is short of one
// arrival; and Matmul is driven by both vector cores, so AIV1's messages reach no server. Both hang.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void mm_1_1(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, 256);
    cGm.SetGlobalBuffer((__gm__ float*)c, 256);
    matmul::Matmul<AType, AType, CType> mm;
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(3);
        return;
    }
    mm.SetTensorA(aGm);  // EXPECT: sk-mix-ratio
    mm.IterateAll(cGm);  // EXPECT: sk-mix-ratio
    if (AscendC::GetSubBlockIdx() == 0) {
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(3);  // EXPECT: sk-mix-ratio
    }
}
