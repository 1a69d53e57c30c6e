// ascgen: the out-of-line part of register/tilingdata_base.h (layout, nested flush, registry) and the
// host log filter shared by dlog_pub.h's macros.
#include "register/tilingdata_base.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace optiling {

size_t TilingDef::AddField(size_t size, size_t align) {
    if (align > 8) align = 8;
    size_t offset = (used_ + align - 1) / align * align;
    used_ = offset + size;
    if (align > align_) align_ = align;
    data_.resize((used_ + align_ - 1) / align_ * align_, 0);
    return offset;
}

size_t TilingDef::AddStruct(const TilingDef& member) {
    size_t offset = AddField(member.GetDataSize(), member.GetAlignment());
    nested_.emplace_back(offset, reinterpret_cast<const char*>(&member) - reinterpret_cast<const char*>(this));
    return offset;
}

void TilingDef::Flush() {
    for (const auto& [offset, delta] : nested_) {
        auto* member = reinterpret_cast<TilingDef*>(reinterpret_cast<char*>(this) + delta);
        std::memcpy(data_.data() + offset, member->GetData(), member->GetDataSize());
    }
}

uint8_t* TilingDef::GetData() {
    Flush();
    return data_.data();
}

void TilingDef::SaveToBuffer(void* dst, size_t capacity) {
    if (dst == nullptr) {
        throw std::invalid_argument(std::string("SaveToBuffer of tiling data ") + class_name_ + " into a null buffer");
    }
    if (capacity < data_.size()) {
        throw std::length_error(std::string("SaveToBuffer: tiling data ") + class_name_ + " needs " +
                                std::to_string(data_.size()) + " bytes, the buffer holds " +
                                std::to_string(capacity));
    }
    std::memcpy(dst, GetData(), data_.size());
}

namespace {
std::mutex g_registry_mu;
std::map<std::string, TilingDataFactory>& registry() {
    static std::map<std::string, TilingDataFactory> r;
    return r;
}
}  // namespace

void RegisterTilingDataClass(const char* op_type, const char* /*class_name*/, TilingDataFactory factory) {
    std::lock_guard<std::mutex> lk(g_registry_mu);
    registry()[op_type] = std::move(factory);
}

std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type) {
    std::lock_guard<std::mutex> lk(g_registry_mu);
    auto it = registry().find(op_type);
    return it == registry().end() ? nullptr : it->second();
}

}  // namespace optiling

// ---- dlog (dlog_pub.h) ------------------------------------------------------------------------------
#include "dlog_pub.h"

namespace ascgen_devkit_host {

// ASCGEN_DEVKIT_LOG=debug|info|warn|error (default error): the lowest level printed.
bool log_enabled(int level) {
    static const int threshold = [] {
        const char* v = std::getenv("ASCGEN_DEVKIT_LOG");
        if (v == nullptr) return DLOG_ERROR;
        std::string s(v);
        if (s == "debug") return DLOG_DEBUG;
        if (s == "info") return DLOG_INFO;
        if (s == "warn" || s == "warning") return DLOG_WARN;
        return DLOG_ERROR;
    }();
    return level >= threshold;
}

void log_line(int level, const char* fmt, ...) {
    if (!log_enabled(level)) return;
    static const char* names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "[asc-devkit host %s] %s%s", names[level & 3], buf,
                 (buf[0] && buf[std::strlen(buf) - 1] == '\n') ? "" : "\n");
}

}  // namespace ascgen_devkit_host
