// ascgen: NpuArch, the architecture numbers CANN's platform/soc_spec.h names (the values are
// __NPU_ARCH__, which the asc-devkit platform code converts with static_cast).
#pragma once
#include <cstdint>

enum class NpuArch : uint32_t {
    DAV_RESV = 0,     // "unknown": returned when the platform cannot say
    DAV_1001 = 1001,
    DAV_2002 = 2002,
    DAV_2201 = 2201,
    DAV_3002 = 3002,
    DAV_3003 = 3003,
    DAV_3102 = 3102,
    DAV_3113 = 3113,
    DAV_3510 = 3510,
    DAV_5102 = 5102,
};
