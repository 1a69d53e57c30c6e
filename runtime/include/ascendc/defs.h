// Qualifiers, pipes, events and kernel-type names of Ascend C, for a CPU build.
//
// On the device these are compiler keywords (__aicore__, __gm__ ...) or builtins; here they expand to
// nothing so the unchanged kernel text compiles with g++ / clang++. Values that the core runtime also
// uses (pipe numbers) come from ascgen/rt.h so the library, the core and Python agree.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ascgen/rt.h"

// ---- function and address-space qualifiers: no meaning on the CPU ----
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(...)
#endif
#ifndef __inline__
#define __inline__ inline
#endif

#define GM_ADDR uint8_t*

// ---- pipes: the numbers are the core's (rt::pipe), both from the product table (ascgen_arch.h) ----
enum pipe_t : int { ASCGEN_ARCH_PIPE_ENUMERATORS };

// ---- intra-core event ids (SetFlag / WaitFlag) ----
enum event_t : int {
    EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7,
};

// ---- kernel types: KERNEL_TASK_TYPE_DEFAULT is a no-op here; Python reads the type from the text ----
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))

// ---- core type tests: run-time checks of the emulated core (both true on coupled products) ----
#define ASCEND_IS_AIV (::ascgen::rt::is_coupled() || ::ascgen::rt::core_type() == ::ascgen::rt::CoreType::AIV)
#define ASCEND_IS_AIC (::ascgen::rt::is_coupled() || ::ascgen::rt::core_type() == ::ascgen::rt::CoreType::AIC)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

// ---- legacy globals ----
// On the device `block_idx` / `block_num` are per-core globals. Here they are constant objects that read
// the calling core's identity when converted, so they are thread-safe and a user variable of the same
// name simply shades them (a macro would break `uint32_t block_num = ...`).
namespace ascgen {
namespace lib {
struct BlockIdxVar {
    operator int64_t() const { return ::ascgen::rt::block_idx(); }
};
struct BlockNumVar {
    operator int64_t() const { return ::ascgen::rt::block_num(); }
};
}  // namespace lib
}  // namespace ascgen
inline constexpr ::ascgen::lib::BlockIdxVar block_idx{};
inline constexpr ::ascgen::lib::BlockNumVar block_num{};
inline int64_t get_block_idx() { return ::ascgen::rt::block_idx(); }
inline int64_t get_block_num() { return ::ascgen::rt::block_num(); }
inline int64_t get_subblockid() { return ::ascgen::rt::sub_block_idx(); }
inline int64_t get_task_ration() { return ::ascgen::rt::task_ratio(); }
