// dav_3510 (ascend950): the register-based vector ISA and the DMA forms its library code uses, on the
// ascgen core. Included by ../intrinsics.h for __NPU_ARCH__ == 3510 only.
#pragma once
#include "types.h"
#include "simt.h"
#include "missing.h"
#include "vreg.h"
#include "vpred.h"
#include "valu.h"
#include "dma.h"

// dav_3510 names the pipe of a flag wait: wait_flag_dev(pipe, flag).
inline void wait_flag_dev(pipe_t, int64_t flag, const char* caller = __builtin_FUNCTION()) {
    wait_flag_dev(flag, caller);
}
