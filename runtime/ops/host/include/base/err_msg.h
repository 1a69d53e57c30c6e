// ascgen: the error-message reporting of CANN's closed error manager (base/err_msg.h), which opbase's
// log/log.h includes. An op's predefined error message carries its key/value pairs, an inner one a printf
// message; here both are written to stderr, where the tiling runner collects them into the error it raises.
#pragma once
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace ascgen_ops_host {
inline void report_err_msg(const char* code, const std::vector<const char*>& keys,
                           const std::vector<const char*>& values) {
    std::fprintf(stderr, "[op error %s]", code);
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i)
        std::fprintf(stderr, " %s=%s", keys[i], values[i] ? values[i] : "");
    std::fprintf(stderr, "\n");
}
// REPORT_INNER_ERR_MSG(code, fmt, ...): a printf-style message (OP_LOGE's second half).
inline void report_inner_err_msg(const char* code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
inline void report_inner_err_msg(const char* code, const char* fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "[op error %s] ", code);
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
}
}  // namespace ascgen_ops_host

#define REPORT_PREDEFINED_ERR_MSG(code, keys, values) ::ascgen_ops_host::report_err_msg(code, keys, values)
#define REPORT_INNER_ERR_MSG(code, fmt, ...) ::ascgen_ops_host::report_inner_err_msg(code, fmt, ##__VA_ARGS__)
// The error manager's table of message formats (opbase's log.cpp registers its EZxxxx table): the
// reports above print their code and arguments, so the table is not needed here.
#define REG_FORMAT_ERROR_MSG(msg, len) \
    static const int ascgen_ops_err_table_ [[maybe_unused]] = ((void)(msg), (void)(len), 0)
