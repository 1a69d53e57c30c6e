// Clean twin of sk_mix_ratio.cpp: every vector core makes the handshake, and only AIV0 drives Matmul.
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
    if (AscendC::GetSubBlockIdx() == 0) {
        mm.SetTensorA(aGm);
        mm.IterateAll(cGm);
    }
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(3);
}

// Production pattern: each sub-block makes the handshake at its own site (AIV1 leaves early after it).
extern "C" __global__ __aicore__ void split_1_1(GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(4);
        return;
    }
    if (AscendC::GetSubBlockIdx() > 0) {
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE2>(4);
        return;
    }
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE2>(4);
}

// Production pattern: the vector cores leave first and the cube core drives Matmul itself; the path
// state's core type is not narrowed here, the `if ASCEND_IS_AIV { return; }` before the calls decides.
extern "C" __global__ __aicore__ void cube_drives_1_1(GM_ADDR a, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, 256);
    cGm.SetGlobalBuffer((__gm__ float*)c, 256);
    matmul::Matmul<AType, AType, CType> mm;
    if ASCEND_IS_AIV {
        return;
    }
    mm.SetTensorA(aGm);
    mm.IterateAll(cGm);
}
