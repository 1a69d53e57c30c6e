// Clean twin of buffer_over_capacity.cpp: the same buffers sized to fit the product.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

constexpr uint32_t ROWS = 64;
constexpr uint32_t COLS = 128;

class BigBuffers {
public:
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueue, 2, ROWS * COLS * sizeof(float));
        pipe.InitBuffer(tmp, 16 * 1024);
        pipe.InitBuffer(aQueue, 1, 32 * 1024);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
    AscendC::TQue<AscendC::TPosition::A2, 1> aQueue;
};

extern "C" __global__ __aicore__ void big(GM_ADDR x)
{
    BigBuffers op;
    op.Init();
}

class NearlyAllUb {
public:
    __aicore__ inline void Init(AscendC::TPipe *pipe)
    {
        pipe->InitBuffer(all, 180 * 1024);
    }

private:
    AscendC::TBuf<AscendC::TPosition::VECCALC> all;
};

extern "C" __global__ __aicore__ void nearly(GM_ADDR x)
{
    AscendC::TPipe pipe;
    NearlyAllUb op;
    op.Init(&pipe);
}
