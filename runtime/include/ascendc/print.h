// AscendC::printf / PRINTF, DumpTensor and assertions. Output goes through rt::print, which prefixes the
// core ("[AIV3] ") and keeps lines from different cores whole.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "ascendc/check.h"
#include "ascendc/defs.h"
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

inline std::string vformat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string vformat(const char* fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return std::string("<printf: bad format>");
    if (size_t(n) < sizeof small) return std::string(small, size_t(n));
    std::string big(size_t(n) + 1, '\0');
    va_start(ap, fmt);
    std::vsnprintf(&big[0], big.size(), fmt, ap);
    va_end(ap);
    big.resize(size_t(n));
    return big;
}

template <class... A>
inline void kernel_printf(const char* fmt, const A&... args) {
    rt::poll();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::string s = sizeof...(A) ? vformat(fmt, vararg(args)...) : std::string(fmt);
#pragma GCC diagnostic pop
    rt::print(s.c_str());
}

template <class T>
inline std::string elem_text(const T& v) {
    if constexpr (is_float_like<T>::value) return vformat("%g", double(compute_t<T>(v)));
    else if constexpr (std::is_signed<T>::value) return vformat("%lld", static_cast<long long>(v));
    else return vformat("%llu", static_cast<unsigned long long>(v));
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

// Print the first dumpSize elements of a local tensor, tagged with `desc`.
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    uint32_t n = dumpSize < t.capacity() ? dumpSize : t.capacity();
    std::string s = ::ascgen::lib::vformat("DumpTensor: desc=%u, addr=%llu, size=%u\n[", desc,
                                           ::ascgen::lib::ull(t.ub_off()), n);
    for (uint32_t i = 0; i < n; ++i) s += (i ? ", " : "") + ::ascgen::lib::elem_text(t.data()[i]);
    s += "]";
    ::ascgen::rt::print(s.c_str());
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::lib::enter(loc);
    t.check_range(0, dumpSize, "DumpTensor", loc);
    ::ascgen::rt::gm_access(t.data(), uint64_t(dumpSize) * sizeof(T), false, loc);
    std::string s = ::ascgen::lib::vformat("DumpTensor: desc=%u, size=%u\n[", desc, dumpSize);
    for (uint32_t i = 0; i < dumpSize; ++i) s += (i ? ", " : "") + ::ascgen::lib::elem_text(t.data()[i]);
    s += "]";
    ::ascgen::rt::print(s.c_str());
}

inline void trap(::ascgen::rt::Loc loc = ASCGEN_HERE) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, loc, "trap() called");
}

}  // namespace AscendC

// ascendc_assert(cond, fmt, ...): a KernelAssertError naming the condition and the message.
#define ascendc_assert(cond, ...)                                                                          \
    do {                                                                                                   \
        if (!(cond))                                                                                       \
            ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ASCGEN_HERE, "ascendc_assert(%s) failed: %s", #cond, \
                               ::ascgen::lib::assert_text(__VA_ARGS__).c_str());                           \
    } while (0)

namespace ascgen {
namespace lib {
inline std::string assert_text() { return std::string(); }
template <class... A>
inline std::string assert_text(const char* fmt, const A&... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::string s = sizeof...(A) ? vformat(fmt, vararg(args)...) : std::string(fmt);
#pragma GCC diagnostic pop
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}
}  // namespace lib
}  // namespace ascgen
