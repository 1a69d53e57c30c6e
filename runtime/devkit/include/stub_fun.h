// ascgen devkit backend: the CPU-model hook declarations the library's CPU-debug configuration includes.
// Everything lives in stub_def.h (the library includes either or both, in any order).
#pragma once
#include "stub_def.h"
