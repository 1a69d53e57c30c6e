// The CANN CPU-debug header of legacy ICPU-style programs: the kernel API plus the host helpers
// (GmAlloc / GmFree / ICPU_RUN_KF / SetKernelMode).
#pragma once
#include "kernel_operator.h"
#include "ascgen/host_icpu.h"
