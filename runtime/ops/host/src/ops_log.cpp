// ascgen: CheckLogLevel / DlogRecord (dlog_pub.h) for operator host code. Errors always reach stderr,
// where ascgen/ops/host_tiling.py keeps them for the error it raises; warnings, info and debug only when
// ASCGEN_OPS_LOG=warn|info|debug.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dlog_pub.h"

namespace {
int threshold() {
    const char* v = std::getenv("ASCGEN_OPS_LOG");
    std::string s(v ? v : "");
    if (s == "debug") return DLOG_DEBUG;
    if (s == "info") return DLOG_INFO;
    if (s == "warn" || s == "warning") return DLOG_WARN;
    return DLOG_ERROR;
}
}  // namespace

extern "C" int CheckLogLevel(int /*moduleId*/, int logLevel) {
    static const int level = threshold();
    return (logLevel & 0xffff) >= level ? 1 : 0;
}

extern "C" void DlogRecord(int /*moduleId*/, int level, const char* fmt, ...) {
    static const char* names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "[op host %s] %s%s", names[level & 3], buf,
                 (buf[0] && buf[std::strlen(buf) - 1] == '\n') ? "" : "\n");
}
