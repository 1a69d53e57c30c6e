// ascgen: the part of CANN's closed OS layer (mmpa) that metadef's operator registry reaches through
// common/plugin/plugin_manager.h: the shared-library path of an address (used only for a log line),
// over glibc; and what metadef's op-implementation space registry (an op_host tiling UT's way to the tiling
// functions, ascgen/ops/host_ut.py) names: dlopen / dlclose, and the directory types graph/utils/file_utils.h
// declares its Scandir with. Nothing else of mmpa is declared, so a new use fails to compile and is seen.
#pragma once
#include <dirent.h>
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
typedef char CHAR;
typedef struct dirent mmDirent;
typedef int (*mmFilter)(const mmDirent* entry);
typedef int (*mmSort)(const mmDirent** a, const mmDirent** b);
#define MMPA_RTLD_NOW RTLD_NOW
#define MMPA_RTLD_GLOBAL RTLD_GLOBAL

inline void* mmDlopen(const char* path, INT32 mode) { return dlopen(path, mode); }
inline INT32 mmDlclose(void* handle) { return dlclose(handle); }

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
