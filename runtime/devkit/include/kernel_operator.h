// ascgen devkit backend: the library's kernel_operator.h, then, in a CPU-debug build, its data-type macros
// again from the point a source includes it.
//
// The library's kernel_type.h defines DT_FLOAT, DT_INT4... FORMAT_ND... as macros in CPU-debug mode (none of
// __NPU_HOST__, __NPU_DEVICE__, __ASCC_HOST__, __ASCC_DEVICE__ defined). Every devkit translation unit's
// prelude includes the library and then ends the DT_* / FORMAT_* macros (ascgen_kernel_type_macros_end.h
// says why: host code of the same unit declares enumerators of those names). CANN's CPU-debug build (its tikicpulib::<soc>
// target defines __CCE_KT_TEST__) has no such prelude: a unit sees the macros from the point it includes
// kernel_operator.h, so an operator kernel compares them in `#if ORIG_DTYPE_X == DT_FLOAT16` (a rule's
// `-DORIG_DTYPE_X=DT_FLOAT16`) and in C++ (`tilingData_.dstType == DT_INT4`). Without them the first
// would read both sides as 0, a silently wrong branch, and the second fails to compile. So here, in a
// CPU-debug build, the library's own kernel_type.h is read again, as that build would have read it.
// No include guard: every inclusion is such a point (the library's part below is guarded).
#include_next "kernel_operator.h"
#if defined(__CCE_KT_TEST__)
#undef KERNEL_TYPE_H
#include "kernel_type.h"
#endif
