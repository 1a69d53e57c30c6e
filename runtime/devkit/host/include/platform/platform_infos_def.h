// ascgen: fe::PlatFormInfos, the SoC description asc-devkit's platform_ascendc.cpp reads (CANN fills it
// from its per-SoC platform files; ascgen fills it from its product table, src/platform_infos.cpp).
//
// Every value the library asks for is answered or refused: a (label, key) the table does not hold, or a
// memory type it has no size for, throws std::runtime_error naming it (the host program then fails with
// that message) instead of returning "not found", which the library would turn into a logged zero.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

class PlatFormInfos {
public:
    bool Init();
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value);
    bool GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& result);
    void SetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& result);
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value);
    // CANN's unlocked setter, how an op's tiling UT describes its machine (SoCInfo, AICoreSpec, version...).
    void SetPlatformRes(const std::string& label, std::map<std::string, std::string>& res);
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size);
    void GetLocalMemBw(const LocalMemType& type, uint64_t& bw);
    uint32_t GetCoreNum() const { return core_num_; }
    void SetCoreNumByCoreType(const std::string& core_type);
    // ascgen: fill from the product table entry for this SoC name (false if the table has none).
    bool LoadSoc(const std::string& soc_version);

private:
    std::mutex mu_;
    std::map<std::string, std::map<std::string, std::string>> res_;
    std::string soc_;
    uint32_t core_num_ = 0;
};

class OptionalInfos {
public:
    void SetSocVersion(const std::string& soc) { soc_ = soc; }
    const std::string& GetSocVersion() const { return soc_; }

private:
    std::string soc_;
};

}  // namespace fe
