// ascgen's emulated Ascend C library: the header kernels include. It compiles unchanged Ascend C with
// g++/clang++ and runs each op on the CPU, talking to the core runtime only through ascgen/rt.h.
// Supported API and known gaps: docs/library.md.
#pragma once

#include "ascgen/rt.h"
#include "ascendc/defs.h"
#include "ascendc/half.h"
#include "ascendc/types.h"
#include "ascendc/utils.h"
#include "ascendc/tensor.h"
#include "ascendc/events.h"
#include "ascendc/pipe.h"
#include "ascendc/copy.h"
#include "ascendc/mask.h"
#include "ascendc/vec_ops.h"
#include "ascendc/cast.h"
#include "ascendc/compare.h"
#include "ascendc/reduce.h"
#include "ascendc/gather.h"
#include "ascendc/sort.h"
#include "ascendc/cube.h"
#include "ascendc/sync.h"
#include "ascendc/print.h"
#include "ascendc/tiling.h"
#include "ascendc/superkernel.h"
