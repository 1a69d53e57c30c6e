// ascgen devkit backend: the CPU-debug launch helpers (ICPU_RUN_KF, GmAlloc...) ascgen provides for both
// backends, without the builtin backend's kernel_operator.h (runtime/include/tikicpulib.h would include it).
#pragma once
#include "kernel_operator.h"
#include "ascgen/host_icpu.h"
