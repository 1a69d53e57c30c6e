// ascgen devkit backend: the wrapper's prelude includes tikicpulib.h (ascgen/runtime/wrapper.py); here it
// is the real library's kernel_operator.h only. The builtin backend's ICPU helpers (runtime/include/
// tikicpulib.h) are built on ascgen's own AscendC:: headers and are not available with the real library:
// a program using ICPU_RUN_KF fails to compile naming it.
#pragma once
#include "kernel_operator.h"
