// ascgen devkit backend: the CPU-debug launch helpers (ICPU_RUN_KF, GmAlloc...) ascgen provides for both
// backends, without the builtin backend's kernel_operator.h (runtime/include/tikicpulib.h would include it).
#pragma once
#include "kernel_operator.h"
#include "ascgen/host_icpu.h"
// CANN's tikicpulib.h brings securec (memset_s, memcpy_s...): UT host code calls it without an include
#include "securec.h"
// the prelude of every devkit translation unit includes this header right after the library's: the
// library's kernel-side DT_* and FORMAT_* macros end here, before the program's own code (the header says
// why)
#include "../host/include/ascgen_kernel_type_macros_end.h"
// the operator repositories' tiling conventions (GET_TILING_DATA*, ICPU_SET_TILING_KEY...), after any
// force-included op tiling header (see the header)
#include "ascgen_devkit/op_tiling.h"
