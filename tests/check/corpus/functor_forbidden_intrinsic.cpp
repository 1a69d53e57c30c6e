// Production pattern: the per-core index is read inside functor classes the entry builds in every way
// C++ allows: a default constructor (`Tiler t;`), a braced one (`Tiler t{n}`), a temporary called at
// once (`Reducer()(...)`), a functor handed to a template helper, and a default member initializer.
#include "kernel_operator.h"

struct Tiler {
    __aicore__ inline Tiler()
    {
        start = get_block_idx() * 64;  // EXPECT: sk-forbidden-intrinsic
    }
    __aicore__ inline explicit Tiler(uint32_t n)
    {
        start = n / get_block_num();  // EXPECT: sk-forbidden-intrinsic
    }
    uint32_t start = 0;
};

struct Reducer {
    __aicore__ inline void operator()(uint32_t n)
    {
        total = n + block_idx;  // EXPECT: sk-forbidden-intrinsic
    }
    uint32_t total = 0;
};

struct Counter {
    uint32_t cores = get_block_num();  // EXPECT: sk-forbidden-intrinsic
};

struct Step {
    __aicore__ inline void operator()(uint32_t i) const
    {
        last = i * block_num;  // EXPECT: sk-forbidden-intrinsic
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
