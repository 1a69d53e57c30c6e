// ascgen: fe::PlatFormInfos / fe::PlatformInfoManager filled from ascgen's product table
// (ascgen/products.py, written into ascgen_soc_table.h by ascgen/runtime/backends/devkit/host.py).
//
// The keys are the ones asc-devkit's platform_ascendc.cpp reads. A key or memory type the table does not
// hold throws std::runtime_error naming it: the library would otherwise log and carry on with zero.
#include "platform/platform_info.h"
#include "platform/platform_infos_def.h"

#include <stdexcept>
#include <string>
#include "ascgen_soc_table.h"

namespace fe {
namespace {

const ascgen_devkit_host::SocRow* find_soc(const std::string& name) {
    const ascgen_devkit_host::SocRow* best = nullptr;
    size_t best_len = 0;
    for (const auto& row : ascgen_devkit_host::kSocRows) {
        std::string soc(row.soc);
        if (soc == name) return &row;
        // "Ascend950PR_9589": a variant of a SoC the table names ("Ascend950PR")
        if (name.size() > soc.size() && name.compare(0, soc.size(), soc) == 0 && soc.size() > best_len) {
            best = &row;
            best_len = soc.size();
        }
    }
    return best;
}

// CANN's platform-file key of each local memory's size (AICoreSpec), nullptr for one it has none for.
const char* mem_key(LocalMemType type) {
    switch (type) {
        case LocalMemType::UB: return "ub_size";
        case LocalMemType::L1: return "l1_size";
        case LocalMemType::L0_A: return "l0_a_size";
        case LocalMemType::L0_B: return "l0_b_size";
        case LocalMemType::L0_C: return "l0_c_size";
        case LocalMemType::BT: return "bt_size";
        default: return nullptr;
    }
}

std::string known_socs() {
    std::string s;
    for (const auto& row : ascgen_devkit_host::kSocRows) s += (s.empty() ? "" : ", ") + std::string(row.soc);
    return s;
}

}  // namespace

bool PlatFormInfos::Init() { return true; }

bool PlatFormInfos::LoadSoc(const std::string& soc_version) {
    const auto* row = find_soc(soc_version);
    if (row == nullptr) return false;
    std::lock_guard<std::mutex> lk(mu_);
    soc_ = soc_version;
    res_.clear();
    res_["version"] = {{"SoC_version", soc_version}, {"Short_SoC_version", row->short_soc},
                       {"NpuArch", std::to_string(row->npu_arch)}};
    auto& info = res_["SoCInfo"];
    info["core_type_list"] = row->separated ? "CubeCore,VectorCore" : "AiCore";
    info["ai_core_cnt"] = std::to_string(row->separated ? row->aic : row->aiv);
    info["cube_core_cnt"] = std::to_string(row->aic);
    info["vector_core_cnt"] = std::to_string(row->aiv);
    auto& spec = res_["AICoreSpec"];
    spec["vector_reg_width"] = std::to_string(row->vector_reg_bytes);
    // The memory sizes under CANN's platform-file keys, which GetLocalMemSize reads (one place: a caller
    // that overrides AICoreSpec, as an op's tiling UT does, changes what the library sees).
    const std::pair<LocalMemType, unsigned long long> sizes[] = {
        {LocalMemType::UB, row->ub}, {LocalMemType::L1, row->l1}, {LocalMemType::L0_A, row->l0a},
        {LocalMemType::L0_B, row->l0b}, {LocalMemType::L0_C, row->l0c}, {LocalMemType::BT, row->bt}};
    for (const auto& [type, bytes] : sizes) {
        if (bytes) spec[mem_key(type)] = std::to_string(bytes);
    }
    core_num_ = row->aiv;   // until SetCoreNumByCoreType, as the library calls it next
    return true;
}

bool PlatFormInfos::GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) {
    std::lock_guard<std::mutex> lk(mu_);
    return GetPlatformRes(label, key, value);
}

bool PlatFormInfos::GetPlatformRes(const std::string& label, const std::string& key, std::string& value) {
    auto l = res_.find(label);
    if (l != res_.end()) {
        auto k = l->second.find(key);
        if (k != l->second.end()) {
            value = k->second;
            return true;
        }
    }
    throw std::runtime_error("ascgen devkit host: the platform information for " +
                             (soc_.empty() ? std::string("an uninitialised SoC") : soc_) + " has no " + label +
                             "." + key + " (the product table, ascgen/products.py, does not give it)");
}

bool PlatFormInfos::GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& result) {
    std::lock_guard<std::mutex> lk(mu_);
    auto l = res_.find(label);
    if (l == res_.end()) {
        throw std::runtime_error("ascgen devkit host: the platform information for " + soc_ + " has no " + label);
    }
    result = l->second;
    return true;
}

void PlatFormInfos::SetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& result) {
    std::lock_guard<std::mutex> lk(mu_);
    res_[label] = result;
}

void PlatFormInfos::SetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) {
    res_[label] = res;
}

void PlatFormInfos::GetLocalMemSize(const LocalMemType& type, uint64_t& size) {
    std::lock_guard<std::mutex> lk(mu_);
    const char* key = mem_key(type);
    auto spec = res_.find("AICoreSpec");
    auto it = key && spec != res_.end() ? spec->second.find(key) : std::map<std::string, std::string>::iterator{};
    if (!key || spec == res_.end() || it == spec->second.end()) {
        static const char* names[] = {"L0_A", "L0_B", "L0_C", "L1", "L2", "UB", "HBM", "FB", "BT"};
        int i = static_cast<int>(type);
        throw std::runtime_error(std::string("ascgen devkit host: the product table (ascgen/products.py) gives no ") +
                                 (i >= 0 && i < 9 ? names[i] : "such") + " memory size for " + soc_);
    }
    size = std::stoull(it->second);
}

void PlatFormInfos::GetLocalMemBw(const LocalMemType& type, uint64_t& /*bw*/) {
    throw std::runtime_error("ascgen devkit host: memory bandwidths (GetCoreMemBw, type " +
                             std::to_string(static_cast<int>(type)) + ") are not modelled");
}

void PlatFormInfos::SetCoreNumByCoreType(const std::string& core_type) {
    std::lock_guard<std::mutex> lk(mu_);
    const auto& info = res_["SoCInfo"];
    // "AICore" is how the repositories' tiling UTs spell the AI core type, "AiCore" the platform files' list
    const char* key = core_type == "VectorCore" ? "vector_core_cnt"
                      : core_type == "AiCore" || core_type == "AICore" ? "ai_core_cnt" : nullptr;
    if (key == nullptr) throw std::runtime_error("ascgen devkit host: unknown core type " + core_type);
    core_num_ = static_cast<uint32_t>(std::stoul(info.at(key)));
}

PlatformInfoManager& PlatformInfoManager::Instance() {
    static PlatformInfoManager m;
    return m;
}

uint32_t PlatformInfoManager::InitRuntimePlatformInfos(const std::string& soc_version) {
    if (find_soc(soc_version) == nullptr) {
        throw std::runtime_error("ascgen devkit host: SoC \"" + soc_version +
                                 "\" is not in ascgen's product table; known SoC names: " + known_socs());
    }
    soc_ = soc_version;
    return 0;
}

uint32_t PlatformInfoManager::GetRuntimePlatformInfosByDevice(const uint32_t& device_id, PlatFormInfos& infos) {
    if (device_id != 0) {
        throw std::runtime_error("ascgen devkit host: platform information asked for device " +
                                 std::to_string(device_id) + "; the emulator has device 0 only");
    }
    if (soc_.empty() || !infos.LoadSoc(soc_)) {
        throw std::runtime_error("ascgen devkit host: platform information asked before InitRuntimePlatformInfos");
    }
    return 0;
}

uint32_t PlatformInfoManager::GetPlatformInfoWithOutSocVersion(PlatFormInfos& infos, OptionalInfos& optional) {
    std::string soc = optional.GetSocVersion().empty() ? soc_ : optional.GetSocVersion();
    InitRuntimePlatformInfos(soc);
    return GetRuntimePlatformInfosByDevice(0, infos);
}

}  // namespace fe
