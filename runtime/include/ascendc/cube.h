// The cube unit (L1 / L0A / L0B / L0C, Mmad, LoadData, Fixpipe) is not emulated. These declarations let
// mixed sources whose cube path is never taken compile and run (e.g. AIV-only scenarios of a kernel
// class that also holds cube code); executing any of them stops the run with a KernelAssertError that
// names the API. docs/library.md lists them.
#pragma once
#include <cstdint>

#include "ascendc/check.h"
#include "ascendc/tensor.h"

namespace AscendC {

struct Nd2NzParams {
    uint16_t ndNum = 0, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0, dstNzC0Stride = 0,
             dstNzNStride = 0, dstNzMatrixStride = 0;
};
struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};
struct MmadParams {
    uint16_t m = 0, n = 0, k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false, enWinogradA = false, enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false, cmatrixInitVal = true;
};
struct FixpipeParamsV220 {
    uint16_t nSize = 0, mSize = 0, srcStride = 0;
    uint32_t dstStride = 0;
    uint8_t quantPre = 0;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

namespace detail {
[[noreturn]] inline void cube_unsupported(const char* api, ::ascgen::rt::Loc loc) {
    ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, loc,
                       "AscendC::%s (cube unit) is not emulated by ascgen; hint: run the vector part only, or see "
                       "docs/library.md for the supported API",
                       api);
}
}  // namespace detail

template <typename T>
inline void DataCopy(const LocalTensor<T>&, const GlobalTensor<T>&, const Nd2NzParams&,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    detail::cube_unsupported("DataCopy(Nd2NzParams)", loc);
}
template <typename T, typename P>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const P&, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    detail::cube_unsupported("LoadData", loc);
}
template <typename C, typename A, typename B, typename P>
inline void Mmad(const LocalTensor<C>&, const LocalTensor<A>&, const LocalTensor<B>&, const P&,
                 ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    detail::cube_unsupported("Mmad", loc);
}
template <typename D, typename S, typename P>
inline void Fixpipe(const GlobalTensor<D>&, const LocalTensor<S>&, const P&, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    detail::cube_unsupported("Fixpipe", loc);
}

}  // namespace AscendC
