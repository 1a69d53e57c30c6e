// The bounds-checked C functions of Huawei's securec library (libboundscheck, linked by CANN builds as
// c_sec), which kernels, the operator repositories' UT host code and the asc-devkit host sources call
// (CANN's tikicpulib.h includes it, so UTs call memset_s without including it). Written from the
// library's documented contract, in common/ so the devkit kernel side and host side both reach it:
//
// * a destination size of 0 or above SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN: ERANGE, nothing written;
// * a null destination: EINVAL, nothing written;
// * any other violation writes the destination ("reset": memory functions clear all destMax bytes, except
//   memset_s, which fills them with c; string functions store an empty string) and returns the error
//   ORed with 0x80: EINVAL_AND_RESET (null source), ERANGE_AND_RESET (does not fit),
//   EOVERLAP_AND_RESET (source and destination overlap; memmove_s allows it);
// * the printf family returns the number of characters written, or -1 (destination reset) on any error,
//   except that snprintf_s truncating at `count` < destMax is -1 with the truncated string kept.
#pragma once
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (EINVAL | 0x80)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (ERANGE | 0x80)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 0x80)
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif
typedef int errno_t;

namespace ascgen::securec {
inline bool overlap(const void* a, std::size_t an, const void* b, std::size_t bn) {
    auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
    return x < y + bn && y < x + an;
}
// The checks memcpy_s and memmove_s share; -1 when the copy may go ahead.
inline int mem_check(void* dest, std::size_t destMax, const void* src, std::size_t count) {
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) { std::memset(dest, 0, destMax); return EINVAL_AND_RESET; }
    if (count > destMax) { std::memset(dest, 0, destMax); return ERANGE_AND_RESET; }
    return -1;
}
// The checks of every string function: the destination can hold at least the terminator.
inline int str_check(char* dest, std::size_t destMax, const char* src) {
    if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) { dest[0] = '\0'; return EINVAL_AND_RESET; }
    return -1;
}
// Writes src[0, n) and a terminator at dest + at (at + n < destMax checked by the caller).
inline errno_t str_put(char* dest, std::size_t at, const char* src, std::size_t n) {
    if (overlap(dest, at + n + 1, src, n + 1)) { dest[0] = '\0'; return EOVERLAP_AND_RESET; }
    std::memcpy(dest + at, src, n);
    dest[at + n] = '\0';
    return EOK;
}
inline int fail_print(char* dest, std::size_t destMax) {
    if (dest != nullptr && destMax != 0 && destMax <= SECUREC_STRING_MAX_LEN) dest[0] = '\0';
    return -1;
}
}  // namespace ascgen::securec

inline errno_t memset_s(void* dest, std::size_t destMax, int c, std::size_t count) {
    if (dest != nullptr && destMax <= SECUREC_MEM_MAX_LEN && count <= destMax) {
        std::memset(dest, c, count);
        return EOK;
    }
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    std::memset(dest, c, destMax);      // count > destMax: the whole buffer, with c
    return ERANGE_AND_RESET;
}

inline errno_t memcpy_s(void* dest, std::size_t destMax, const void* src, std::size_t count) {
    int e = ascgen::securec::mem_check(dest, destMax, src, count);
    if (e >= 0) return e;
    if (dest != src && ascgen::securec::overlap(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    if (count != 0 && dest != src) std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, std::size_t destMax, const void* src, std::size_t count) {
    int e = ascgen::securec::mem_check(dest, destMax, src, count);
    if (e >= 0) return e;
    if (count != 0) std::memmove(dest, src, count);
    return EOK;
}

inline errno_t strcpy_s(char* dest, std::size_t destMax, const char* src) {
    int e = ascgen::securec::str_check(dest, destMax, src);
    if (e >= 0) return e;
    std::size_t n = strnlen(src, destMax);
    if (n == destMax) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    return dest == src ? EOK : ascgen::securec::str_put(dest, 0, src, n);
}

// Copies at most `count` characters of src and a terminator.
inline errno_t strncpy_s(char* dest, std::size_t destMax, const char* src, std::size_t count) {
    int e = ascgen::securec::str_check(dest, destMax, src);
    if (e >= 0) return e;
    if (count > SECUREC_STRING_MAX_LEN) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    std::size_t n = strnlen(src, count < destMax ? count : destMax);
    if (n == destMax) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    return dest == src ? EOK : ascgen::securec::str_put(dest, 0, src, n);
}

inline errno_t strcat_s(char* dest, std::size_t destMax, const char* src) {
    int e = ascgen::securec::str_check(dest, destMax, src);
    if (e >= 0) return e;
    std::size_t have = strnlen(dest, destMax);
    if (have == destMax) { dest[0] = '\0'; return EINVAL_AND_RESET; }     // dest is not a string
    std::size_t n = strnlen(src, destMax - have);
    if (have + n >= destMax) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    return ascgen::securec::str_put(dest, have, src, n);
}

// Appends at most `count` characters of src and a terminator.
inline errno_t strncat_s(char* dest, std::size_t destMax, const char* src, std::size_t count) {
    int e = ascgen::securec::str_check(dest, destMax, src);
    if (e >= 0) return e;
    if (count > SECUREC_STRING_MAX_LEN) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    std::size_t have = strnlen(dest, destMax);
    if (have == destMax) { dest[0] = '\0'; return EINVAL_AND_RESET; }
    std::size_t room = destMax - have;
    std::size_t n = strnlen(src, count < room ? count : room);
    if (have + n >= destMax) { dest[0] = '\0'; return ERANGE_AND_RESET; }
    return ascgen::securec::str_put(dest, have, src, n);
}

// At most `count` characters (count < destMax: truncation there is -1 with the text kept).
inline int vsnprintf_s(char* dest, std::size_t destMax, std::size_t count, const char* format, va_list args) {
    if (dest == nullptr || format == nullptr || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN ||
        count > SECUREC_STRING_MAX_LEN)
        return ascgen::securec::fail_print(dest, destMax);
    std::size_t limit = count < destMax ? count + 1 : destMax;    // buffer bytes vsnprintf may use
    int n = std::vsnprintf(dest, limit, format, args);
    if (n < 0) return ascgen::securec::fail_print(dest, destMax);
    if (std::size_t(n) < limit) return n;
    if (count < destMax) return -1;                               // truncated at count, as asked
    return ascgen::securec::fail_print(dest, destMax);            // did not fit the buffer
}

inline int vsprintf_s(char* dest, std::size_t destMax, const char* format, va_list args) {
    return vsnprintf_s(dest, destMax, destMax, format, args);     // count >= destMax: no truncation allowed
}

inline int snprintf_s(char* dest, std::size_t destMax, std::size_t count, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
inline int snprintf_s(char* dest, std::size_t destMax, std::size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf_s(dest, destMax, count, format, args);
    va_end(args);
    return n;
}

inline int sprintf_s(char* dest, std::size_t destMax, const char* format, ...) __attribute__((format(printf, 3, 4)));
inline int sprintf_s(char* dest, std::size_t destMax, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf_s(dest, destMax, destMax, format, args);
    va_end(args);
    return n;
}
