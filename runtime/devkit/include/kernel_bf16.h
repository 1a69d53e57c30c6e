// ascgen devkit backend: bfloat16_t is defined in stub_def.h (ascgen_devkit/types.h).
#pragma once
#include "stub_def.h"
