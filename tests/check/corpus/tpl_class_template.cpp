// The twin of tpl_class_template_ok.cpp with Process testing `UPDATE` instead of `!UPDATE`: UPDATE=1
// waits twice (in Init and in Process), UPDATE=0 never waits. Each is reported for its own
// instantiation, through the class template the entry passes the argument to by name.
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(Adagrad, ASCENDC_TPL_BOOL_DECL(UPDATE, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(UPDATE, 0, 1)));

template <typename T, bool UPDATE>
class Adagrad {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm_.SetGlobalBuffer((__gm__ T*)y, 8);
        if (UPDATE) {
            AscendC::WaitPreTaskEnd();
        }
    }
    __aicore__ inline void Process()
    {
        if (UPDATE) {
            AscendC::WaitPreTaskEnd();  // EXPECT: tasksync-once-per-path
        }
        yGm_.SetValue(0, (T)1);
        AscendC::SetNextTaskStart();
    }

private:
    AscendC::GlobalTensor<T> yGm_;
};

template <bool UPDATE>
__global__ __aicore__ void adagrad(GM_ADDR y)  // EXPECT: tasksync-every-variant
{
    Adagrad<float, UPDATE> op;
    op.Init(y);
    op.Process();
}
