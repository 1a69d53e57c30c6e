// dav_3510 (ascend950): the register-based vector ISA and the DMA forms its library code uses, on the
// ascgen core. Included by ../intrinsics.h for __NPU_ARCH__ == 3510 only. What it lacks is declared in
// ../missing.h and others.h, both generated from the intrinsic table (ascgen/runtime/backends/devkit/intrinsics.py).
#pragma once
// KernelMode and AscendC::GmAlloc / GmFree: the CPU-debug host API the library's buffer allocator names.
#include "ascgen/host_icpu.h"
#include "types.h"
#include "simt.h"
#include "../missing.h"
#include "vreg.h"
#include "vblock.h"
#include "vpred.h"
#include "valu.h"
#include "vreduce.h"
#include "vconv.h"
#include "simt_builtins.h"
#include "dma.h"
#include "nddma.h"
#include "cube.h"
#include "others.h"

// dav_3510 names the pipe of a flag wait: wait_flag_dev(pipe, flag).
inline void wait_flag_dev(pipe_t, int64_t flag, const char* caller = __builtin_FUNCTION()) {
    wait_flag_dev(flag, caller);
}

// Buffer-ID synchronisation (GetBuff / ReleaseBuff around a queue's buffer): a core runs its pipes in
// program order, so acquiring and releasing order nothing here; the pairing is checked by the library's
// BufIdTracker, defined in model.h.
inline void get_buf(pipe_t, uint8_t, bool) {}
inline void rls_buf(pipe_t, uint8_t, bool) {}

// LocalTensor::SetBufferLen on dav_3510 folds the tensor's new length into its UB address for the hardware's
// bounds check of later accesses through it. The model keeps the address as it is: every UB access is
// already checked against the UB and reported at the user's line, though not against this tighter bound.
template <class A, class N> inline A set_ub_addr_upper_bound(A addr, N) { return addr; }

// The model runs one kernel type per launch through its own entry, never the library's mixed allocator.
inline KernelMode g_kernelMode = KernelMode::AIV_MODE;
