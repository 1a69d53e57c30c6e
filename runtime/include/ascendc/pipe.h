// TPipe, TQue / TQueBind, TBuf and LocalMemAllocator: carving this core's UB into buffers.
//
// TPipe's constructor starts a fresh bump allocation of the UB (one per kernel invocation) and
// InitBuffer fails with the numbers when the product's usable UB is exceeded. Queues track each
// buffer's state so misuse (DeQue on an empty queue, double FreeTensor, AllocTensor with every buffer
// in use) is reported at the user's line instead of silently hanging or corrupting data.
#pragma once
#include <cstdint>

#include "ascendc/check.h"
#include "ascendc/events.h"
#include "ascendc/tensor.h"
#include "ascendc/ub.h"

namespace AscendC {

class TPipe;

namespace detail {
enum class BufState : uint8_t { Free, Allocated, Queued, Dequeued };
constexpr int kMaxQueueBuffers = 32;
inline TPipe*& current_pipe() {
    static thread_local TPipe* p = nullptr;
    return p;
}

// The library gives each queue buffer an event id while it is queued (EnQue .. DeQue: the queue's enQue
// event) and while it is freed and not yet re-allocated (FreeTensor .. AllocTensor: its free event), from
// one pool per HardEvent, i.e. per queue position, of QUE_MAX_EVENT ids; the 9th fails with "max buffer
// number in same queue position is 8" (asc-devkit impl/basic_api/kernel_macros.h QUE_MAX_EVENT,
// kernel_tpipe_impl.h TPipe::AllocEventID, kernel_tquebind_impl.h EnQue / FreeTensor).
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3002 || \
                              __NPU_ARCH__ == 3102 || __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
constexpr int kQueMaxEvent = 8;
#else
constexpr int kQueMaxEvent = 4;
#endif
constexpr int kPositions = int(TPosition::MAX) + 1;
// The pool of a queue between src and dst: queues between the same memories share one (GetQueEvt keys
// the event by the physical memories), so A1 / B1 / C1 (GM -> L1) and A2 / B2 (L1 -> L0) share.
constexpr int event_pool(TPosition src, TPosition dst) {
    auto canon = [](TPosition p) {
        return p == TPosition::B1 || p == TPosition::C1 ? TPosition::A1 : p == TPosition::B2 ? TPosition::A2 : p;
    };
    return int(canon(src)) * kPositions + int(canon(dst));
}
constexpr const char* position_name(TPosition p) {
    constexpr const char* names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT",
                                     "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
    return int(p) < int(sizeof(names) / sizeof(names[0])) ? names[int(p)] : "?";
}
}  // namespace detail

// A queue of UB buffers between two logical positions. TQue<pos, depth> is TQueBind<pos, pos, depth>.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    TQueBind() = default;

    template <typename T>
    LocalTensor<T> AllocTensor(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        require_init("AllocTensor", loc);
        for (int k = 0; k < num_; ++k) {
            int i = (cursor_ + k) % num_;
            if (state_[i] == detail::BufState::Free) {
                state_[i] = detail::BufState::Allocated;
                if (holds_free_event_[i]) hold_event(1, -1, loc);   // its free event is waited and released
                holds_free_event_[i] = false;
                cursor_ = uint8_t((i + 1) % num_);
                return LocalTensor<T>::make(reinterpret_cast<T*>(buf_[i]), len_ / uint32_t(sizeof(T)), src);
            }
        }
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, loc,
                           "AllocTensor: all %d buffers of this queue are in use; hint: FreeTensor each tensor "
                           "after its last use (on the device this waits forever)", int(num_));
    }
    template <typename T>
    void AllocTensor(LocalTensor<T>& tensor, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        tensor = AllocTensor<T>(loc);
    }

    template <typename T>
    bool EnQue(const LocalTensor<T>& tensor, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        int i = find(tensor.data(), "EnQue", loc);
        ASCGEN_ARG_CHECK(state_[i] == detail::BufState::Allocated || state_[i] == detail::BufState::Dequeued, loc,
                         "EnQue of a tensor that is %s; hint: EnQue a tensor once, after AllocTensor",
                         state_name(state_[i]));
        ASCGEN_ARG_CHECK(count_ < capacity(), loc, "EnQue on a full queue (%d tensors queued, depth %d)",
                         int(count_), int(depth));
        hold_event(0, +1, loc);
        ring_[(head_ + count_) % detail::kMaxQueueBuffers] = uint8_t(i);
        ++count_;
        state_[i] = detail::BufState::Queued;
        return true;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& tensor, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        return EnQue(tensor, loc);
    }

    template <typename T>
    LocalTensor<T> DeQue(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        require_init("DeQue", loc);
        ASCGEN_ARG_CHECK(count_ > 0, loc,
                         "DeQue on an empty queue; hint: EnQue the tensor before DeQue (on the device this waits "
                         "forever)");
        int i = ring_[head_];
        head_ = uint8_t((head_ + 1) % detail::kMaxQueueBuffers);
        --count_;
        state_[i] = detail::BufState::Dequeued;
        hold_event(0, -1, loc);
        return LocalTensor<T>::make(reinterpret_cast<T*>(buf_[i]), len_ / uint32_t(sizeof(T)), dst);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        return DeQue<T>(loc);
    }
    template <typename T>
    void DeQue(LocalTensor<T>& tensor, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        tensor = DeQue<T>(loc);
    }

    template <typename T>
    void FreeTensor(LocalTensor<T>& tensor, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        int i = find(tensor.data(), "FreeTensor", loc);
        ASCGEN_ARG_CHECK(state_[i] == detail::BufState::Allocated || state_[i] == detail::BufState::Dequeued, loc,
                         "FreeTensor of a buffer that is %s; hint: free a tensor once, after DeQue",
                         state_name(state_[i]));
        state_[i] = detail::BufState::Free;
        hold_event(1, +1, loc);
        holds_free_event_[i] = true;
    }

    bool VacantInQue() const { return count_ < capacity(); }
    bool HasTensorInQue() const { return count_ > 0; }
    int32_t GetTensorCountInQue() const { return count_; }
    bool HasIdleBuffer() const {
        for (int i = 0; i < num_; ++i)
            if (state_[i] == detail::BufState::Free) return true;
        return false;
    }
    void FreeAllEvent() {}

    // ---- called by TPipe::InitBuffer ----
    void init(uint8_t* base, uint8_t num, uint32_t len) {
        num_ = num;
        len_ = len;
        head_ = count_ = cursor_ = 0;
        for (int i = 0; i < num; ++i) {
            buf_[i] = base + uint64_t(i) * ::ascgen::lib::round_up(len, ::ascgen::lib::kUbAlign);
            state_[i] = detail::BufState::Free;
            holds_free_event_[i] = false;
        }
    }
    static constexpr TPosition kSrc = src;
    // The memory holding the buffers: the source position's, or the destination's for a GM source.
    static ::ascgen::lib::Mem memory() { return position_mem(src == TPosition::GM ? dst : src); }

protected:
    // The queue cannot hold more tensors than it has buffers, whatever the declared depth.
    int capacity() const { return depth > num_ ? depth : num_; }
    void require_init(const char* what, ::ascgen::rt::Loc loc) const {
        ASCGEN_ARG_CHECK(num_ > 0, loc, "%s on a queue without buffers; hint: call pipe.InitBuffer(queue, num, len) first",
                         what);
    }
    int find(const void* p, const char* what, ::ascgen::rt::Loc loc) const {
        require_init(what, loc);
        for (int i = 0; i < num_; ++i)
            if (buf_[i] == p) return i;
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, loc,
                           "%s of a tensor that does not come from this queue (UB offset %llu); hint: pass the tensor "
                           "returned by this queue's AllocTensor/DeQue, not a sub-tensor",
                           what, ::ascgen::lib::ull(p ? ::ascgen::lib::ub_offset(p) : 0));
    }
    // kind 0: the enQue event of a queued tensor, 1: the free event of a freed buffer (see kQueMaxEvent).
    void hold_event(int kind, int delta, ::ascgen::rt::Loc loc) const;
    static const char* state_name(detail::BufState s) {
        switch (s) {
            case detail::BufState::Free: return "free (never allocated or already freed)";
            case detail::BufState::Allocated: return "allocated";
            case detail::BufState::Queued: return "already in the queue";
            default: return "dequeued";
        }
    }

    uint8_t* buf_[detail::kMaxQueueBuffers] = {};
    detail::BufState state_[detail::kMaxQueueBuffers] = {};
    uint8_t ring_[detail::kMaxQueueBuffers] = {};
    bool holds_free_event_[detail::kMaxQueueBuffers] = {};
    uint8_t num_ = 0, head_ = 0, count_ = 0, cursor_ = 0;
    uint32_t len_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {
public:
    TQue() = default;
};

// A plain UB buffer for temporaries: Get<T>() returns all of it, Get<T>(n) its first n elements.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    TBuf() = default;

    template <typename T>
    LocalTensor<T> Get(::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        require_init(loc);
        return LocalTensor<T>::make(reinterpret_cast<T*>(base_), len_ / uint32_t(sizeof(T)), pos);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t count, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        require_init(loc);
        ASCGEN_MEM_CHECK(uint64_t(count) * sizeof(T) <= len_, loc,
                         "TBuf::Get<%zu-byte type>(%u) needs %llu bytes, the buffer has %u (InitBuffer length)",
                         sizeof(T), count, ::ascgen::lib::ull(uint64_t(count) * sizeof(T)), len_);
        return LocalTensor<T>::make(reinterpret_cast<T*>(base_), count, pos);
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t count, uint32_t bufOffset, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        require_init(loc);
        ASCGEN_MEM_CHECK(uint64_t(bufOffset) + uint64_t(count) * sizeof(T) <= len_, loc,
                         "TBuf::GetWithOffset(%u, %u) needs bytes [%u, %llu), the buffer has %u", count, bufOffset,
                         bufOffset, ::ascgen::lib::ull(bufOffset + uint64_t(count) * sizeof(T)), len_);
        return LocalTensor<T>::make(reinterpret_cast<T*>(base_ + bufOffset), count, pos);
    }
    template <typename T>
    LocalTensor<T> AllocTensor(::ascgen::rt::Loc loc = ASCGEN_HERE) const { return Get<T>(loc); }
    template <typename T>
    void FreeTensor(LocalTensor<T>&) const {}
    template <typename T>
    void EnQue(const LocalTensor<T>&) const {}
    template <typename T>
    LocalTensor<T> DeQue(::ascgen::rt::Loc loc = ASCGEN_HERE) const { return Get<T>(loc); }

    void init(uint8_t* base, uint32_t len) {
        base_ = base;
        len_ = len;
    }
    static ::ascgen::lib::Mem memory() { return position_mem(pos); }

private:
    void require_init(::ascgen::rt::Loc loc) const {
        ASCGEN_ARG_CHECK(base_ != nullptr, loc, "TBuf::Get on a buffer without memory; hint: pipe.InitBuffer(buf, len) first");
    }
    uint8_t* base_ = nullptr;
    uint32_t len_ = 0;
};

// The pipe: owns this core's local-memory allocation (UB, and L1/L0 for cube queues) for one kernel
// invocation.
class TPipe {
public:
    explicit TPipe(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        ::ascgen::lib::ub_base();   // allocate this core's UB now, not inside the first op
        Reset();
        ::ascgen::lib::kernel_start();
        detail::current_pipe() = this;
    }
    ~TPipe() {
        if (detail::current_pipe() == this) detail::current_pipe() = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <class Q>
    bool InitBuffer(Q& que, uint8_t num, uint32_t len, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        ASCGEN_ARG_CHECK(num >= 1 && num <= detail::kMaxQueueBuffers, loc,
                         "InitBuffer: %d buffers in one queue; the emulator supports 1..%d", int(num),
                         detail::kMaxQueueBuffers);
        uint64_t each = ::ascgen::lib::round_up(len, ::ascgen::lib::kUbAlign);
        que.init(take(each * num, Q::memory(), "InitBuffer(queue)", loc), num, len);
        return true;
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        uint64_t bytes = ::ascgen::lib::round_up(len, ::ascgen::lib::kUbAlign);
        buf.init(take(bytes, TBuf<pos>::memory(), "InitBuffer(TBuf)", loc), len);
        return true;
    }

    void Reset() {
        for (auto& u : used_) u = 0;
        for (auto& kind : held_)
            for (auto& n : kind) n = 0;
    }
    // A queue buffer takes (delta +1) or gives back (-1) an event id of its queue position's pool.
    void hold_event(int kind, int pool, int delta, TPosition src, TPosition dst, ::ascgen::rt::Loc loc) {
        int& held = held_[kind][pool];
        held += delta;
        if (held < 0) held = 0;    // a queue initialised before a Reset()
        ASCGEN_ARG_CHECK(held <= detail::kQueMaxEvent, loc,
                         "%s: %d buffers of queue position %s -> %s hold an event id (%s), the library has %d per "
                         "queue position (\"max buffer number in same queue position is %d\", QUE_MAX_EVENT); "
                         "hint: fewer queues or buffers at this position (BUFFER_NUM 1, or split the kernel)",
                         kind == 0 ? "EnQue" : "FreeTensor", held, detail::position_name(src),
                         detail::position_name(dst), kind == 0 ? "queued, not yet DeQue'd" : "freed, not yet "
                         "re-allocated", detail::kQueMaxEvent, detail::kQueMaxEvent);
    }
    void Destroy() { Reset(); }
    void DestroyWithoutPipeAll() { Reset(); }
    void Init() {}

    template <HardEvent evt>
    TEventID FetchEventID() { return TEventID(0); }
    TEventID FetchEventID(HardEvent) { return TEventID(0); }
    template <HardEvent evt>
    TEventID AllocEventID() { return TEventID(next_event_++ & 7); }
    template <HardEvent evt>
    void ReleaseEventID(TEventID) {}

    uint64_t used_bytes() const { return used_[0]; }

private:
    uint8_t* take(uint64_t bytes, ::ascgen::lib::Mem mem, const char* what, ::ascgen::rt::Loc loc) {
        namespace L = ::ascgen::lib;
        uint64_t& used = used_[int(mem)];
        const uint64_t cap = L::mem_capacity(mem);
        ASCGEN_MEM_CHECK(used + bytes <= cap, loc,
                         "%s over capacity: %s needs %llu bytes with %llu already in use (%llu total), the product "
                         "has %llu bytes of usable %s; hint: use smaller tiles or fewer buffers",
                         L::mem_name(mem), what, L::ull(bytes), L::ull(used), L::ull(used + bytes), L::ull(cap),
                         L::mem_name(mem));
        uint8_t* p = L::mem_base(mem) + used;
        used += bytes;
        return p;
    }
    uint64_t used_[int(::ascgen::lib::Mem::kCount)] = {};
    int held_[2][detail::kPositions * detail::kPositions] = {};
    int next_event_ = 0;
};

inline TPipe* GetTPipePtr() { return detail::current_pipe(); }

template <TPosition src, TPosition dst, int32_t depth, auto mask>
inline void TQueBind<src, dst, depth, mask>::hold_event(int kind, int delta, ::ascgen::rt::Loc loc) const {
    if (TPipe* p = detail::current_pipe()) p->hold_event(kind, detail::event_pool(src, dst), delta, src, dst, loc);
}

// Static UB allocation without a pipe (the 01_add example): a bump pointer from the start of UB.
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard == Hardware::UB, "ascgen: LocalMemAllocator supports Hardware::UB only");

public:
    explicit LocalMemAllocator(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        base_ = ::ascgen::lib::ub_base();
        cap_ = ::ascgen::rt::ub_capacity();
    }
    uint32_t GetCurAddr() const { return head_; }

    template <class T, uint32_t tileSize>
    LocalTensor<T> Alloc(::ascgen::rt::Loc loc = ASCGEN_HERE) { return Alloc<T>(tileSize, loc); }
    template <TPosition pos, class T, uint32_t tileSize>
    LocalTensor<T> Alloc(::ascgen::rt::Loc loc = ASCGEN_HERE) { return Alloc<T>(tileSize, loc); }
    template <TPosition pos, class T>
    LocalTensor<T> Alloc(uint32_t tileSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) { return Alloc<T>(tileSize, loc); }
    template <class T>
    LocalTensor<T> Alloc(uint32_t tileSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        uint64_t bytes = ::ascgen::lib::round_up(uint64_t(tileSize) * sizeof(T), ::ascgen::lib::kUbAlign);
        ASCGEN_MEM_CHECK(head_ + bytes <= cap_, loc,
                         "UB over capacity: LocalMemAllocator::Alloc of %u elements needs %llu bytes with %u already "
                         "in use (%llu total), the product has %llu bytes of usable UB",
                         tileSize, ::ascgen::lib::ull(bytes), head_, ::ascgen::lib::ull(head_ + bytes),
                         ::ascgen::lib::ull(cap_));
        T* p = reinterpret_cast<T*>(base_ + head_);
        head_ += uint32_t(bytes);
        return LocalTensor<T>::make(p, tileSize, TPosition::VECCALC);
    }
    // Without a size: the rest of the UB.
    template <class T>
    LocalTensor<T> Alloc(::ascgen::rt::Loc loc = ASCGEN_HERE) {
        return Alloc<T>(uint32_t((cap_ - head_) / sizeof(T)), loc);
    }

private:
    uint8_t* base_ = nullptr;
    uint64_t cap_ = 0;
    uint32_t head_ = 0;
};

}  // namespace AscendC

// Ascend C declares GetTPipePtr at global scope too (kernels call it unqualified).
using AscendC::GetTPipePtr;
