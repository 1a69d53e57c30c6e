// Seeded bug: constant InitBuffer sizes larger than the product's memory for the queue's position
// (ascend910_93: 192 KiB of UB less the reserved part, 64 KiB of L0A): the buffers cannot fit.
// CHECK-ARGS: --product ascend910_93
#include "kernel_operator.h"

constexpr uint32_t ROWS = 512;
constexpr uint32_t COLS = 128;

class BigBuffers {
public:
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueue, 2, ROWS * COLS * sizeof(float));  // EXPECT: sk-buffer-capacity
        pipe.InitBuffer(tmp, 16 * 1024);
        pipe.InitBuffer(aQueue, 1, 128 * 1024);  // EXPECT: sk-buffer-capacity
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

// Over what the library leaves to kernels (UB less ub_reserved), within the physical UB: a warning.
class NearlyAllUb {
public:
    __aicore__ inline void Init(AscendC::TPipe *pipe)
    {
        pipe->InitBuffer(all, 191 * 1024);  // EXPECT: sk-buffer-capacity
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
