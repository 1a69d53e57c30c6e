// Emulated aclrt* runtime calls (see acl.h). Device memory: aligned host memory registered with the core
// as GM (rt::gm_register) under a name saying where it was allocated, so bounds errors read
// "buffer aclrtMalloc@add.asc:82". Copies are plain memcpy with the destination-size check the real
// API does. Everything is synchronous, so streams, events and contexts are tokens.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "acl/acl_base.h"
#include "ascgen/rt.h"

typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;

typedef enum {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
} aclrtMemMallocPolicy;

typedef enum {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
} aclrtMemcpyKind;

typedef enum {
    ACL_EVENT_SYNC = 1,
    ACL_EVENT_CAPTURE_STREAM_PROGRESS = 2,
    ACL_EVENT_TIME_LINE = 8,
} aclrtEventFlag;

namespace ascgen {
namespace acl {

constexpr size_t kAlign = 512;      // device allocations are 512-byte aligned on the NPU
constexpr size_t kHeader = kAlign;  // the allocation's name lives in front of the data

inline aclError fail(aclError code, const char* message) {
    ascgen_acl_last_message() = message;
    std::fprintf(stderr, "ascgen: acl: %s\n", message);
    return code;
}

// One aligned block: [header: name][data...]. The name stays valid until the block is freed, because the
// core keeps the pointer for its messages.
inline void* alloc(size_t size, bool device, rt::Loc loc) {
    size_t bytes = kHeader + ((size + kAlign - 1) / kAlign) * kAlign;
    if (size == 0) bytes += kAlign;
    void* base = std::aligned_alloc(kAlign, bytes);
    if (base == nullptr) return nullptr;
    char* name = static_cast<char*>(base);
    const char* file = loc.file ? std::strrchr(loc.file, '/') : nullptr;
    std::snprintf(name, kHeader, "%s@%s:%d", device ? "aclrtMalloc" : "GmAlloc",
                  file ? file + 1 : (loc.file ? loc.file : "?"), loc.line);
    void* data = static_cast<char*>(base) + kHeader;
    // aclrtMalloc promises no contents, but fresh device memory reads as zeros in practice and examples
    // rely on it (cross_core_set_wait_flag atomically adds into an output it never clears): zero-fill.
    std::memset(data, 0, bytes - kHeader);
    rt::gm_register(data, size, name);
    return data;
}

inline void release(void* data) {
    if (data == nullptr) return;
    rt::gm_unregister(data);
    std::free(static_cast<char*>(data) - kHeader);
}

}  // namespace acl
}  // namespace ascgen

// ---- devices, contexts, streams, events: one synchronous device ----
inline aclError aclrtSetDevice(int32_t /*deviceId*/) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t /*deviceId*/) { return ACL_SUCCESS; }
inline aclError aclrtGetDevice(int32_t* deviceId) { if (deviceId) *deviceId = 0; return ACL_SUCCESS; }
inline aclError aclrtGetDeviceCount(uint32_t* count) { if (count) *count = 1; return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* context, int32_t /*deviceId*/) {
    static int token;
    if (context) *context = &token;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext /*context*/) { return ACL_SUCCESS; }
inline aclError aclrtSetCurrentContext(aclrtContext /*context*/) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* stream) {
    static int token;
    if (stream == nullptr) return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    *stream = &token;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream /*stream*/) { return ACL_SUCCESS; }
// Launches run to completion before `<<<>>>` returns, so there is never anything to wait for.
inline aclError aclrtSynchronizeStream(aclrtStream /*stream*/) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStreamWithTimeout(aclrtStream /*stream*/, int32_t /*timeout*/) { return ACL_SUCCESS; }
inline aclError aclrtCreateEvent(aclrtEvent* event) {
    static int token;
    if (event) *event = &token;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t /*flag*/) { return aclrtCreateEvent(event); }
inline aclError aclrtDestroyEvent(aclrtEvent /*event*/) { return ACL_SUCCESS; }
inline aclError aclrtRecordEvent(aclrtEvent /*event*/, aclrtStream /*stream*/) { return ACL_SUCCESS; }
inline aclError aclrtStreamWaitEvent(aclrtStream /*stream*/, aclrtEvent /*event*/) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeEvent(aclrtEvent /*event*/) { return ACL_SUCCESS; }

// ---- memory ----
inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/,
                            ascgen::rt::Loc loc = ASCGEN_HERE) {
    if (devPtr == nullptr) return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
    *devPtr = ascgen::acl::alloc(size, true, loc);
    return *devPtr ? ACL_SUCCESS : ascgen::acl::fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: out of memory");
}
inline aclError aclrtFree(void* devPtr) {
    ascgen::acl::release(devPtr);
    return ACL_SUCCESS;
}
// Host memory is not GM: a kernel given a host pointer gets "GM access ... in no buffer", as on the NPU.
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (hostPtr == nullptr) return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
    size_t bytes = ((size + ascgen::acl::kAlign - 1) / ascgen::acl::kAlign + 1) * ascgen::acl::kAlign;
    *hostPtr = std::aligned_alloc(ascgen::acl::kAlign, bytes);
    return *hostPtr ? ACL_SUCCESS : ascgen::acl::fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: out of memory");
}
inline aclError aclrtFreeHost(void* hostPtr) {
    std::free(hostPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind /*kind*/) {
    if (count > destMax)
        return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count is larger than destMax");
    if (count && (dst == nullptr || src == nullptr))
        return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer");
    if (count) std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                 aclrtMemcpyKind kind, aclrtStream /*stream*/) {
    return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count > maxCount)
        return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count is larger than maxCount");
    if (count && devPtr == nullptr) return ascgen::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: null pointer");
    if (count) std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream /*s*/) {
    return aclrtMemset(devPtr, maxCount, value, count);
}
