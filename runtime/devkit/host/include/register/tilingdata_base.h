// ascgen's tiling-data registration macros for the devkit backend's host programs (CANN ships the real
// header with its host runtime; asc-devkit uses it but does not contain it).
//
// A tiling-data class declared with BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF keeps its fields in one
// byte buffer laid out exactly like the C struct the kernel reads: the tree's own
// gen_kernel_tiling_data_def.py turns the same declarations into `#pragma pack(push, 8)` structs, so each
// field sits at its natural alignment capped at 8 and the size is rounded up to the class's alignment.
// tests/devkit checks every library class against its kernel struct (size and field offsets).
//
//   set_x(v) / get_x()            scalar fields (get_x reads the buffer back)
//   set_x(const T* v) / get_x()   TILING_DATA_FIELD_DEF_ARR: copies N elements in / returns the buffer
//   x                             TILING_DATA_FIELD_DEF_STRUCT: a nested class, flushed into the buffer
//                                 by SaveToBuffer / GetData
//   SaveToBuffer(dst, capacity), GetDataSize(), GetData(), GetTilingClassName()
//   REGISTER_TILING_DATA_CLASS(op, class): CreateTilingDataInstance("op") returns a new instance.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>
// CANN's header brings these in too, and the tree's tiling sources and examples rely on it (std::map in
// matmul_tiling_base.h, ge:: in conv3d_bp_input_tiling.cpp, memcpy_s in softmaxflashv2.asc).
#include "graph/types.h"
#include "securec.h"

namespace optiling {

class TilingDef {
public:
    TilingDef() = default;
    virtual ~TilingDef() = default;
    TilingDef(const TilingDef&) = default;
    TilingDef& operator=(const TilingDef&) = default;

    // Copies the data (nested classes included) into dst; a too-small capacity is a host-program error
    // reported through the ascgen core (src/tiling_def.cpp), never a truncated copy.
    void SaveToBuffer(void* dst, size_t capacity);
    size_t GetDataSize() const { return data_.size(); }
    uint8_t* GetData();
    const char* GetTilingClassName() const { return class_name_; }
    size_t GetAlignment() const { return align_; }

protected:
    // The byte offset of a new field of `size` bytes with natural alignment `align` (capped at 8, like
    // the kernel's #pragma pack(push, 8)); grows the buffer, zero-filled.
    size_t AddField(size_t size, size_t align);
    // A nested tiling class member: its bytes are copied in at `offset` before the data is read.
    size_t AddStruct(const TilingDef& member);
    template <typename T>
    void Write(size_t offset, const T* src, size_t count) {
        std::memcpy(data_.data() + offset, src, sizeof(T) * count);
    }
    template <typename T>
    T Read(size_t offset) const {
        T v;
        std::memcpy(&v, data_.data() + offset, sizeof(T));
        return v;
    }
    template <typename T>
    T* At(size_t offset) { return reinterpret_cast<T*>(data_.data() + offset); }

    const char* class_name_ = "";

private:
    void Flush();
    std::vector<uint8_t> data_;
    size_t align_ = 1;
    size_t used_ = 0;                                     // bytes before tail padding
    std::vector<std::pair<size_t, ptrdiff_t>> nested_;    // (offset in data_, member address - this)
};

using TilingDataFactory = std::function<std::shared_ptr<TilingDef>()>;
// The registry of REGISTER_TILING_DATA_CLASS (one per module copy).
void RegisterTilingDataClass(const char* op_type, const char* class_name, TilingDataFactory factory);
// A new instance of the class registered for op_type, or nullptr if none is.
std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type);

namespace detail {
// Natural alignment of a field type, as the kernel's packed(8) struct would place it.
template <typename T>
constexpr size_t field_align() { return alignof(T) < 8 ? alignof(T) : 8; }
}  // namespace detail

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                        \
    class class_name : public ::optiling::TilingDef {                                           \
        const bool named_ = (class_name_ = #class_name, true);                                   \
                                                                                                 \
    public:

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                             \
private:                                                                                         \
    size_t field_name##_at_ = AddField(sizeof(data_type), ::optiling::detail::field_align<data_type>()); \
                                                                                                 \
public:                                                                                          \
    void set_##field_name(data_type value) { Write<data_type>(field_name##_at_, &value, 1); }   \
    data_type get_##field_name() const { return Read<data_type>(field_name##_at_); }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                \
private:                                                                                         \
    size_t field_name##_at_ = AddField(sizeof(arr_type) * (arr_size), ::optiling::detail::field_align<arr_type>()); \
                                                                                                 \
public:                                                                                          \
    void set_##field_name(const arr_type* value) { Write<arr_type>(field_name##_at_, value, (arr_size)); } \
    arr_type* get_##field_name() { return At<arr_type>(field_name##_at_); }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                    \
public:                                                                                          \
    struct_type field_name;                                                                      \
                                                                                                 \
private:                                                                                         \
    size_t field_name##_at_ = AddStruct(field_name);                                             \
                                                                                                 \
public:

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                          \
    static const bool g_ascgen_tiling_registered_##op_type##_##class_name = [] {                 \
        ::optiling::RegisterTilingDataClass(#op_type, #class_name,                               \
            [] { return std::shared_ptr<::optiling::TilingDef>(new class_name()); });            \
        return true;                                                                             \
    }();
