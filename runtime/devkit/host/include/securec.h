// ascgen: the bounds-checked C functions (Huawei securec) the asc-devkit host sources call. Each checks
// its destination size and returns EOK (0) or an error code, like the library it stands for.
#pragma once
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;
#define ASCGEN_SECUREC_EINVAL 22
#define ASCGEN_SECUREC_ERANGE 34

inline int memcpy_s(void* dst, size_t dst_max, const void* src, size_t count) {
    if (dst == nullptr || src == nullptr) return ASCGEN_SECUREC_EINVAL;
    if (count > dst_max) return ASCGEN_SECUREC_ERANGE;
    std::memmove(dst, src, count);
    return EOK;
}
inline int memmove_s(void* dst, size_t dst_max, const void* src, size_t count) { return memcpy_s(dst, dst_max, src, count); }
inline int memset_s(void* dst, size_t dst_max, int c, size_t count) {
    if (dst == nullptr) return ASCGEN_SECUREC_EINVAL;
    if (count > dst_max) return ASCGEN_SECUREC_ERANGE;
    std::memset(dst, c, count);
    return EOK;
}
inline int strcpy_s(char* dst, size_t dst_max, const char* src) {
    if (dst == nullptr || src == nullptr || dst_max == 0) return ASCGEN_SECUREC_EINVAL;
    size_t n = std::strlen(src);
    if (n + 1 > dst_max) { dst[0] = '\0'; return ASCGEN_SECUREC_ERANGE; }
    std::memcpy(dst, src, n + 1);
    return EOK;
}
inline int strncpy_s(char* dst, size_t dst_max, const char* src, size_t count) {
    if (dst == nullptr || src == nullptr || dst_max == 0) return ASCGEN_SECUREC_EINVAL;
    size_t n = strnlen(src, count);
    if (n + 1 > dst_max) { dst[0] = '\0'; return ASCGEN_SECUREC_ERANGE; }
    std::memcpy(dst, src, n);
    dst[n] = '\0';
    return EOK;
}
