// Seeded bug: GM scalar writes (SetValue, operator()) with no DataCacheCleanAndInvalid after them. A
// single operator gets a cache flush at its end from the compiler; a SuperKernel sub-kernel does not, so
// the next task may read the old GM value. The write followed by a flush of its tensor is fine; a later
// flush of another tensor is not (Mark's write stays unflushed although MarkFlushed flushes `zGm`).
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

class Counter {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ int32_t*)y, 64);
        zGm.SetGlobalBuffer((__gm__ int32_t*)y + 64, 64);
    }
    __aicore__ inline void Mark(int32_t v)
    {
        yGm.SetValue(0, v);  // EXPECT: sk-gm-scalar-no-dcci
    }
    __aicore__ inline void MarkFlushed(int32_t v)
    {
        zGm.SetValue(8, v);
        AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                          AscendC::DcciDst::CACHELINE_OUT>(zGm[8]);
    }
    __aicore__ inline void Store(int32_t v)
    {
        yGm(16) = v;  // EXPECT: sk-gm-scalar-no-dcci
    }
    AscendC::GlobalTensor<int32_t> yGm;
    AscendC::GlobalTensor<int32_t> zGm;
};

extern "C" __global__ __aicore__ void mark(GM_ADDR y)
{
    Counter c;
    c.Init(y);
    c.Mark(1);
    c.MarkFlushed(2);
    c.Store(3);
}
