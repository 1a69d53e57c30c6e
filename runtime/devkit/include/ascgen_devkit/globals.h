// The per-core globals the library reads (block_idx, g_coreType...). They are defined in every kernel
// module with hidden visibility; the backend loads one copy of the module per emulated core, so each
// core sees its own values without the library's code being changed (docs/devkit.md, isolation).
#pragma once
#include <cstdint>

extern int64_t block_idx;
extern int64_t block_num;
extern int64_t sub_block_idx;
extern int64_t g_taskRation;
extern int32_t g_coreType;

namespace AscendC {
// Core-type values the CPU model reports in g_coreType (the library compares them with AIC/AIV).
constexpr int32_t AIC_TYPE = 1;
constexpr int32_t AIV_TYPE = 2;
}  // namespace AscendC

extern uint64_t g_fixpipeNdNzParam;
extern int32_t g_matmulCount;
namespace AscendC {
extern bool g_isAtomic;
extern bool g_isVdeq;
}
