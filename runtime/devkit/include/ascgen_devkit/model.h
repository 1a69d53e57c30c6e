// (Definitions, not declarations: included once per kernel module, by the module wrapper.)
// Definitions the library's CPU-debug configuration expects from the CPU model, compiled into every kernel
// module after the kernel's own source (ascgen/runtime/devkit build wrapper). One copy per emulated core:
// the globals below are that core's identity, set by ascgen_devkit_enter() before the kernel runs.
#pragma once
#include <assert.h>   // glibc's __assert_fail, which the host side of __assert_fail below still calls
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include "ascgen/rt.h"
#include "ascgen_devkit/state.h"
#include "ascgen_devkit/cube_sparse.h"

int64_t block_idx = 0;
int64_t block_num = 1;
int64_t sub_block_idx = 0;
int64_t g_taskRation = 1;
int32_t g_coreType = 2;  // AscendC::AIV
uint64_t g_fixpipeNdNzParam = 0;
int32_t g_matmulCount = 0;
namespace ascgen_devkit {
// stub_def.h: the library's own failed checks, on a core, are a typed error at the user's line. On the host
// (a host program calling library code) they abort as they would without ascgen.
int library_raise(int sig) {
    namespace rt = ::ascgen::rt;
    if (std::strcmp(rt::core_name(), "host") == 0) return ::raise(sig);
    if (::ascgen_devkit::unwinding()) return 0;     // a destructor's check while a fault unwinds: already failed
    rt::fail(rt::Fault::Assert, ::ascgen_devkit::at("raise"),
             "the Ascend C library stopped the kernel (signal %d): one of its own checks failed; its [ERROR] line, "
             "printed above, says which", sig);
}
}  // namespace ascgen_devkit
namespace AscendC {
bool g_isAtomic = false;
bool g_isVdeq = false;

// The library serialises its CPU-mode log output across forked core processes with this lock; cores are
// threads here, so a process-wide mutex shared by every module copy does the same.
ProcessLock* ProcessLock::processLock = nullptr;
ProcessLock::ProcessLock() {}
ProcessLock::~ProcessLock() {}
ProcessLock* ProcessLock::CreateLock() {
    static ProcessLock lock;
    return &lock;
}
void ProcessLock::FreeLock() {}
void ProcessLock::UnInit() {}
// The log lock serialises text between cores; rt::print already serialises whole lines, so holding
// nothing here is safe (the library's log lines go through printf, one call per line).
int ProcessLock::Read() { return 0; }
int ProcessLock::Write() { return 0; }
int ProcessLock::Unlock() { return 0; }

// The library's API-level argument checks (tikicpulib implements them). This backend checks at the
// intrinsic layer instead (UB bounds and alignment, GM bounds and races on every DMA), so the API-level
// hooks accept; a wrong argument is still caught where it touches memory.
namespace check {
bool CheckFunBcBImpl(VecBroadCastApiParams&, uint32_t, const char*) { return true; }
bool CheckFunDupImpl(VecDupApiParams&, const char*) { return true; }
bool CheckFunDupImpl(VecDupApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunDupImplForMaskArray(VecDupApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFunProposalImpl(VecProposalApiParams&, const char*) { return true; }
bool CheckFunReduceImpl(VecReduceApiParams&, const char*) { return true; }
bool CheckFunReduceImpl(VecReduceApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunReduceImplForMaskArray(VecReduceApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFunReduceImplMode2(VecReduceApiParams&, const char*) { return true; }
bool CheckFunReduceOtherImpl(VecReduceApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunReduceOtherImplForMaskArray(VecReduceApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFunReduceOtherWhlImpl(VecReduceWhlApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunReduceOtherWhlImplForMaskArray(VecReduceWhlApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFunScatterImpl(VecScatterApiParams&, const char*) { return true; }
bool CheckSortImpl(SortApiParams&, const char*) { return true; }
bool CheckFunScatterImpl(VecScatterApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunScatterImplForMaskArray(VecScatterApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFunTransposeImpl(VecTransposeApiParams&, const char*) { return true; }
bool CheckFunVecBinaryScalarImpl(VecBinaryScalarApiParams&, const char*) { return true; }
bool CheckFunVecBinaryScalarImpl(VecBinaryScalarApiParams&, const uint64_t, const char*) { return true; }
bool CheckFunVecBinaryScalarImplForMaskArray(VecBinaryScalarApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncBilinearInterpolationImpl(VecBilinearInterpolationApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncBilinearInterpolationImpl(VecBilinearInterpolationApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncBroadCastToMMImpl(VecBroadCastToMMApiParams&, const char*) { return true; }
bool CheckFuncCopyImpl(CopyApiParams&, const char*) { return true; }
bool CheckFuncCopyImpl(CopyApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncCopyImplForMaskArray(CopyApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncCreateVecIndexImpl(VecCreateVecIndexApiParams&, const char*) { return true; }
bool CheckFuncCreateVecIndexImpl(VecCreateVecIndexApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncCreateVecIndexImpl(VecCreateVecIndexApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncDataCopyImpl(DataCopyApiParams&, const char*) { return true; }
bool CheckFuncDataCopyPadImpl(DataCopyPadApiParams&, const char*) { return true; }
bool CheckFuncDataCopySliceImpl(DataCopySliceApiParams&, const char*) { return true; }
bool CheckFuncGatherImpl(VecGatherApiParams&, const char*) { return true; }
bool CheckFuncGatherImpl(VecGatherApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncGatherImpl(VecGatherApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncGatherbImpl(VecGatherApiParams&, uint32_t, const char*) { return true; }
bool CheckFuncInitConstValueImpl(CubeInitConstValueApiParams&, const char*) { return true; }
bool CheckFuncLoadData2dImpl(LoadData2dApiParams&, const char*) { return true; }
bool CheckFuncLoadData2dv2Impl(LoadData2dv2ApiParams&, const char*) { return true; }
bool CheckFuncLoadData3dv1Impl(LoadData3dv1ApiParams&, const char*) { return true; }
bool CheckFuncLoadData3dv2Impl(LoadData3dv2ApiParams&, const char*) { return true; }
bool CheckFuncLoadData3dv2ProImpl(LoadData3dv2ProApiParams&, const char*) { return true; }
bool CheckFuncLoadImageToLocalImpl(LoadImageToLocalApiParams&, const char*) { return true; }
bool CheckFuncMmadImpl(MmadApiParams&, const char*) { return true; }
bool CheckFuncVecBinaryCmpImpl(VecBinaryApiParams&, const char*) { return true; }
bool CheckFuncVecBinaryCmpImpl(VecBinaryApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncVecBinaryCmpImplForMaskArray(VecBinaryApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncVecBinaryImpl(VecBinaryApiParams&, const char*) { return true; }
bool CheckFuncVecBinaryImpl(VecBinaryApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncVecBinaryImplForMaskArray(VecBinaryApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncVecBinaryScalarCmpImpl(VecBinaryScalarApiParams&, const char*) { return true; }
bool CheckFuncVecBinaryScalarCmpImpl(VecBinaryScalarApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncVecCmpRgtImpl(VecCmpRgtApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncVecCmpRgtImplForMaskArray(VecCmpRgtApiParams&, const uint64_t[], const char*) { return true; }
bool CheckFuncVecGatherMaskImpl(VecGatherMaskApiParams&, const uint32_t, const char*) { return true; }
bool CheckFuncVecSelectImpl(VecSelectApiParams&, const char*) { return true; }
bool CheckFuncVecSelectImpl(VecSelectApiParams&, const uint64_t, const char*) { return true; }
bool CheckFuncVecSelectImplForMaskArray(VecSelectApiParams&, const uint64_t[], const char*) { return true; }
// The advanced API's argument checks ask for a buffer's capacity by Hardware index (GM, UB, L1, L0A...):
// the library's own CPU-mode sizes for this architecture (ConstDefiner::bufferInitLen).
uint64_t GetHardWarebufferSize(uint8_t index) {
    const auto& lens = ConstDefiner::Instance().bufferInitLen;
    const auto it = lens.find(static_cast<Hardware>(index));
    if (it == lens.end()) {
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, ::ascgen_devkit::at("GetHardWarebufferSize"),
                           "GetHardWarebufferSize: the library has no buffer of hardware index %u", unsigned(index));
    }
    return it->second;
}
}  // namespace check

// LoadDataWithSparse's CPU mode passes the index matrix's L1 address here, then the dense B to
// load_cbuf_to_cb_sp (cube_sparse.h).
void SetIndexMatrix(void* indexMatrix) { ::ascgen_devkit::sparse.index_l1 = reinterpret_cast<uint64_t>(indexMatrix); }

// The library's CPU mode announces vgather's / vgatherb's source before the instruction, whose operand
// carries only the low 32 bits of the address (rearrange.h).
void SetModelGatherbSrc0Tensor(uint64_t src0, const uint32_t length) {
    ::ascgen_devkit::regs.gather_src = src0;
    ::ascgen_devkit::regs.gather_len = length;
}
}  // namespace AscendC

// stub_def.h: a failed assert() / ascendc_assert() on a core is a typed error at the user's line, like raise.
void __assert_fail(const char* assertion, const char* file, int line, const char* function) {
    namespace rt = ::ascgen::rt;
    if (std::strcmp(rt::core_name(), "host") == 0)
        ::__assert_fail(assertion, file, static_cast<unsigned>(line), function);
    if (::ascgen_devkit::unwinding()) return;     // a destructor's assertion while a fault unwinds: already failed
    rt::fail(rt::Fault::Assert, ::ascgen_devkit::at("assert"), "assertion `%s` failed (%s:%d, in %s)", assertion,
             file, line, function);
}

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#include "dav3510/model.h"
#endif

namespace ascgen_devkit {
// cube.h: where BT starts (mad with cmatrixSource and no bias address reads the table from there).
uint64_t library_bt_base() { return reinterpret_cast<uint64_t>(AscendC::ConstDefiner::Instance().cpuBIAS); }

// This module copy's buffer `hw` in the library's CPU-mode singleton (empty if it has none of that kind).
inline LocalBuf library_buffer(int hw) {
    auto& d = AscendC::ConstDefiner::Instance();
    uint8_t* const base[HW_COUNT] = {nullptr, d.cpuUB, d.cpuL1, d.cpuL0A, d.cpuL0B, d.cpuL0C, d.cpuBIAS, d.cpuFIXBUF};
    auto len = d.bufferInitLen.find(AscendC::Hardware(hw));
    if (!base[hw] || len == d.bufferInitLen.end()) return LocalBuf{};
    return LocalBuf{reinterpret_cast<uint64_t>(base[hw]), uint64_t(len->second)};
}

// Kernels that build their LocalTensors from positions and addresses (no TPipe) never report the local
// buffers; the library's CPU-mode singleton holds them all the same, so the cube checks use its extents.
inline void learn_library_buffers() {
    for (int hw : {HW_L1, HW_L0A, HW_L0B, HW_L0C, HW_BIAS, HW_FIXBUF})
        if (bufs[hw].len == 0) bufs[hw] = library_buffer(hw);
}

// The library's CPU mode records each LocalMemAllocator's hardware position in ConstDefiner::allocatorUsed
// and never removes it: CANN's CPU mode runs every launch in fresh processes. A module copy here serves
// every launch of its core, so the second launch's allocator failed "only one LocalMemAllocator can exist";
// enter() empties the set. It is private, so it is named through an explicit instantiation, whose template
// arguments are not access-checked ([temp.spec.general]).
namespace library_private {
struct AllocatorUsed {
    using type = std::set<AscendC::Hardware> AscendC::ConstDefiner::*;
    friend type member(AllocatorUsed);
};
template <class Tag, typename Tag::type M>
struct Expose {
    friend typename Tag::type member(Tag) { return M; }
};
template struct Expose<AllocatorUsed, &AscendC::ConstDefiner::allocatorUsed>;
}  // namespace library_private

inline void forget_local_allocators() {
    (AscendC::ConstDefiner::Instance().*member(library_private::AllocatorUsed{})).clear();
}

// Called by this copy's trampoline on its core thread before the kernel: the core's identity in the
// library's globals, and fresh registers (a module copy can run several tasks of a SuperKernel).
inline void enter() {
    namespace rt = ::ascgen::rt;
    const bool aic = rt::core_type() == rt::CoreType::AIC;
    g_coreType = aic ? AscendC::AIC : AscendC::AIV;
    g_taskRation = aic ? 1 : rt::task_ratio();
    sub_block_idx = aic ? 0 : rt::sub_block_idx();
    block_idx = aic ? rt::block_idx() : rt::block_idx() / (g_taskRation > 0 ? g_taskRation : 1);
    block_num = rt::block_num();
    // The library reports its buffers once, when its TPipe is built; they do not move.
    CoreRegs fresh{};
    fresh.ub_base = regs.ub_base, fresh.ub_len = regs.ub_len;
    fresh.l1_base = regs.l1_base, fresh.l1_len = regs.l1_len;
    regs = fresh;
    forget_local_allocators();
    if (aic) learn_library_buffers();
    // Published for the group's other cores (dav_3510 moves data between an AIC's and its AIVs' buffers),
    // with the inbox that orders their writes after this core's TPipe fill (peer.h).
    for (int hw : {HW_UB, HW_L1}) {
        lib_bufs[hw] = library_buffer(hw);
        inbox_reset(hw);
        rt::local_publish(hw, lib_bufs[hw].base, lib_bufs[hw].len, &inboxes[hw]);
    }
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    d3510::enter();
#endif
#if defined(ASCGEN_DEVKIT_MATMUL_KFC)
    // The Matmul API's server (AIC) notifies an iterate's end in mode 2, which reaches both AIVs of the
    // group, on flag instIdx * 2 + the requesting AIV's sub-block; each AIV waits only for its own, so the
    // sibling's counter keeps up to 14 counts (the library's INC_PROCESS_CHECK bounds them below the 4-bit
    // counter). Those are by design, not a missing wait; a counter past 15 is still reported.
    if (!aic) rt::allow_unconsumed_flags(at("Matmul client"));
#endif
}

}  // namespace ascgen_devkit

// The library declares these in its CPU-debug configuration (CANN's CPU model defines them): the launch's
// system workspace (workspace.h).
__gm__ uint8_t* __gm__ GetSysWorkSpacePtr() { return ::ascgen_devkit::sys_workspace; }
void SetSysWorkSpacePtr(__gm__ uint8_t* workspace) { ::ascgen_devkit::sys_workspace = workspace; }
extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_set_workspace(void* workspace) {
    ::ascgen_devkit::sys_workspace = static_cast<uint8_t*>(workspace);
}
// The size of the system workspace a Python launch allocates (devkit_module.py), defined once in workspace.h.
extern "C" __attribute__((visibility("default"))) uint64_t __ascgen_devkit_system_workspace_bytes() {
    return ::ascgen_devkit::SYSTEM_WORKSPACE_BYTES;
}

// The library's TILING_KEY_VAR (kernel_utils_macros.h declares it extern in CPU-debug mode): this copy's key,
// set by the dispatcher from copy 0's ascgen_tiling_key before the kernel runs here (copies.h).
uint64_t g_tilingKey = 0;
extern "C" {
__attribute__((visibility("default"))) uint64_t ascgen_tiling_key = 0;
}
extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_set_tiling_key(uint64_t key) {
    g_tilingKey = key;
}

extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_enter() { ::ascgen_devkit::enter(); }
// After the kernel returns: a SetNextTaskStart still pending in the task-sync recogniser is issued now.
extern "C" __attribute__((visibility("default"))) void __ascgen_devkit_leave() { ::ascgen_devkit::flush_sync(); }
