// Scalar and special-register intrinsics: core identity, CTRL, mask registers, atomics, cache ops.
#pragma once
#include "state.h"
#include "tasksync.h"
#include "globals.h"
#include <sched.h>

inline int64_t get_block_idx() { return block_idx; }
inline int64_t get_block_num() { return block_num; }
inline int64_t get_subblockid() { return sub_block_idx; }
inline int64_t get_ctrl() { return (int64_t)ascgen_devkit::regs.ctrl; }
inline void set_ctrl(uint64_t v) { ascgen_devkit::regs.ctrl = v; }
inline void set_mask_count() { ascgen_devkit::regs.ctrl |= (1ull << ascgen_devkit::CTRL_COUNTER_BIT); }
inline void set_mask_norm() { ascgen_devkit::regs.ctrl &= ~(1ull << ascgen_devkit::CTRL_COUNTER_BIT); }
inline void set_vector_mask(uint64_t hi, uint64_t lo) {
    ascgen_devkit::regs.mask_hi = hi;
    ascgen_devkit::regs.mask_lo = lo;
}
inline int64_t get_arch_ver() { return 220; }
inline void set_mov_pad_val(uint64_t v) { ascgen_devkit::regs.pad_val = v; }

// Atomic accumulation into GM by MTE3 (copy_ubuf_to_gm): the type says how to read the elements.
inline void set_atomic_none() { ascgen_devkit::regs.atomic = 0; ascgen_devkit::regs.atomic_op = 0; }
inline void set_atomic_f32() { ascgen_devkit::regs.atomic = 1 + ATOMIC_F32; }
inline void set_atomic_f16() { ascgen_devkit::regs.atomic = 1 + ATOMIC_F16; }
inline void set_atomic_s16() { ascgen_devkit::regs.atomic = 1 + ATOMIC_S16; }
inline void set_atomic_s32() { ascgen_devkit::regs.atomic = 1 + ATOMIC_S32; }
inline void set_atomic_s8() { ascgen_devkit::regs.atomic = 1 + ATOMIC_S8; }
inline void set_atomic_bf16() { ascgen_devkit::regs.atomic = 1 + ATOMIC_BF16; }
inline void set_atomic_add() { ascgen_devkit::regs.atomic_op = ATOMIC_SUM; }
inline void set_atomic_max() { ascgen_devkit::regs.atomic_op = ATOMIC_MAX; }
inline void set_atomic_min() { ascgen_devkit::regs.atomic_op = ATOMIC_MIN; }

// Data-cache maintenance: GM is coherent host memory here, so there is nothing to write back. A core that
// refreshes a cache line is usually polling GM for another core's message (the Matmul API's server loop),
// so it yields its CPU: cores are threads, and a spinning one would starve the core it waits for.
template <class P, class A, class B>
inline void dcci(P*, A, B) { ascgen_devkit::tick(); sched_yield(); }
template <class P, class A>
inline void dcci(P*, A) { ascgen_devkit::tick(); sched_yield(); }
// Data-cache preload: a hint only (GM is host memory here).
template <class P, class O>
inline void dc_preload(P*, O) { ascgen_devkit::tick(); }

// Scalar bit operations on 64-bit values.
inline int64_t sff0(uint64_t x) { return ~x ? __builtin_ctzll(~x) : -1; }
inline int64_t sff1(uint64_t x) { return x ? __builtin_ctzll(x) : -1; }
inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(1ull << (bit & 63)); }
inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | (1ull << (bit & 63)); }
inline int64_t bcnt1(uint64_t x) { return __builtin_popcountll(x); }
inline int64_t bcnt0(uint64_t x) { return 64 - __builtin_popcountll(x); }
inline int64_t clz(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

inline void set_padding(uint64_t v) { ascgen_devkit::regs.padding = v; }
inline void set_l1_3d_size(uint64_t v) { ascgen_devkit::regs.l1_3d_size = v; }

// get_imm: a 64-bit value from 16-bit immediates (low piece first), as the scalar unit's MOVI builds it.
inline uint64_t get_imm(uint64_t imm0_15) { return imm0_15; }
inline uint64_t get_imm(uint64_t i0, uint64_t i1) { return (i0 & 0xFFFFu) | (i1 & 0xFFFFu) << 16; }
inline uint64_t get_imm(uint64_t i0, uint64_t i1, uint64_t i2) { return get_imm(i0, i1) | (i2 & 0xFFFFu) << 32; }
inline uint64_t get_imm(uint64_t i0, uint64_t i1, uint64_t i2, uint64_t i3) {
    return get_imm(i0, i1, i2) | (i3 & 0xFFFFu) << 48;
}

// The device compiler's scalar builtins min / max, which kernel code may call unqualified (the
// softmaxflashv3 example does). Plain overloads per type, so std::min / std::max brought in by a
// using-directive lose to them instead of being ambiguous.
#define ASCGEN_DEVKIT_MINMAX(T)                                  \
    inline T min(T a, T b) { return b < a ? b : a; }            \
    inline T max(T a, T b) { return a < b ? b : a; }
ASCGEN_DEVKIT_MINMAX(int)
ASCGEN_DEVKIT_MINMAX(unsigned int)
ASCGEN_DEVKIT_MINMAX(long)
ASCGEN_DEVKIT_MINMAX(unsigned long)
ASCGEN_DEVKIT_MINMAX(long long)
ASCGEN_DEVKIT_MINMAX(unsigned long long)
ASCGEN_DEVKIT_MINMAX(float)
ASCGEN_DEVKIT_MINMAX(double)
#undef ASCGEN_DEVKIT_MINMAX
