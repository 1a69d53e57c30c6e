// Per-core registers of the emulated AI core as the intrinsic layer sees them. Plain (inline) globals:
// the backend loads one copy of the kernel module per core, each built with hidden visibility and
// -fno-gnu-unique, so every core owns its copy (docs/devkit.md, "isolation").
#pragma once
#include <cstdint>
#include <exception>
#include "ascgen/rt.h"
#include "site.h"   // at(intrinsic): where a fault or a GM access is reported

namespace ascgen_devkit {

// CTRL bit 56 selects counter mode for the vector mask (set_mask_count / set_mask_norm).
constexpr int CTRL_COUNTER_BIT = 56;

struct CoreRegs {
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;  // set_vector_mask(hi, lo)
    uint64_t ctrl = 0;                          // get_ctrl / set_ctrl
    uint64_t cmp_mask[2] = {0, 0};              // set_cmpmask / vcmp results
    int64_t atomic = 0;                         // set_atomic_*: 0 none, else atomic_type_t + 1
    int64_t atomic_op = 0;                      // 0 add, 1 max, 2 min
    uint64_t pad_val = 0;                       // set_mov_pad_val
    uint16_t deqscale = 0;                      // DEQSCALE: the half scale of vconv_deq (set_deqscale)
    int64_t acc = 0;                            // ACC: vcadd's accumulating form, read by get_acc_val
    // Local buffers as the library reports them (AscendCBufAbsAddr); length 0: not reported yet.
    uint64_t ub_base = 0, ub_len = 0;
    uint64_t l1_base = 0, l1_len = 0;
    uint64_t padding = 0, l1_3d_size = 0;       // cube-side registers: stored, read by no implemented op
    uint64_t l3d_rpt = 0;                       // dav_3510 load3d repeat: dstStride [47:32], repeatTime [23:16]
    // Fixpipe special registers (cube.h): FPC (relu / quant table addresses in FB), ND_PARA (ndNum and
    // the NZ->ND matrix strides), QUANT_PRE (the scalar quant parameter).
    uint64_t fpc = 0, nd_para = 0, quant_pre = 0;
    uint64_t fmatrix = 0, fmatrix_b = 0;        // load3d feature map: W [15:0], H [31:16], pads [63:32]
    uint64_t rsvd_cnt = 0;                      // elements the last vreducev2 kept (get_rsvd_cnt)
    uint64_t vms4_sr = 0;                       // entries vmrgsort4 took per list, 16 bits each (get_vms4_sr)
    uint64_t va[8][8] = {};                     // VA0..VA7: 8 UB addresses each (set_va_reg_sb)
    uint64_t gather_src = 0, gather_len = 0;    // SetModelGatherbSrc0Tensor: vgather's full source address
};
inline CoreRegs regs;

// Every local buffer of this core as the library reports it (AscendCBufAbsAddr, indexed by the library's
// Hardware enum: GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF). Kept apart from CoreRegs: enter() resets the
// registers per task, while the buffers stay where the library allocated them.
enum Hw : int { HW_GM = 0, HW_UB, HW_L1, HW_L0A, HW_L0B, HW_L0C, HW_BIAS, HW_FIXBUF, HW_COUNT };
struct LocalBuf { uint64_t base = 0, len = 0; };
inline LocalBuf bufs[HW_COUNT];
// This module copy's whole UB and L1 as the library's CPU-mode singleton allocated them, read on entering a
// task (model.h): the frame in which a kernel names a peer core's buffer (dav3510/cube.h).
inline LocalBuf lib_bufs[HW_COUNT];
inline const char* hw_name(int hw) {
    static const char* names[HW_COUNT] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT (bias table)", "FB (fixpipe buffer)"};
    return hw >= 0 && hw < HW_COUNT ? names[hw] : "?";
}

inline bool counter_mode() { return (regs.ctrl >> CTRL_COUNTER_BIT) & 1u; }


// Every local-memory operand must lie inside the UB the library allocated for this core.
inline void check_ub(const void* lo, uint64_t bytes, const char* intrinsic) {
    if (regs.ub_len == 0 || bytes == 0 || std::uncaught_exceptions() > 0) return;
    uint64_t a = reinterpret_cast<uint64_t>(lo);
    if (a < regs.ub_base || a + bytes > regs.ub_base + regs.ub_len)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, at(intrinsic),
                           "%s: local operand [UB+%lld, +%llu bytes) is outside the %llu-byte UB", intrinsic,
                           (long long)(a - regs.ub_base), (unsigned long long)bytes,
                           (unsigned long long)regs.ub_len);
}
inline void check_l1(const void* lo, uint64_t bytes, const char* intrinsic) {
    if (regs.l1_len == 0 || bytes == 0 || std::uncaught_exceptions() > 0) return;
    uint64_t a = reinterpret_cast<uint64_t>(lo);
    if (a < regs.l1_base || a + bytes > regs.l1_base + regs.l1_len)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, at(intrinsic),
                           "%s: L1 operand [L1+%lld, +%llu bytes) is outside the %llu-byte L1", intrinsic,
                           (long long)(a - regs.l1_base), (unsigned long long)bytes,
                           (unsigned long long)regs.l1_len);
}
// A local operand of `bytes` bytes at `p` must lie inside the buffer `b` (kind `hw`; once known).
inline void check_in(const LocalBuf& b, int hw, const void* p, uint64_t bytes, const char* intrinsic,
                     const char* operand) {
    if (b.len == 0 || bytes == 0 || std::uncaught_exceptions() > 0) return;
    uint64_t a = reinterpret_cast<uint64_t>(p);
    if (a < b.base || a + bytes > b.base + b.len)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, at(intrinsic),
                           "%s: %s [%s%+lld, +%llu bytes) is outside the %llu-byte %s", intrinsic, operand,
                           hw_name(hw), (long long)(a - b.base), (unsigned long long)bytes,
                           (unsigned long long)b.len, hw_name(hw));
}
// ... inside this core's buffer `hw`.
inline void check_buf(int hw, const void* p, uint64_t bytes, const char* intrinsic, const char* operand) {
    check_in(bufs[hw], hw, p, bytes, intrinsic, operand);
}
inline void check_aligned32(const void* p, const char* intrinsic) {
    if (std::uncaught_exceptions() > 0) return;
    if (regs.ub_len != 0 && ((reinterpret_cast<uint64_t>(p) - regs.ub_base) & 31u))
        ::ascgen::rt::fail(::ascgen::rt::Fault::Memory, at(intrinsic),
                           "%s: local operand at UB+%llu is not 32-byte aligned", intrinsic,
                           (unsigned long long)(reinterpret_cast<uint64_t>(p) - regs.ub_base));
}

}  // namespace ascgen_devkit
