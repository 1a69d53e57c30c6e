// Production pattern (issue 24): the entry passes its template argument on to a class template by name
// (`Adagrad<float, UPDATE> op;`), and two methods test it: Init waits when UPDATE is set, Process when
// it is not. In each instantiation one of them waits. Read as run-time branches (each method on its
// own), UPDATE true in one and false in the other were paths: two waits, or none.
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
        if (!UPDATE) {
            AscendC::WaitPreTaskEnd();
        }
        yGm_.SetValue(0, (T)1);
        AscendC::SetNextTaskStart();
    }

private:
    AscendC::GlobalTensor<T> yGm_;
};

template <bool UPDATE>
__global__ __aicore__ void adagrad(GM_ADDR y)
{
    Adagrad<float, UPDATE> op;
    op.Init(y);
    op.Process();
}
