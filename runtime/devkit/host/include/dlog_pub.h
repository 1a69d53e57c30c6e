// ascgen: CANN's logging interface (dlog) for the asc-devkit host sources. CheckLogLevel / DlogRecord are
// the functions the library's host_log.cpp looks up in libunified_dlog.so; ascgen builds that library from
// src/cann_dlog.cpp. Errors always reach stderr; warnings, info and debug only when
// ASCGEN_DEVKIT_LOG=warn|info|debug.
#pragma once
#include <cstdint>

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DEBUG_LOG_MASK 0x00010000
#define ASCENDCKERNEL 57

namespace ascgen_devkit_host {
// Defined in src/tiling_def.cpp (part of the host library), with the same filter and output as DlogRecord.
bool log_enabled(int level);
void log_line(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
}  // namespace ascgen_devkit_host

#define ASCGEN_DLOG_(level, module, fmt, ...) \
    do { (void)(module); ::ascgen_devkit_host::log_line(level, fmt, ##__VA_ARGS__); } while (0)
#define dlog_error(module, fmt, ...) ASCGEN_DLOG_(DLOG_ERROR, module, fmt, ##__VA_ARGS__)
#define dlog_warn(module, fmt, ...) ASCGEN_DLOG_(DLOG_WARN, module, fmt, ##__VA_ARGS__)
#define dlog_info(module, fmt, ...) ASCGEN_DLOG_(DLOG_INFO, module, fmt, ##__VA_ARGS__)
#define dlog_debug(module, fmt, ...) ASCGEN_DLOG_(DLOG_DEBUG, module, fmt, ##__VA_ARGS__)
