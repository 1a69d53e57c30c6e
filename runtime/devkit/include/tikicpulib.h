// ascgen devkit backend: CANN's CPU-debug umbrella header. The build wrapper includes it ahead of every
// source (ascgen/runtime/wrapper.py PRELUDE); on this backend it must bring in the real library, not the
// builtin backend's runtime/include/tikicpulib.h (which includes the builtin kernel_operator.h). This
// folder comes first on the include path, so this file is found instead. The legacy ICPU host helpers
// (GmAlloc / ICPU_RUN_KF) are the builtin backend's; the library declares its own GmAlloc hooks.
#pragma once
#include "kernel_operator.h"
