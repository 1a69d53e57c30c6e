// GlobalTensor (a typed view of GM) and LocalTensor (a typed view of this core's UB).
//
// GM accesses go to the core (rt::gm_access) once per scalar access or copy, for bounds and race
// checks; UB accesses are checked here against the tensor's extent.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/check.h"
#include "ascendc/half.h"
#include "ascendc/types.h"
#include "ascendc/ub.h"

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;
    // A tensor at a fixed byte address of its position's memory (UB, or L1/L0A/L0B/L0C for cube positions;
    // static-tensor programming). The range must fit in that memory.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        namespace L = ::ascgen::lib;
        L::enter(loc);
        L::Mem mem = position_mem(pos);
        uint64_t cap = L::mem_capacity(mem);
        ASCGEN_MEM_CHECK(uint64_t(addr) + uint64_t(tileSize) * sizeof(T) <= cap, loc,
                         "%s over capacity: LocalTensor at %s address %u with %u elements ends at byte %llu, the "
                         "product has %llu bytes of usable %s",
                         L::mem_name(mem), L::mem_name(mem), addr, tileSize,
                         L::ull(addr + uint64_t(tileSize) * sizeof(T)), L::ull(cap), L::mem_name(mem));
        ptr_ = reinterpret_cast<T*>(L::mem_base(mem) + addr);
        size_ = cap_ = tileSize;
        pos_ = pos;
    }

    // ---- element access (scalar pipe) ----
    T GetValue(uint32_t index, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        static_assert(!::ascgen::lib::is_int4<T>::value, "ascgen: element access to int4b_t tensors is not emulated");
        ::ascgen::lib::enter(loc);
        check_index(index, "GetValue", loc);
        ::ascgen::rt::cost(PIPE_S, 1);
        return ptr_[index];
    }
    void SetValue(uint32_t index, T value, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        static_assert(!::ascgen::lib::is_int4<T>::value, "ascgen: element access to int4b_t tensors is not emulated");
        ::ascgen::lib::enter(loc);
        check_index(index, "SetValue", loc);
        ::ascgen::rt::cost(PIPE_S, 1);
        ptr_[index] = value;
    }
    T& operator()(uint32_t index) const {
        static_assert(!::ascgen::lib::is_int4<T>::value, "ascgen: element access to int4b_t tensors is not emulated");
        check_index(index, "operator()", ::ascgen::lib::near_loc());
        return ptr_[index];
    }

    // A sub-tensor starting `offset` elements in (vector ops need it 32-byte aligned; checked at use).
    LocalTensor operator[](uint32_t offset) const {
        ASCGEN_MEM_CHECK(ptr_ != nullptr, ::ascgen::lib::near_loc(),
                         "LocalTensor[%u] on a tensor that was never allocated", offset);
        ASCGEN_MEM_CHECK(offset <= cap_, ::ascgen::lib::near_loc(),
                         "local tensor overflow: sub-tensor [%u] of a tensor of %u elements (UB offset %llu); "
                         "hint: the offset must stay inside the buffer from AllocTensor/Get",
                         offset, cap_, ::ascgen::lib::ull(ub_off()));
        LocalTensor t = *this;
        t.ptr_ += offset;
        t.cap_ -= offset;
        t.size_ = size_ > offset ? size_ - offset : 0;
        return t;
    }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        namespace L = ::ascgen::lib;
        LocalTensor<U> t;
        t.ptr_ = reinterpret_cast<U*>(ptr_);
        t.size_ = uint32_t(L::elems_in<U>(L::bytes_of<T>(size_)));
        t.cap_ = uint32_t(L::elems_in<U>(L::bytes_of<T>(cap_)));
        t.pos_ = pos_;
        return t;
    }

    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * uint32_t(sizeof(T)); }
    void SetSize(uint32_t size, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ASCGEN_MEM_CHECK(size <= cap_, loc, "LocalTensor::SetSize(%u) beyond the buffer's %u elements", size, cap_);
        size_ = size;
    }
    // The emulator's UB is host memory: the physical address is the host address (a pointer cast works).
    uint64_t GetPhyAddr() const { return reinterpret_cast<uintptr_t>(ptr_); }
    uint64_t GetPhyAddr(uint32_t offset) const { return reinterpret_cast<uintptr_t>(ptr_ + offset); }
    TPosition GetPosition() const { return pos_; }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    void SetAddrWithOffset(const LocalTensor& src, uint32_t offset) { *this = src[offset]; }

    // ---- library internals ----
    T* data() const { return ptr_; }
    uint32_t capacity() const { return cap_; }
    uint64_t ub_off() const { return ptr_ ? ::ascgen::lib::ub_offset(ptr_) : 0; }
    static LocalTensor make(T* p, uint32_t elems, TPosition pos) {
        LocalTensor t;
        t.ptr_ = p;
        t.size_ = elems;
        t.cap_ = elems;
        t.pos_ = pos;
        return t;
    }

    T* ptr_ = nullptr;
    uint32_t size_ = 0;   // logical size (GetSize)
    uint32_t cap_ = 0;    // elements until the end of the underlying buffer
    TPosition pos_ = TPosition::VECCALC;
    int32_t tag_ = 0;

private:
    void check_index(uint32_t index, const char* what, ::ascgen::rt::Loc loc) const {
        ASCGEN_MEM_CHECK(ptr_ != nullptr, loc, "LocalTensor::%s on a tensor that was never allocated", what);
        ASCGEN_MEM_CHECK(index < cap_, loc,
                         "local tensor overflow: %s index %u, the tensor has %u elements (UB offset %llu)", what,
                         index, cap_, ::ascgen::lib::ull(ub_off()));
    }
};

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    GlobalTensor() = default;

    // A view of GM; `bufferSize` in elements (checked against the allocation by the core).
    // An explicit size 0 is an empty view (every access faults); it is not checked against allocations, so
    // zero-length launches work.
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        if (bufferSize > 0) ::ascgen::rt::gm_view(buffer, bufferSize * sizeof(T), loc);
        addr_ = buffer;
        size_ = bufferSize;
        sized_ = true;
    }
    void SetGlobalBuffer(__gm__ T* buffer, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
        ::ascgen::lib::enter(loc);
        ::ascgen::rt::gm_view(buffer, 0, loc);
        addr_ = buffer;
        size_ = 0;
        sized_ = false;
    }

    T GetValue(uint64_t offset, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        ::ascgen::lib::enter(loc);
        check_range(offset, 1, "GetValue", loc);
        ::ascgen::rt::gm_access(addr_ + offset, sizeof(T), false, loc);
        ::ascgen::rt::cost(PIPE_S, 1);
        return addr_[offset];
    }
    void SetValue(uint64_t offset, T value, ::ascgen::rt::Loc loc = ASCGEN_HERE) const {
        ::ascgen::lib::enter(loc);
        check_range(offset, 1, "SetValue", loc);
        ::ascgen::rt::gm_access(addr_ + offset, sizeof(T), true, loc);
        ::ascgen::rt::cost(PIPE_S, 1);
        addr_[offset] = value;
    }
    // A reference may be read or written; it is recorded as a write (the conservative choice for races).
    T& operator()(uint64_t offset) const {
        ::ascgen::rt::Loc loc = ::ascgen::lib::near_loc();
        check_range(offset, 1, "operator()", loc);
        ::ascgen::rt::gm_access(addr_ + offset, sizeof(T), true, loc);
        return addr_[offset];
    }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ += offset;
        if (sized_) t.size_ = size_ > offset ? size_ - offset : 0;
        return t;
    }

    uint64_t GetSize() const { return size_; }
    __gm__ T* GetPhyAddr() const { return addr_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    template <int mode>
    void SetL2CacheHint() {}
    template <class Mode>
    void SetL2CacheHint(Mode) {}

    // ---- library internals ----
    T* data() const { return addr_; }
    // Fail unless [offset, offset+count) lies inside the SetGlobalBuffer size (when one was given).
    void check_range(uint64_t offset, uint64_t count, const char* what, ::ascgen::rt::Loc loc) const {
        ASCGEN_MEM_CHECK(addr_ != nullptr, loc, "%s on a GlobalTensor without SetGlobalBuffer", what);
        ASCGEN_MEM_CHECK(!sized_ || offset + count <= size_, loc,
                         "GM access out of bounds: %s of elements [%llu, %llu) of a GlobalTensor of %llu elements "
                         "(SetGlobalBuffer size); hint: check the tile offset and length",
                         what, ::ascgen::lib::ull(offset), ::ascgen::lib::ull(offset + count),
                         ::ascgen::lib::ull(size_));
    }

    T* addr_ = nullptr;
    uint64_t size_ = 0;
    bool sized_ = false;
};

}  // namespace AscendC
