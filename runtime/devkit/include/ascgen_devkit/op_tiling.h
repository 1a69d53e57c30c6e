// The operator repositories' kernel-side tiling conventions on the devkit backend (docs/op-conventions.md).
//
// What the library itself defines in its CPU-debug configuration is used as it is
// (impl/basic_api/utils/kernel_utils_macros.h): TILING_KEY_VAR = g_tilingKey (declared extern there, defined
// per module copy in model.h), TILING_KEY_IS, TILING_KEY_LIST, KERNEL_TASK_TYPE(_DEFAULT) (empty outside the
// op compiler's precompile pass), REGISTER_TILING_FOR_TILINGKEY.
//
// What the op build provides and the library does not: the GET_TILING_DATA* macros (CANN's build writes
// them into the generated <op>_tiling_data.h, or the UT's own <op>_tiling_def.h defines them) and the
// CPU-debug ICPU_SET_TILING_KEY. They are defined here only when nothing before defined them: the op's
// tiling header is force-included (-include) ahead of this one, so its definitions win and nothing is
// redefined.
//
// This header is part of every devkit translation unit's prelude (tikicpulib.h), after kernel_operator.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "ascgen/rt.h"

// The tiling key of this module's next launch, in the module copy Python or the host program loaded
// (Module.set_tiling_key, ICPU_SET_TILING_KEY); each core's copy gets it in its g_tilingKey when the core
// starts (copies.h). Defined in model.h.
extern "C" __attribute__((visibility("default"))) uint64_t ascgen_tiling_key;

namespace ascgen_devkit {

// GET_TILING_DATA*: the tiling argument is GM; reading it is one checked GM read of the whole struct.
inline void load_tiling(void* dst, const void* src, size_t bytes, const char* macro, ::ascgen::rt::Loc loc) {
    namespace rt = ::ascgen::rt;
    if (src == nullptr) rt::fail(rt::Fault::Memory, loc, "%s: the tiling argument is a null pointer", macro);
    rt::gm_access(src, bytes, false, loc);
    std::memcpy(dst, src, bytes);
}

template <class T>
inline const T* tiling_view(const void* src, const char* macro, ::ascgen::rt::Loc loc) {
    namespace rt = ::ascgen::rt;
    if (src == nullptr) rt::fail(rt::Fault::Memory, loc, "%s: the tiling argument is a null pointer", macro);
    rt::gm_access(src, sizeof(T), false, loc);
    return reinterpret_cast<const T*>(src);
}

struct NoTilingRegistered {};
// The struct GET_TILING_DATA declares when the op's generated tiling header names a default: a kernel's own
// REGISTER_TILING_DEFAULT(S) still wins, as in CANN, whose generated header takes the struct from that
// registration (ops-nn ascend_quant_v2's ascend950 kernel registers QuantizeTilingData, the struct its
// regbase host tiling writes, while the op type's registered class is AscendQuantV2TilingData).
template <class Registered, class Fallback>
using tiling_struct_t = std::conditional_t<std::is_same<Registered, NoTilingRegistered>::value, Fallback, Registered>;

}  // namespace ascgen_devkit

// REGISTER_TILING_DEFAULT(S): the library's definition records sizeof(S) in a section for the op compiler;
// GET_TILING_DATA then declares an S (CANN's generated header takes the struct from this registration,
// tests/ut/op_kernel/scripts/gen_tiling_head_file.py, get_default_tiling_struct). Here it declares a function
// `S ascgen_tiling_default(int, S* = nullptr)` whose return type GET_TILING_DATA takes: valid in a kernel
// body and at file scope alike (ops-nn registers in both places; an alias at file scope would clash with
// the fallback). Name lookup finds the nearest: a block-scope declaration hides the file-scope ones; at file
// scope the registration's (int) outranks the fallback's (...). The S* parameter makes each struct its own
// overload, so a block-scope registration never redeclares a file-scope one with another return type.
::ascgen_devkit::NoTilingRegistered ascgen_tiling_default(...);
#undef REGISTER_TILING_DEFAULT
#define REGISTER_TILING_DEFAULT(tiling_struct) tiling_struct ascgen_tiling_default(int, tiling_struct* = nullptr)

#ifndef GET_TILING_DATA
#define GET_TILING_DATA(tiling_data, tiling_arg)                                                                 \
    static_assert(!std::is_same<decltype(ascgen_tiling_default(0)), ::ascgen_devkit::NoTilingRegistered>::value, \
                  "GET_TILING_DATA: no tiling struct is known. Register one with REGISTER_TILING_DEFAULT(S), "   \
                  "or force-include the op's tiling header (ascgen.source.op_tiling.kernel_tiling_header)");     \
    decltype(ascgen_tiling_default(0)) tiling_data;                                                              \
    ::ascgen_devkit::load_tiling(&tiling_data, (tiling_arg), sizeof(tiling_data), "GET_TILING_DATA", ASCGEN_HERE)
#endif
#ifndef GET_TILING_DATA_WITH_STRUCT
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                              \
    ::ascgen_devkit::load_tiling(&tiling_data, (tiling_arg), sizeof(tiling_data), "GET_TILING_DATA_WITH_STRUCT", ASCGEN_HERE)
#endif
#ifndef __tiling_data_ptr__
// The address space of a pointer into the tiling data: the op build defines it beside the GET_TILING_DATA*
// macros (ops-math eye's UT header: `__gm__ const`), and opbase's atvoss elementwise schedules declare their
// tiling pointers with it (elewise_sch_16b.h, elewise_sch_with_scalar.h; ops-math sqrt, exp, ... on ascend950).
#define __tiling_data_ptr__ __gm__ const
#endif
#ifndef GET_TILING_DATA_PTR_WITH_STRUCT
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr) \
    const tiling_struct* dst_ptr =                                          \
        ::ascgen_devkit::tiling_view<tiling_struct>((tiling_ptr), "GET_TILING_DATA_PTR_WITH_STRUCT", ASCGEN_HERE)
#endif
#ifndef GET_TILING_DATA_MEMBER
#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling_arg)                                            \
    decltype(tiling_type::member) var;                                                                          \
    ::ascgen_devkit::load_tiling(&var, reinterpret_cast<const uint8_t*>(tiling_arg) + offsetof(tiling_type, member), \
                                 sizeof(var), "GET_TILING_DATA_MEMBER", ASCGEN_HERE)
#endif
#ifndef GET_TILING_DATA_MEMBER_ADDR
// A pointer to the member inside the GM tiling data (its bytes checked once), not a copy.
#define GET_TILING_DATA_MEMBER_ADDR(tiling_type, member, var, tiling_arg)                                       \
    const decltype(tiling_type::member)* var = ::ascgen_devkit::tiling_view<decltype(tiling_type::member)>(       \
        reinterpret_cast<const uint8_t*>(tiling_arg) + offsetof(tiling_type, member), "GET_TILING_DATA_MEMBER_ADDR", \
        ASCGEN_HERE)
#endif

// The device compiler's builtin bfloat16 is `__bf16`, and the library's bfloat16_t is that type (kernels
// compare them with std::is_same). A macro, not a typedef: GCC 13 makes `__bf16` a builtin type of its own,
// which is not ours; defined here, after the library's and the system's headers, so none of them sees it.
#ifndef __bf16
#define __bf16 bfloat16_t
#endif

// CPU-debug host API: the key TILING_KEY_IS compares with in the next ICPU_RUN_KF launches.
#ifndef ICPU_SET_TILING_KEY
#define ICPU_SET_TILING_KEY(key) (void)(::ascgen_tiling_key = static_cast<uint64_t>(key))
#endif
