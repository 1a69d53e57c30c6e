// C (M x N, float) = A (M x K, half) x B (K x N, half), all row-major (ND) in GM, through the asc-devkit
// library's high-level Matmul API (cube only: MatmulImpl on the AIC cores, as 04_advanced_api/00_matmul's
// examples): SetTensorA / SetTensorB / IterateAll into GM, each core its singleCoreM x singleCoreN block.
// Devkit backend only (the builtin backend has no Matmul API).
//
// The tiling (TCubeTiling) comes from the library's own host tiling API, MultiCoreMatmulTiling:
// bench_cube.py calls ascgen_bench_matmul_tiling() in this module (ctypes) to fill the tiling bytes, then
// launches the kernel with them in GM.
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __cube__ void matmul_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling_gm)
{
    TCubeTiling tiling;
    auto* words = reinterpret_cast<uint32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        words[i] = reinterpret_cast<__gm__ uint32_t*>(tiling_gm)[i];
    }
    if (AscendC::GetBlockIdx() >= uint32_t(tiling.usedCoreNum)) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::Matmul<AType, AType, CType, CType, CFG_NORM> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    // Blocks of singleCoreM x singleCoreN, M-major over the cores.
    uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    uint32_t mi = AscendC::GetBlockIdx() % mBlocks, ni = AscendC::GetBlockIdx() / mBlocks;
    AscendC::GlobalTensor<half> ag, bg;
    AscendC::GlobalTensor<float> cg;
    ag.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + mi * tiling.singleCoreM * tiling.Ka, tiling.M * tiling.Ka);
    bg.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + ni * tiling.singleCoreN, tiling.Kb * tiling.N);
    cg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + mi * tiling.singleCoreM * tiling.N + ni * tiling.singleCoreN,
                       tiling.M * tiling.N);
    int tailM = tiling.M - mi * tiling.singleCoreM, tailN = tiling.N - ni * tiling.singleCoreN;
    tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
    tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
    if (tailM < tiling.singleCoreM || tailN < tiling.singleCoreN) {
        mm.SetTail(tailM, tailN);
    }
    mm.SetTensorA(ag, false);
    mm.SetTensorB(bg, false);
    mm.IterateAll(cg);
    mm.End();
}

// Host side: the library's tiling for an M x N x K half x half -> float matmul on every AIC core of
// Ascend910B1, saved into `out` (capacity `size` bytes). Returns the number of cores used, or -1.
extern "C" __attribute__((visibility("default"))) int ascgen_bench_matmul_tiling(uint8_t* out, uint32_t size,
                                                                                  int m, int n, int k)
{
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    using matmul_tiling::TPosition;
    api.SetDim(platform->GetCoreNumAic());
    api.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    api.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    api.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(false);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling data;
    if (api.GetTiling(data) == -1 || data.GetDataSize() > size) {
        return -1;
    }
    data.SaveToBuffer(out, size);
    return reinterpret_cast<TCubeTiling*>(out)->usedCoreNum;
}
