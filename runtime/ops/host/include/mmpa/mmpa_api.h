// ascgen: the part of CANN's closed OS layer (mmpa) that metadef's operator registry reaches through
// common/plugin/plugin_manager.h: the shared-library path of an address (used only for a log line),
// over glibc. Nothing else of mmpa is declared, so a new use fails to compile and is seen.
#pragma once
#include <dlfcn.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#ifndef EN_OK
#define EN_OK 0
#define EN_ERROR (-1)
#endif
#define MMPA_MAX_PATH PATH_MAX

typedef int INT32;

typedef struct {
    const char* dli_fname;
    void* dli_fbase;
    const char* dli_sname;
    void* dli_saddr;
    size_t dli_size;
    int dli_bind;
    int dli_type;
} mmDlInfo;

inline INT32 mmDladdr(void* addr, mmDlInfo* info) {
    Dl_info d{};
    if (dladdr(addr, &d) == 0) return EN_ERROR;
    info->dli_fname = d.dli_fname;
    info->dli_fbase = d.dli_fbase;
    info->dli_sname = d.dli_sname;
    info->dli_saddr = d.dli_saddr;
    return EN_OK;
}
inline const char* mmDlerror() { const char* e = dlerror(); return e ? e : ""; }
inline INT32 mmRealPath(const char* path, char* out, INT32 len) {
    char buf[PATH_MAX];
    if (realpath(path, buf) == nullptr || static_cast<INT32>(std::strlen(buf)) >= len) return EN_ERROR;
    std::strcpy(out, buf);
    return EN_OK;
}
inline INT32 mmGetErrorCode() { return errno; }
inline char* mmGetErrorFormatMessage(INT32 code, char* buf, size_t size) {
    std::strncpy(buf, std::strerror(code), size);
    buf[size] = '\0';
    return buf;
}
