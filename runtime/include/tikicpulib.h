// The CANN CPU-debug header of legacy ICPU-style programs: the kernel API plus the host helpers
// (GmAlloc / GmFree / ICPU_RUN_KF / SetKernelMode).
#pragma once
#include "kernel_operator.h"
#include "ascgen/host_icpu.h"
// CANN's tikicpulib.h brings securec (memset_s, memcpy_s...): UT host code calls it without an include
#include "securec.h"
