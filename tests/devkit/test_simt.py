"""The SIMT model of the devkit backend (runtime/devkit ascgen_devkit/dav3510/simt.h, simt_builtins.h): a
SIMT launch (`asc_vf_call<f>(dim3{...}, args...)`, `AscendC::Simt::VF_CALL`) runs its threads one after
another on the launching core, each with its own threadIdx, blockIdx the core and gridDim the launch's
blocks. ascend950 ops of ops-math's random category and many arch35 kernels of ops-nn are SIMT code: before
the model they stopped at `'dim3' not declared`. What needs the threads to run together (a barrier, a warp
exchange) is refused by name when the launch has more than one thread."""
from __future__ import annotations

import numpy as np
import pytest

from ascgen.errors import KernelAssertError
from tests import devkit_tree
from tests.devkit import shared_module

KERNEL = """
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
#include "simt_api/asc_fp16.h"
using namespace AscendC;

// The half2 forms of the SIMT half API (ops-math coalesce_sparse includes asc_fp16.h, whose bodies pass a
// half2 to __expf / __sqrtf, convert float2 with __cvt_half2 and make half2 atomics: a compile error before).
__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void Half2Simt(__gm__ float* x, __gm__ half* out, __gm__ half2* acc)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    half2 v = __float22half2_rn(float2{x[2 * i], x[2 * i + 1]});
    half2 e = h2exp(v), r = h2sqrt(v);
    out[4 * i + 0] = e.x;
    out[4 * i + 1] = e.y;
    out[4 * i + 2] = r.x;
    out[4 * i + 3] = r.y;
    asc_atomic_add(acc, half2{half(1.0f), half(0.5f)});
}

__simt_vf__ __aicore__ LAUNCH_BOUND(32) inline void GeometrySimt(__gm__ int32_t* out)
{
    uint32_t slot = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    out[4 * slot + 0] = blockIdx.x;
    out[4 * slot + 1] = gridDim.x;
    out[4 * slot + 2] = threadIdx.x;
    out[4 * slot + 3] = threadIdx.y;
}

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void RoundSimt(__gm__ float* x, __gm__ int32_t* out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * i + 0] = __float2int_rn(x[i]);
    out[4 * i + 1] = __float2int_rz(x[i]);
    out[4 * i + 2] = __float2int_rd(x[i]);
    out[4 * i + 3] = __float2int_rna(x[i]);
}

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void MathSimt(__gm__ float* x, __gm__ float* out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    out[3 * i + 0] = logf(x[i]);
    out[3 * i + 1] = sqrtf(x[i]);
    out[3 * i + 2] = expf(x[i] * 0.125f);
}

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void CountSimt(__gm__ int32_t* counter, __gm__ float* sum)
{
    atomicAdd(counter, 1);
    __asc_simt_vf::asc_atomic_add(sum, 0.5f);
}

// opbase's atvoss util/log.h calls printf with arguments in ascend950 kernels: it must stay C's printf, not
// be ambiguous with the SIMT API's (namespace __asc_simt_vf).
inline void LogLike(const char* what, int n) { printf("[%s] %d\\n", what, n); }

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void BarrierSimt(__gm__ float* out)
{
    out[threadIdx.x] = 1.0f;
    asc_syncthreads();
    out[threadIdx.x] = 2.0f;
}

extern "C" __global__ __aicore__ void simt_geometry(GM_ADDR out)
{
    asc_vf_call<GeometrySimt>(dim3{8, 4}, (__gm__ int32_t*)out);
}
extern "C" __global__ __aicore__ void simt_round(GM_ADDR x, GM_ADDR out)
{
    asc_vf_call<RoundSimt>(dim3{64}, (__gm__ float*)x, (__gm__ int32_t*)out);
}
extern "C" __global__ __aicore__ void simt_math(GM_ADDR x, GM_ADDR out)
{
    AscendC::Simt::VF_CALL<MathSimt>(AscendC::Simt::Dim3(64), (__gm__ float*)x, (__gm__ float*)out);
}
extern "C" __global__ __aicore__ void simt_count(GM_ADDR counter, GM_ADDR sum)
{
    asc_vf_call<CountSimt>(dim3{64}, (__gm__ int32_t*)counter, (__gm__ float*)sum);
}
extern "C" __global__ __aicore__ void simt_half2(GM_ADDR x, GM_ADDR out, GM_ADDR acc)
{
    asc_vf_call<Half2Simt>(dim3{64}, (__gm__ float*)x, (__gm__ half*)out, (__gm__ half2*)acc);
}
extern "C" __global__ __aicore__ void simt_barrier_one(GM_ADDR out)
{
    asc_vf_call<BarrierSimt>(dim3{1}, (__gm__ float*)out);
}
extern "C" __global__ __aicore__ void simt_barrier_many(GM_ADDR out)
{
    asc_vf_call<BarrierSimt>(dim3{2}, (__gm__ float*)out);
}
"""

kernels = shared_module.register(KERNEL, "ascend950")


def test_each_thread_sees_its_own_index_and_the_launch_geometry():
    devkit_tree.require()
    blocks, tx, ty = 3, 8, 4
    out = np.full((blocks * tx * ty, 4), -1, np.int32)
    kernels().launch("simt_geometry", blocks, out)
    b, y, x = np.meshgrid(np.arange(blocks), np.arange(ty), np.arange(tx), indexing="ij")
    want = np.stack([b.ravel(), np.full(b.size, blocks), x.ravel(), y.ravel()], axis=1)
    np.testing.assert_array_equal(out, want)


def test_float_to_int_rounds_as_its_name_says_and_saturates():
    devkit_tree.require()
    x = np.linspace(-6.5, 6.5, 128).astype(np.float32)
    x[:10] = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3e9, -3e9, np.nan, -0.0]
    out = np.zeros((128, 4), np.int32)
    kernels().launch("simt_round", 2, x, out)
    x64 = x.astype(np.float64)                                  # float32 cannot hold 2^31 - 1
    away = np.sign(x64) * np.floor(np.abs(x64) + 0.5)
    want = np.stack([np.rint(x64), np.trunc(x64), np.floor(x64), away], axis=1)
    want = np.nan_to_num(np.clip(want, -2**31, 2**31 - 1), nan=0.0).astype(np.int64).astype(np.int32)
    np.testing.assert_array_equal(out, want)


def test_simt_math_is_within_an_ulp_of_the_exact_result():
    devkit_tree.require()
    x = np.random.default_rng(3).uniform(1e-3, 50.0, 128).astype(np.float32)
    out = np.zeros((128, 3), np.float32)
    kernels().launch("simt_math", 2, x, out)
    x64 = x.astype(np.float64)
    for column, exact in enumerate([np.log(x64), np.sqrt(x64), np.exp(x64 * 0.125)]):
        assert np.all(np.abs(out[:, column] - exact) <= np.abs(np.spacing(exact.astype(np.float32)))), column
    np.testing.assert_array_equal(out[:, 1], np.sqrt(x))            # sqrt is correctly rounded


def test_half2_math_and_atomics_work_lane_by_lane():
    devkit_tree.require()
    x = np.random.default_rng(5).uniform(0.01, 4.0, 2 * 128).astype(np.float32)
    out, acc = np.zeros((128, 4), np.float16), np.zeros(8, np.float16)
    kernels().launch("simt_half2", 2, x, out, acc)
    v = x.astype(np.float16).astype(np.float64).reshape(128, 2)          # __float22half2_rn: to nearest
    for got, exact in ((out[:, 0:2], np.exp(v)), (out[:, 2:4], np.sqrt(v))):
        assert np.all(np.abs(got.astype(np.float64) - exact) <= np.spacing(exact.astype(np.float16)).astype(np.float64))
    np.testing.assert_array_equal(out[:, 2:4], np.sqrt(v).astype(np.float16))    # sqrt is correctly rounded
    np.testing.assert_array_equal(acc[:2], np.array([128.0, 64.0], np.float16))   # every thread's both lanes


def test_atomics_count_every_thread_of_every_core():
    devkit_tree.require()
    counter, total = np.zeros(8, np.int32), np.zeros(8, np.float32)
    kernels().launch("simt_count", 4, counter, total)
    assert counter[0] == 4 * 64 and total[0] == 4 * 64 * 0.5


def test_a_barrier_runs_alone_and_is_refused_by_name_among_threads():
    devkit_tree.require()
    out = np.zeros(8, np.float32)
    kernels().launch("simt_barrier_one", 1, out)
    assert out[0] == 2.0
    with pytest.raises(KernelAssertError, match=r"asc_syncthreads: a SIMT barrier or warp exchange needs"):
        kernels().launch("simt_barrier_many", 1, np.zeros(8, np.float32))
