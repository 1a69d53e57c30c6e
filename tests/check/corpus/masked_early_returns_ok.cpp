// Clean twin of masked_early_returns.cpp: every path waits and sets before leaving.
#include "kernel_operator.h"

class MaskedInit {
public:
    __aicore__ inline bool Init(GM_ADDR groups, uint32_t rows)
    {
        if (groups == nullptr) {
            return false;
        }
        rows_ = rows / AscendC::GetBlockNum();
        return true;
    }
    __aicore__ inline void Process()
    {
        AscendC::WaitPreTaskEnd();
        if (rows_ == 0) {
            AscendC::SetNextTaskStart();
            return;
        }
        AscendC::SetNextTaskStart();
    }

private:
    uint32_t rows_ = 0;
};

extern "C" __global__ __aicore__ void masked(GM_ADDR bias, GM_ADDR groups, uint32_t rows)
{
    MaskedInit op;
    if (bias != nullptr || !op.Init(groups, rows)) {
        AscendC::WaitPreTaskEnd();
        AscendC::SetNextTaskStart();
        return;
    }
    op.Process();
}
