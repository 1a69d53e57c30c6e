// AscendC::printf / PRINTF, DumpTensor and assertions. Output goes through rt::print, which prefixes the
// core ("[AIV3] ") and keeps lines from different cores whole.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "ascendc/check.h"
#include "ascendc/defs.h"
#include "ascendc/scratch.h"
#include "ascendc/tensor.h"

namespace ascgen {
namespace lib {

// printf arguments as C varargs accept them: half/bfloat16 as double, block_idx/block_num as integers.
template <class A>
inline auto vararg(const A& a) {
    if constexpr (is_low_float<A>::value) return double(float(a));
    else if constexpr (std::is_same<A, BlockIdxVar>::value || std::is_same<A, BlockNumVar>::value)
        return static_cast<long long>(int64_t(a));
    else if constexpr (std::is_enum<A>::value) return static_cast<long long>(a);
    else return a;
}

inline void vappend(Text& out, const char* fmt, va_list ap) {
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = std::vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        out.append("<printf: bad format>", 20);
    } else if (size_t(n) < sizeof small) {
        out.append(small, size_t(n));
    } else {
        Scratch<char> big(size_t(n) + 1);
        std::vsnprintf(big.data(), size_t(n) + 1, fmt, again);
        out.append(big.data(), size_t(n));
    }
    va_end(again);
}

inline void append(Text& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
inline void append(Text& out, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vappend(out, fmt, ap);
    va_end(ap);
}

// The user's format with converted arguments (a literal format without arguments is printed as is).
template <class... A>
inline void format_user(Text& out, const char* fmt, const A&... args) {
    if constexpr (sizeof...(A) == 0) {
        size_t n = 0;
        while (fmt[n]) ++n;
        out.append(fmt, n);
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        append(out, fmt, vararg(args)...);
#pragma GCC diagnostic pop
    }
}

template <class... A>
inline void kernel_printf(const char* fmt, const A&... args) {
    rt::poll();
    Text t;
    format_user(t, fmt, args...);
    rt::print(t.c_str());
}

template <class T>
inline void append_elem(Text& out, const T& v) {
    if constexpr (is_float_like<T>::value) append(out, "%g", double(compute_t<T>(v)));
    else if constexpr (std::is_signed<T>::value) append(out, "%lld", static_cast<long long>(v));
    else append(out, "%llu", static_cast<unsigned long long>(v));
}

template <class T>
inline void dump(const char* head, const T* p, uint32_t n) {
    Text s;
    s.append(head, __builtin_strlen(head));
    s.append("[", 1);
    for (uint32_t i = 0; i < n; ++i) {
        if (i) s.append(", ", 2);
        append_elem(s, p[i]);
    }
    s.append("]", 1);
    rt::print(s.c_str());
}

}  // namespace lib
}  // namespace ascgen

namespace AscendC {

template <class... Args>
inline void printf(const char* fmt, const Args&... args) {
    ::ascgen::lib::kernel_printf(fmt, args...);
}
template <class... Args>
inline void PRINTF(const char* fmt, const Args&... args) {
    ::ascgen::lib::kernel_printf(fmt, args...);
}

// Print the first dumpSize elements of a tensor, tagged with `desc`.
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    uint32_t n = dumpSize < t.capacity() ? dumpSize : t.capacity();
    char head[96];
    std::snprintf(head, sizeof head, "DumpTensor: desc=%u, addr=%llu, size=%u\n", desc,
                  ::ascgen::lib::ull(t.ub_off()), n);
    ::ascgen::lib::dump(head, t.data(), n);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    t.check_range(0, dumpSize, "DumpTensor", loc);
    ::ascgen::rt::gm_access(t.data(), uint64_t(dumpSize) * sizeof(T), false, loc);
    char head[64];
    std::snprintf(head, sizeof head, "DumpTensor: desc=%u, size=%u\n", desc, dumpSize);
    ::ascgen::lib::dump(head, t.data(), dumpSize);
}

inline void trap(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, loc, "trap() called");
}

}  // namespace AscendC

namespace ascgen {
namespace lib {
// The message of ascendc_assert(cond, fmt, args...), without trailing newlines.
inline void assert_text(Text&) {}
template <class... A>
inline void assert_text(Text& out, const char* fmt, const A&... args) {
    format_user(out, fmt, args...);
    out.drop_trailing_newlines();
}
}  // namespace lib
}  // namespace ascgen

// ascendc_assert(cond, fmt, ...): a KernelAssertError naming the condition and the message.
#define ascendc_assert(cond, ...)                                                                           \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            ::ascgen::lib::Text ascgen_msg_;                                                                \
            ::ascgen::lib::assert_text(ascgen_msg_, ##__VA_ARGS__);                                         \
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ASCGEN_HERE, "ascendc_assert(%s) failed: %s", #cond, \
                               ascgen_msg_.c_str());                                                        \
        }                                                                                                   \
    } while (0)
