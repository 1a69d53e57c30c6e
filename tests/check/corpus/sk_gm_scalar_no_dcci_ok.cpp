// Clean twin of sk_gm_scalar_no_dcci.cpp: every scalar write is flushed before the kernel ends, one of
// them by a helper the caller runs after the write.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

class Counter {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ int32_t*)y, 64);
    }
    __aicore__ inline void Mark(int32_t v)
    {
        yGm.SetValue(0, v);
    }
    __aicore__ inline void Store(int32_t v)
    {
        yGm(16) = v;
    }
    __aicore__ inline void Flush()
    {
        AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                          AscendC::DcciDst::CACHELINE_OUT>(yGm);
    }
    AscendC::GlobalTensor<int32_t> yGm;
};

extern "C" __global__ __aicore__ void mark(GM_ADDR y)
{
    Counter c;
    c.Init(y);
    c.Mark(1);
    c.Store(3);
    c.Flush();
}
