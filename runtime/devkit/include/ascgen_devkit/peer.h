// Writes into a peer core's UB or L1 (dav_3510: an AIV's UB -> its AIC's L1, the AIC's L1 or Fixpipe -> an
// AIV's UB), ordered with the library's fill of that buffer.
//
// The library's CPU mode fills a core's local buffers with random words when that core constructs its TPipe
// (TPipe::SetBufferCtx, "init memory with random value"); the device does nothing of the kind. A peer may
// write into the buffer before its owner gets that far: the AIVs of matmul_tscm_src_vecout copy A into the
// AIC's L1 (TSCM) while the AIC is still starting, and the AIC's fill then replaced A with random numbers,
// a wrong answer that depended on which thread ran first. The model orders the fill before every peer
// write: until the owner's TPipe has filled the buffer in this task (AscendCBufAbsAddr, which the library
// calls right after the fill), each peer write is also kept in the buffer's inbox, and the owner writes the
// kept bytes again after its fill. An owner that builds no TPipe (raw intrinsics) never fills: the writes
// are in its buffer already. A second TPipe in the same task fills again, as the library's CPU mode does
// for the owner's own data too (on the device neither is lost; a kernel that relies on it fails the same
// way in the library's own CPU mode).
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>
#include "state.h"

namespace ascgen_devkit {

struct Inbox {
    std::mutex mu;
    bool filled = false;               // the owner's TPipe has filled the buffer in this task
    bool kept = false;                 // `dirty` has a set byte
    std::vector<uint8_t> shadow, dirty;   // by offset in the buffer: the kept bytes, 1 where kept
};
// This core's inboxes, published with its UB and L1 (model.h); only those two kinds receive peer writes.
inline Inbox inboxes[HW_COUNT];

// On entering a task, before the buffers are published: nothing kept, not filled yet.
inline void inbox_reset(int hw) {
    Inbox& in = inboxes[hw];
    std::lock_guard<std::mutex> lk(in.mu);
    in.filled = false;
    if (in.kept) std::fill(in.dirty.begin(), in.dirty.end(), uint8_t(0));
    in.kept = false;
}

// The owner, right after its TPipe filled buffer `hw`: the peers' writes again, at the offsets they wrote in
// the published buffer (lib_bufs, the library's CPU-mode buffer the TPipe filled).
inline void inbox_filled(int hw) {
    if (hw != HW_UB && hw != HW_L1) return;
    Inbox& in = inboxes[hw];
    std::lock_guard<std::mutex> lk(in.mu);
    if (in.kept) {
        auto* live = reinterpret_cast<uint8_t*>(lib_bufs[hw].base);
        const uint64_t n = std::min<uint64_t>(lib_bufs[hw].len, in.dirty.size());
        for (uint64_t i = 0; i < n; ++i)
            if (in.dirty[i]) live[i] = in.shadow[i];
    }
    in.filled = true;
}

// One intrinsic's writes into a peer's buffer (`buf`, its inbox `in`, null when the peer published none):
// holds the inbox for the intrinsic's duration, so the owner's replay sees each write whole.
class PeerWriter {
public:
    PeerWriter(const LocalBuf& buf, void* inbox) : buf_(buf), in_(static_cast<Inbox*>(inbox)) {
        if (in_) lk_ = std::unique_lock<std::mutex>(in_->mu);
    }
    void put(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
        std::memmove(dst, src, bytes);
        if (!in_ || in_->filled || bytes == 0) return;
        const uint64_t off = reinterpret_cast<uint64_t>(dst) - buf_.base;
        if (off > buf_.len || bytes > buf_.len - off) return;   // outside: the caller's check reports it
        if (in_->shadow.size() < buf_.len) {
            in_->shadow.resize(buf_.len);
            in_->dirty.resize(buf_.len);
        }
        std::memcpy(in_->shadow.data() + off, src, bytes);
        std::memset(in_->dirty.data() + off, 1, bytes);
        in_->kept = true;
    }
    void rows(uint8_t* dst, const uint8_t* src, uint64_t nburst, uint64_t bytes, uint64_t dst_stride,
              uint64_t src_stride) {
        for (uint64_t i = 0; i < nburst; ++i) put(dst + i * dst_stride, src + i * src_stride, bytes);
    }

private:
    LocalBuf buf_;
    Inbox* in_;
    std::unique_lock<std::mutex> lk_;
};

}  // namespace ascgen_devkit
