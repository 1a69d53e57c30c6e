// ascgen: libunified_dlog.so for devkit host programs. The library's host_log.cpp loads CANN's log
// library by that name with dlopen and aborts without it; this one prints through the same filter as
// dlog_pub.h (ASCGEN_DEVKIT_LOG).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
int threshold() {
    const char* v = std::getenv("ASCGEN_DEVKIT_LOG");
    std::string s(v ? v : "");
    if (s == "debug") return 0;
    if (s == "info") return 1;
    if (s == "warn" || s == "warning") return 2;
    return 3;
}
}  // namespace

extern "C" __attribute__((visibility("default"))) int CheckLogLevel(int /*module*/, int level) {
    return level >= threshold() ? 1 : 0;
}

extern "C" __attribute__((visibility("default"))) void DlogRecord(int /*module*/, int level, const char* fmt, ...) {
    static const char* names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "[asc-devkit host %s] %s%s", names[level & 3], buf,
                 (buf[0] && buf[std::strlen(buf) - 1] == '\n') ? "" : "\n");
}
