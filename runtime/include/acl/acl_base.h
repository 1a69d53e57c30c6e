// Emulated AscendCL (acl) base types for hand-written host programs run by `ascgen run`.
// Only the subset asc-devkit style programs use; anything else is simply not declared, so the compiler
// names the missing API at compile time ("'aclrtFoo' was not declared in this scope").
#pragma once
#include <cstddef>
#include <cstdint>

typedef int aclError;

#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001

typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_BF16 = 27,
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NCL = 47,
} aclFormat;

// The message of the last acl error on this thread (the emulator's acl calls fail only on bad arguments).
inline const char*& ascgen_acl_last_message() {
    static thread_local const char* message = "";
    return message;
}
inline const char* aclGetRecentErrMsg() { return ascgen_acl_last_message(); }

// AscendCL's host-side half: the bits, converted with the same rounding as the emulated cores' half.
#include "ascendc/half.h"
typedef uint16_t aclFloat16;
inline float aclFloat16ToFloat(aclFloat16 value) { return ::ascgen::lib::f16_to_f32(value); }
inline aclFloat16 aclFloatToFloat16(float value) { return ::ascgen::lib::f32_to_f16(value); }
