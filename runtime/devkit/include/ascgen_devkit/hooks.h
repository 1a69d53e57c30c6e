// The CPU-model hooks of the library's CPU-debug configuration.
//
// Buffer and queue notifications (AscendCBuf*, AscendCQueCreate, AscendCTBufPool*...) feed tikicpulib's own
// bookkeeping checks; this backend checks at the intrinsic layer instead, so they only record where this
// core's local buffers are (AscendCBufAbsAddr, which also orders the TPipe's fill of them before the peers'
// writes, peer.h) and otherwise accept the notification.
#pragma once
#include <cstdint>
#include "peer.h"
#include "state.h"

inline void AscendCBufAbsAddr(uint8_t hw, uint64_t addr, uint64_t len) {
    if (hw < ascgen_devkit::HW_COUNT) ascgen_devkit::bufs[hw] = ascgen_devkit::LocalBuf{addr, len};
    if (hw == 1 /* Hardware::UB */) {
        ascgen_devkit::regs.ub_base = addr;
        ascgen_devkit::regs.ub_len = len;
    } else if (hw == 2 /* Hardware::L1 */) {
        ascgen_devkit::regs.l1_base = addr;
        ascgen_devkit::regs.l1_len = len;
    }
    ascgen_devkit::inbox_filled(hw);   // the TPipe has just filled its buffers: the peers' writes again
}
template <class... A> inline void AscendCBufInit(A...) {}
template <class... A> inline void AscendCBufAlloc(A...) {}
template <class... A> inline void AscendCBufFree(A...) {}
template <class... A> inline void AscendCBufEnque(A...) {}
template <class... A> inline void AscendCBufDeque(A...) {}
template <class... A> inline void AscendCBufGet(A...) {}
template <class... A> inline void AscendCQueCreate(A...) {}
template <class... A> inline void AscendCRecordPoolHierarchy(A...) {}
template <class... A> inline void AscendCTBufPoolInit(A...) {}
template <class... A> inline void AscendCTBufPoolResetCheck(A...) {}
template <class... A> inline void AscendCUpdateTbufPoolStatus(A...) {}
