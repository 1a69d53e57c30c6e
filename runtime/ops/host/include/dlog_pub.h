// ascgen: CANN's logging interface (dlog) for operator host code (metadef's ge_log.h, opbase's log.h).
// CheckLogLevel / DlogRecord are defined by ascgen's tiling runner (runtime/ops/host/src/ops_log.cpp):
// errors reach stderr, where the runner keeps them for the error it reports; more with
// ASCGEN_OPS_LOG=warn|info|debug.
#pragma once
#include <cstdint>

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4
#define DEBUG_LOG_MASK 0x00010000
#define RUN_LOG_MASK 0x01000000
#define SECURITY_LOG_MASK 0x00100000
#define ASCENDCKERNEL 57
#define OP 38
#define GE 45

extern "C" {
int CheckLogLevel(int moduleId, int logLevel);
void DlogRecord(int moduleId, int level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
}

// The dlog_* macros of CANN's header: one record each, when the module's level lets it through.
#define ASCGEN_OPS_DLOG_(level, module, fmt, ...)                                              \
    do {                                                                                     \
        if (CheckLogLevel(static_cast<int>(module), level) == 1)                             \
            DlogRecord(static_cast<int>(module), level, fmt, ##__VA_ARGS__);                 \
    } while (0)
#define dlog_error(module, fmt, ...) ASCGEN_OPS_DLOG_(DLOG_ERROR, module, fmt, ##__VA_ARGS__)
#define dlog_warn(module, fmt, ...) ASCGEN_OPS_DLOG_(DLOG_WARN, module, fmt, ##__VA_ARGS__)
#define dlog_info(module, fmt, ...) ASCGEN_OPS_DLOG_(DLOG_INFO, module, fmt, ##__VA_ARGS__)
#define dlog_debug(module, fmt, ...) ASCGEN_OPS_DLOG_(DLOG_DEBUG, module, fmt, ##__VA_ARGS__)
