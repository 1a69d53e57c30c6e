// ascgen: libruntime.so for devkit host programs. The library's platform code asks CANN's runtime for the
// device's SoC name (dlopen "libruntime.so", rtGetSocVersion) when a program calls
// PlatformAscendCManager::GetInstance() without one; the emulated device is the product being run,
// whose first SoC name the build writes into ascgen_soc_table.h.
#include <cstdint>
#include <cstring>
#include "ascgen_soc_table.h"

extern "C" __attribute__((visibility("default"))) void rtGetSocVersion(char* version, const uint32_t len) {
    if (version == nullptr || len == 0) return;
    std::strncpy(version, ascgen_devkit_host::kDefaultSoc, len - 1);
    version[len - 1] = '\0';
}
