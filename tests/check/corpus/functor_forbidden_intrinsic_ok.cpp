// Clean twin of functor_forbidden_intrinsic.cpp: the functors use the library's GetBlockIdx / GetBlockNum;
// a method nobody calls may keep the old intrinsic.
#include "kernel_operator.h"

struct Tiler {
    __aicore__ inline Tiler()
    {
        start = AscendC::GetBlockIdx() * 64;
    }
    __aicore__ inline explicit Tiler(uint32_t n)
    {
        start = n / AscendC::GetBlockNum();
    }
    // Never called by the kernel: a class being used does not make all its methods run.
    __aicore__ inline uint32_t Debug() const
    {
        return get_block_idx();
    }
    uint32_t start = 0;
};

struct Reducer {
    __aicore__ inline void operator()(uint32_t n)
    {
        total = n + AscendC::GetBlockIdx();
    }
    uint32_t total = 0;
};

struct Counter {
    uint32_t cores = AscendC::GetBlockNum();
};

struct Step {
    __aicore__ inline void operator()(uint32_t i) const
    {
        last = i * AscendC::GetBlockNum();
    }
    mutable uint32_t last = 0;
};

template <typename F>
__aicore__ inline void ForEach(uint32_t n, const F &f)
{
    for (uint32_t i = 0; i < n; i++) {
        f(i);
    }
}

extern "C" __global__ __aicore__ void tiles(GM_ADDR x, uint32_t n)
{
    AscendC::WaitPreTaskEnd();
    Tiler first;
    Tiler second{n};
    Reducer()(n);
    Counter counter;
    ForEach(n, Step());
    AscendC::SetNextTaskStart();
}
