// ascgen: fe::PlatformInfoManager, the registry asc-devkit's platform_ascendc.cpp asks for the SoC's
// PlatFormInfos. One emulated device (id 0), initialised for one SoC name at a time.
#pragma once
#include <cstdint>
#include <string>
#include "platform/platform_infos_def.h"

namespace fe {

class PlatformInfoManager {
public:
    static PlatformInfoManager& Instance();
    // Loads the product table entry for soc_version; an unknown name throws std::runtime_error listing
    // the SoC names ascgen knows.
    uint32_t InitRuntimePlatformInfos(const std::string& soc_version);
    uint32_t GetRuntimePlatformInfosByDevice(const uint32_t& device_id, PlatFormInfos& infos);
    uint32_t GetPlatformInfoWithOutSocVersion(PlatFormInfos& infos, OptionalInfos& optional);

private:
    std::string soc_;
};

}  // namespace fe
