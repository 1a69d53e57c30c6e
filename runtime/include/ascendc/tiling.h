// Tiling data and tiling keys in the kernel: REGISTER_TILING_DEFAULT / GET_TILING_DATA copy the host's
// tiling struct out of the GM tiling argument (one checked GM read); TILING_KEY_IS compares with the
// module's tiling key, which the host side sets through the exported `ascgen_tiling_key` variable.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/check.h"

// The tiling key of the next launch of this module (written by the launcher before launching).
extern "C" {
__attribute__((weak, visibility("default"))) uint64_t ascgen_tiling_key = 0;
}

namespace ascgen {
namespace lib {

inline void load_tiling(void* dst, const void* src, size_t bytes, rt::Loc loc) {
    enter(loc);
    ASCGEN_MEM_CHECK(src != nullptr, loc, "GET_TILING_DATA: the tiling argument is a null pointer");
    rt::gm_access(src, bytes, false, loc);
    std::memcpy(dst, src, bytes);
}

}  // namespace lib
}  // namespace ascgen

// The tiling struct GET_TILING_DATA declares. REGISTER_TILING_DEFAULT(S) declares a function
// `S ascgen_tiling_default(int, S* = nullptr)` whose return type GET_TILING_DATA takes: valid in a kernel body
// and at file scope alike (operator kernels register in both places; an alias at file scope would clash with
// the fallback). Lookup finds the nearest declaration: a block-scope one hides the file-scope ones, and at file
// scope the registration's (int) outranks the fallback's (...). The devkit backend's op_tiling.h does the same.
namespace ascgen {
namespace lib {
struct NoTilingRegistered {};
}  // namespace lib
}  // namespace ascgen
::ascgen::lib::NoTilingRegistered ascgen_tiling_default(...);

#define REGISTER_TILING_DEFAULT(tiling_struct) tiling_struct ascgen_tiling_default(int, tiling_struct* = nullptr)
#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct) ((void)0)
#define REGISTER_NONE_TILING
#define GET_TILING_DATA(tiling_data, tiling_arg)                                                          \
    static_assert(!std::is_same<decltype(ascgen_tiling_default(0)), ::ascgen::lib::NoTilingRegistered>::value, \
                  "GET_TILING_DATA needs REGISTER_TILING_DEFAULT(YourTilingStruct) before it (ascgen)");    \
    decltype(ascgen_tiling_default(0)) tiling_data;                                                           \
    ::ascgen::lib::load_tiling(&tiling_data, (tiling_arg), sizeof(tiling_data), ASCGEN_HERE)
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                              \
    ::ascgen::lib::load_tiling(&tiling_data, (tiling_arg), sizeof(tiling_data), ASCGEN_HERE)
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr) \
    const tiling_struct* dst_ptr = reinterpret_cast<const tiling_struct*>(tiling_ptr)
#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling_arg)                                          \
    decltype(tiling_type::member) var;                                                                        \
    ::ascgen::lib::load_tiling(&var, reinterpret_cast<const uint8_t*>(tiling_arg) + offsetof(tiling_type, member), \
                               sizeof(var), ASCGEN_HERE)

#define TILING_KEY_VAR ascgen_tiling_key
#define TILING_KEY_IS(k) (TILING_KEY_VAR == (k))
#define ENABLE_DETERMINISTIC()
