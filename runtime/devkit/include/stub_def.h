// ascgen devkit backend: the CPU-model definitions the Ascend C library's CPU-debug configuration
// (ASCENDC_CPU_DEBUG=1) includes but does not ship. Written for ascgen; the intrinsics are implemented in
// the family headers under ascgen_devkit/ on the ascgen core (rt.h). Anything the library calls that is not
// implemented there is declared only (ascgen_devkit/missing.h, generated from the intrinsic table
// ascgen/runtime/backends/devkit/intrinsics.py), so the link names it (docs/intrinsics.md).
#pragma once
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <cmath>
#include <type_traits>
// The library's CPU-debug code uses these without including them (tikicpulib's stub_def.h does).
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <map>
#include <set>
#include <unordered_map>
#include <iostream>
#include <sstream>
#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
// std::map of the library's enum keys as an array (its CPU-debug tables are copied by value per API call)
#include "ascgen_devkit/enum_map.h"
// std::default_random_engine reading its default-seeded sequence from a table (TPipe::Init fills local memory with it)
#include "ascgen_devkit/default_engine.h"

#ifndef ASCGEN_DEVKIT
#define ASCGEN_DEVKIT 1
#endif

// Kernel modules are built with -fvisibility=hidden (one copy per core). The core's types must keep default
// visibility, or rt::Cancelled thrown in a module would not match the core's catch (typeinfo identity).
#pragma GCC visibility push(default)
#include "ascgen/rt.h"
#pragma GCC visibility pop

// ---- address-space and function qualifiers: meaningless on the CPU ----
#define __aicore__
#define __global__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __biasbuf__
#define __ssbuf__
#define __simt_gm__
#define __simd_callee__
#define __simd_vf__
#define __simt_callee__
#define __simt_vf__
// bisheng's bound on a SIMT function's threads per launch (a code-generation hint), in both spellings
#define LAUNCH_BOUND(threads)
#define __launch_bounds__(...)
#define __callee__
#define __no_simd_vf_fusion__
#define __sync_noalias__
#define __sync_alias__
#define __check_sync_alias__
#define __host_aicore__
#define __disable_kernel_type_autoinfer__
// The library marks its scalar-pipe accessors __inout_pipe__(S): GlobalTensor / LocalTensor GetValue,
// SetValue and operator() (asc-devkit include/basic_api/kernel_tensor.h). On the device a GM scalar load
// goes to memory each time; in CPU mode it is a plain pointer access g++ -O2 may hoist out of a poll loop
// or delete with it (a flag another core writes then reads as stale zeros). An opaque call per access
// (noipa: the caller knows nothing of the body, so it may write memory) keeps every load and store, in
// program order. The other pipes' tags mean nothing to the model.
#if defined(__clang__)
#define ASCGEN_DEVKIT_PIPE_S __attribute__((noinline, optnone))   // optnone: no attribute inference either
#else
#define ASCGEN_DEVKIT_PIPE_S __attribute__((noipa))
#endif
#define ASCGEN_DEVKIT_PIPE_V
#define ASCGEN_DEVKIT_PIPE_M
#define ASCGEN_DEVKIT_PIPE_MTE1
#define ASCGEN_DEVKIT_PIPE_MTE2
#define ASCGEN_DEVKIT_PIPE_MTE3
#define ASCGEN_DEVKIT_PIPE_FIX
#define ASCGEN_DEVKIT_PIPE_ALL
#define __inout_pipe__(pipe) ASCGEN_DEVKIT_PIPE_##pipe
#define __in_pipe__(...)
#define __out_pipe__(...)
#define __vector__
#define __cube__
#define __mix__(...)
#define __kfc_workspace__
#define ASCENDC_HOST
#define ASCENDC_AICORE
#define ASCENDC_HOST_AICORE
// Block-local globals: one copy of the kernel module per emulated core makes plain globals per core.
#define __BLOCK_LOCAL__
#ifndef __host__
#define __host__
#endif

#include "ascgen_devkit/types.h"
#include "ascgen_devkit/globals.h"
#include "ascgen_devkit/intrinsics.h"
#include "ascgen_devkit/missing.h"

// The library's CPU-mode checks (kernel_log.h: ASCENDC_ASSERT, ASCENDC_REPORT_NOT_SUPPORT...) end with an
// unqualified raise(SIGABRT). Inside namespace AscendC this declaration is found before ::raise: on a core it
// turns the abort into a KernelAssertError naming the user's line (ascgen_devkit::library_raise, defined in
// ascgen_devkit/model.h) instead of ending the process. It is a template so that where ::raise is found too
// (the macro expanded in a kernel's own namespace that says `using namespace AscendC`: ops-nn's matmul code)
// the call is not ambiguous: glibc's non-template raise wins there and a failed check aborts, as without ascgen.
#include <csignal>
namespace ascgen_devkit {
int library_raise(int sig);
}
namespace AscendC {
template <class Sig> inline int raise(Sig sig) { return ::ascgen_devkit::library_raise(int(sig)); }
}
// The library's assert() and ascendc_assert() (include/utils/debug/asc_assert.h) call __assert_fail(#expr,
// __FILE__, __LINE__, __PRETTY_FUNCTION__) in CPU mode, which is glibc's and aborts the process. __LINE__ is an
// int, so this overload (int, not glibc's unsigned int) is the better match for every such call parsed after
// this line, in the library and in the user's kernel alike: on a core the failed assertion is a
// KernelAssertError naming the user's line (defined in ascgen_devkit/model.h); on the host it aborts as before.
void __assert_fail(const char* assertion, const char* file, int line, const char* function);
