// Test driver for the emulated vector API: runs one op on arrays read from stdin and writes the result
// to stdout, so tests/library/test_numerics.py and test_vector.py can compare with numpy.
//
//   vec_driver conv f2h|h2f|f2bf|bf2f N           scalar conversions of the storage types
//   vec_driver cast DST SRC MODE N                AscendC::Cast (MODE = RoundMode value)
//   vec_driver binary OP T N                      OP(dst, a, b, N)
//   vec_driver scalar OP T N VALUE                OP(dst, a, VALUE, N)
//   vec_driver unary OP T N                       OP(dst, a, N)
//   vec_driver reduce sum|max|min T N             dst[0] (and the index bits of max/min in dst[1])
//   vec_driver compare MODE T N | comparescalar MODE T N VALUE   bit mask bytes
//   vec_driver select T N | selectscalar T N VALUE | selectspr T N   (mask bytes first on stdin)
//   vec_driver brcb T REPEAT DSTBLK DSTREP        Brcb into a zeroed destination of OUT elements
//   vec_driver add0 T MASK REPEAT DB S0B S1B DR S0R S1R OUT   level-0 Add into a zeroed destination
//   vec_driver counter_add T N                    SetMaskCount + SetVectorMask(N) + Add<T, false>(..., 1 repeat)
//   vec_driver repeat_reduce sum|max|min T MASK REPEAT   ReduceRepeat (value, index) per repeat
//   vec_driver block_reduce sum|max|min T MASK REPEAT    ReduceDataBlock, 8 results per repeat
//   vec_driver cube M K N ATOMIC                  half A (MxK) x B (KxN) through L1/L0A/L0B/L0C like the
//                                                 asc-devkit cross_core example; float C (+= with ATOMIC=1)
// Types: f32 f16 bf16 i32 i16 i8 u8 u16 u32. Exit 3 after a fault (the stub prints it on stderr).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::vector<char> g_in;
size_t g_pos = 0;

template <class T>
const T* take(size_t n) {
    if (g_pos + n * sizeof(T) > g_in.size()) {
        std::fprintf(stderr, "driver: stdin too short\n");
        std::exit(2);
    }
    const T* p = reinterpret_cast<const T*>(g_in.data() + g_pos);
    g_pos += n * sizeof(T);
    return p;
}
template <class T>
void put(const T* p, size_t n) {
    std::fwrite(p, sizeof(T), n, stdout);
}

// A UB tensor of n elements filled from stdin (or zeros).
template <class T>
LocalTensor<T> tensor(LocalMemAllocator<Hardware::UB>& ub, size_t n, bool fill) {
    LocalTensor<T> t = ub.Alloc<T>(uint32_t(n));
    if (fill) std::memcpy(t.data(), take<T>(n), n * sizeof(T));
    else std::memset(t.data(), 0, n * sizeof(T));
    return t;
}

template <class F>
int with_type(const std::string& t, F f) {
    if (t == "f32") return f((float*)nullptr);
    if (t == "f16") return f((half*)nullptr);
    if (t == "bf16") return f((bfloat16_t*)nullptr);
    if (t == "i32") return f((int32_t*)nullptr);
    if (t == "i16") return f((int16_t*)nullptr);
    if (t == "i8") return f((int8_t*)nullptr);
    if (t == "u8") return f((uint8_t*)nullptr);
    if (t == "u16") return f((uint16_t*)nullptr);
    if (t == "u32") return f((uint32_t*)nullptr);
    std::fprintf(stderr, "driver: unknown type %s\n", t.c_str());
    return 2;
}
#define TYPE_OF(tag) std::remove_pointer_t<decltype(tag)>

int conv(const std::string& what, size_t n) {
    if (what == "f2h") {
        const float* s = take<float>(n);
        for (size_t i = 0; i < n; ++i) {
            uint16_t b = half(s[i]).bits;
            put(&b, 1);
        }
    } else if (what == "h2f") {
        const uint16_t* s = take<uint16_t>(n);
        for (size_t i = 0; i < n; ++i) {
            float f = half::from_bits(s[i]);
            put(&f, 1);
        }
    } else if (what == "f2bf") {
        const float* s = take<float>(n);
        for (size_t i = 0; i < n; ++i) {
            uint16_t b = bfloat16_t(s[i]).bits;
            put(&b, 1);
        }
    } else if (what == "bf2f") {
        const uint16_t* s = take<uint16_t>(n);
        for (size_t i = 0; i < n; ++i) {
            float f = bfloat16_t::from_bits(s[i]);
            put(&f, 1);
        }
    } else {
        return 2;
    }
    return 0;
}

template <class D, class S>
int cast(int mode, size_t n) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<S> s = tensor<S>(ub, n, true);
    LocalTensor<D> d = tensor<D>(ub, n, false);
    Cast(d, s, RoundMode(mode), uint32_t(n));
    put(d.data(), n);
    return 0;
}

template <class T>
int binary(const std::string& op, size_t n) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> a = tensor<T>(ub, n, true), b = tensor<T>(ub, n, true), d = tensor<T>(ub, n, false);
    int32_t c = int32_t(n);
    if (op == "Add") Add(d, a, b, c);
    else if (op == "Sub") Sub(d, a, b, c);
    else if (op == "Mul") Mul(d, a, b, c);
    else if (op == "Div") Div(d, a, b, c);
    else if (op == "Max") Max(d, a, b, c);
    else if (op == "Min") Min(d, a, b, c);
    else if (op == "AddRelu") AddRelu(d, a, b, c);
    else if (op == "InPlaceAdd") { Add(a, a, b, c); d = a; }
    else if constexpr (std::is_integral<T>::value) {
        if (op == "And") And(d, a, b, c);
        else if (op == "Or") Or(d, a, b, c);
        else return 2;
    } else return 2;
    put(d.data(), n);
    return 0;
}

template <class T>
int scalar(const std::string& op, size_t n, double v) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> a = tensor<T>(ub, n, true), d = tensor<T>(ub, n, false);
    int32_t c = int32_t(n);
    T s = T(v);
    if (op == "Adds") Adds(d, a, s, c);
    else if (op == "Muls") Muls(d, a, s, c);
    else if (op == "Maxs") Maxs(d, a, s, c);
    else if (op == "Mins") Mins(d, a, s, c);
    else if (op == "LeakyRelu") LeakyRelu(d, a, s, c);
    else if (op == "Duplicate") Duplicate(d, s, c);
    else if (op == "Axpy") { std::memcpy(d.data(), a.data(), n * sizeof(T)); Axpy(d, a, s, c); }
    else if constexpr (std::is_integral<T>::value) {
        if (op == "ShiftLeft") ShiftLeft(d, a, s, c);
        else if (op == "ShiftRight") ShiftRight(d, a, s, c);
        else return 2;
    } else return 2;
    put(d.data(), n);
    return 0;
}

template <class T>
int unary(const std::string& op, size_t n) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> a = tensor<T>(ub, n, true), d = tensor<T>(ub, n, false);
    int32_t c = int32_t(n);
    if (op == "Abs") Abs(d, a, c);
    else if (op == "Relu") Relu(d, a, c);
    else if constexpr (!std::is_integral<T>::value) {
        if (op == "Exp") Exp(d, a, c);
        else if (op == "Ln") Ln(d, a, c);
        else if (op == "Sqrt") Sqrt(d, a, c);
        else if (op == "Rsqrt") Rsqrt(d, a, c);
        else if (op == "Reciprocal") Reciprocal(d, a, c);
        else return 2;
    } else {
        if (op == "Not") Not(d, a, c);
        else return 2;
    }
    put(d.data(), n);
    return 0;
}

template <class T>
int reduce(const std::string& op, size_t n) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> a = tensor<T>(ub, n, true), d = tensor<T>(ub, 16, false), w = tensor<T>(ub, n, false);
    if (op == "sum") ReduceSum(d, a, w, int32_t(n));
    else if (op == "max") ReduceMax(d, a, w, int32_t(n), true);
    else if (op == "min") ReduceMin(d, a, w, int32_t(n), true);
    else return 2;
    put(d.data(), 2);
    return 0;
}

template <class T>
int compare(int mode, size_t n, bool with_scalar, double v) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> a = tensor<T>(ub, n, true);
    LocalTensor<T> b = with_scalar ? a : tensor<T>(ub, n, true);
    LocalTensor<uint8_t> d = tensor<uint8_t>(ub, (n + 7) / 8 + 32, false);
    if (with_scalar) CompareScalar(d, a, T(v), CMPMODE(mode), uint32_t(n));
    else Compare(d, a, b, CMPMODE(mode), uint32_t(n));
    put(d.data(), (n + 7) / 8);
    return 0;
}

template <class T>
int select(size_t n, int kind, double v) {   // kind 0 tensor-tensor, 1 tensor-scalar, 2 CMPMASK_SPR
    LocalMemAllocator<Hardware::UB> ub;
    size_t mbytes = kind == 2 ? 256 / sizeof(T) / 8 : (n + 7) / 8;
    LocalTensor<uint8_t> m = ub.Alloc<uint8_t>(uint32_t(mbytes + 32));
    std::memcpy(m.data(), take<uint8_t>(mbytes), mbytes);
    LocalTensor<T> a = tensor<T>(ub, n, true);
    LocalTensor<T> d = tensor<T>(ub, n, false);
    if (kind == 1) {
        Select(d, m, a, T(v), SELMODE::VSEL_TENSOR_SCALAR_MODE, uint32_t(n));
    } else {
        LocalTensor<T> b = tensor<T>(ub, n, true);
        Select(d, m, a, b, kind == 2 ? SELMODE::VSEL_CMPMASK_SPR : SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
    }
    put(d.data(), n);
    return 0;
}

template <class T>
int brcb(int repeat, int dblk, int drep, size_t out) {
    if constexpr (sizeof(T) != 2 && sizeof(T) != 4) return 2;
    else {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> s = tensor<T>(ub, size_t(repeat) * 8, true);
    LocalTensor<T> d = tensor<T>(ub, out, false);
    Brcb(d, s, uint8_t(repeat), {uint16_t(dblk), uint16_t(drep)});
    put(d.data(), out);
    return 0;
    }
}

template <class T>
int add0(char** a, size_t out_n) {
    uint64_t mask = std::strtoull(a[0], nullptr, 0);
    int repeat = std::atoi(a[1]);
    BinaryRepeatParams p(uint8_t(std::atoi(a[2])), uint8_t(std::atoi(a[3])), uint8_t(std::atoi(a[4])),
                         uint8_t(std::atoi(a[5])), uint8_t(std::atoi(a[6])), uint8_t(std::atoi(a[7])));
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> x = tensor<T>(ub, out_n, true), y = tensor<T>(ub, out_n, true), d = tensor<T>(ub, out_n, false);
    Add(d, x, y, mask, uint8_t(repeat), p);
    put(d.data(), out_n);
    return 0;
}

template <class T>
int counter_add(size_t n) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> x = tensor<T>(ub, n, true), y = tensor<T>(ub, n, true), d = tensor<T>(ub, n + 256, false);
    SetMaskCount();
    SetVectorMask<T>(0, n);
    Add<T, false>(d, x, y, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    put(d.data(), n + 256 / sizeof(T));   // nothing is written past n
    return 0;
}

template <class T>
int repeat_reduce(const std::string& op, bool per_block, int mask, int repeat) {
    const size_t n = size_t(repeat) * 256 / sizeof(T);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<T> x = tensor<T>(ub, n, true), d = tensor<T>(ub, size_t(repeat) * 8 + 16, false);
    if (!per_block) {
        if (op == "sum") ReduceRepeat<ReduceType::SUM, T, T>(d, x, mask, repeat, 1, 1, 8);
        else if (op == "max") ReduceRepeat<ReduceType::MAX, T, T>(d, x, mask, repeat, 1, 1, 8);
        else ReduceRepeat<ReduceType::MIN, T, T>(d, x, mask, repeat, 1, 1, 8);
        put(d.data(), size_t(repeat) * (op == "sum" ? 1 : 2));
    } else {
        if (op == "sum") BlockReduceSum<T>(d, x, repeat, mask, 1, 1, 8);
        else if (op == "max") BlockReduceMax<T>(d, x, repeat, mask, 1, 1, 8);
        else BlockReduceMin<T>(d, x, repeat, mask, 1, 1, 8);
        put(d.data(), size_t(repeat) * 8);
    }
    return 0;
}

int cube(int m, int k, int n, bool atomic) {
    auto up = [](int v) { return (v + 15) / 16 * 16; };
    const int mf = up(m) / 16, kf = up(k) / 16, nf = up(n) / 16;
    const half* pa_in = take<half>(size_t(m) * k);
    std::vector<half> a(pa_in, pa_in + size_t(m) * k);
    const half* pb_in = take<half>(size_t(k) * n);
    std::vector<half> b(pb_in, pb_in + size_t(k) * n);
    const float* pc_in = take<float>(size_t(m) * n);
    std::vector<float> c(pc_in, pc_in + size_t(m) * n);
    ascgen::rt::gm_register(a.data(), a.size() * 2, "a");
    ascgen::rt::gm_register(b.data(), b.size() * 2, "b");
    ascgen::rt::gm_register(c.data(), c.size() * 4, "c");
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(b.data(), b.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    const uint32_t a1Addr = 0, b1Addr = uint32_t(up(m) * up(k) * 2);
    LocalTensor<half> a1(TPosition::A1, a1Addr, uint32_t(up(m) * up(k)));
    LocalTensor<half> b1(TPosition::B1, b1Addr, uint32_t(up(k) * up(n)));
    LocalTensor<half> a2(TPosition::A2, 0, uint32_t(up(m) * up(k)));
    LocalTensor<half> b2(TPosition::B2, 0, uint32_t(up(k) * up(n)));
    LocalTensor<float> c1(TPosition::CO1, 0, uint32_t(up(m) * up(n)));
    Nd2NzParams pa;
    pa.ndNum = 1, pa.nValue = uint16_t(m), pa.dValue = uint16_t(k), pa.srcDValue = uint16_t(k);
    pa.dstNzC0Stride = uint16_t(up(m)), pa.dstNzNStride = 1;
    DataCopy(a1, ag, pa);
    Nd2NzParams pb;
    pb.ndNum = 1, pb.nValue = uint16_t(k), pb.dValue = uint16_t(n), pb.srcDValue = uint16_t(n);
    pb.dstNzC0Stride = uint16_t(up(k)), pb.dstNzNStride = 1;
    DataCopy(b1, bg, pb);
    LoadData2DParams la;
    la.repeatTimes = uint8_t(kf), la.srcStride = uint16_t(mf);
    for (int i = 0; i < mf; ++i) LoadData(a2[uint32_t(i * kf * 256)], a1[uint32_t(i * 256)], la);
    LoadData2DParams lb;
    lb.repeatTimes = uint8_t(nf), lb.srcStride = uint16_t(kf), lb.ifTranspose = true;
    for (int i = 0; i < kf; ++i) LoadData(b2[uint32_t(i * nf * 256)], b1[uint32_t(i * 256)], lb);
    MmadParams mp;
    mp.m = uint16_t(m), mp.n = uint16_t(n), mp.k = uint16_t(k);
    Mmad(c1, a2, b2, mp);
    FixpipeParamsV220 fp;
    fp.nSize = uint16_t(n), fp.mSize = uint16_t(m), fp.srcStride = uint16_t(up(m)), fp.dstStride = uint32_t(n);
    if (atomic) SetAtomicAdd<float>();
    Fixpipe(cg, c1, fp);
    DisableDmaAtomic();
    put(c.data(), c.size());
    return 0;
}

int dispatch(int argc, char** argv) {
    std::string cmd = argv[1];
    auto N = [&](int i) { return size_t(std::strtoull(argv[i], nullptr, 0)); };
    if (cmd == "conv") return conv(argv[2], N(3));
    if (cmd == "cast") {
        int mode = std::atoi(argv[4]);
        size_t n = N(5);
        return with_type(argv[2], [&](auto dt) {
            return with_type(argv[3], [&](auto st) { return cast<TYPE_OF(dt), TYPE_OF(st)>(mode, n); });
        });
    }
    if (cmd == "binary") return with_type(argv[3], [&](auto t) { return binary<TYPE_OF(t)>(argv[2], N(4)); });
    if (cmd == "scalar")
        return with_type(argv[3], [&](auto t) { return scalar<TYPE_OF(t)>(argv[2], N(4), std::atof(argv[5])); });
    if (cmd == "unary") return with_type(argv[3], [&](auto t) { return unary<TYPE_OF(t)>(argv[2], N(4)); });
    if (cmd == "reduce") return with_type(argv[3], [&](auto t) { return reduce<TYPE_OF(t)>(argv[2], N(4)); });
    if (cmd == "compare")
        return with_type(argv[3], [&](auto t) { return compare<TYPE_OF(t)>(std::atoi(argv[2]), N(4), false, 0); });
    if (cmd == "comparescalar")
        return with_type(argv[3],
                         [&](auto t) { return compare<TYPE_OF(t)>(std::atoi(argv[2]), N(4), true, std::atof(argv[5])); });
    if (cmd == "select") return with_type(argv[2], [&](auto t) { return select<TYPE_OF(t)>(N(3), 0, 0); });
    if (cmd == "selectscalar")
        return with_type(argv[2], [&](auto t) { return select<TYPE_OF(t)>(N(3), 1, std::atof(argv[4])); });
    if (cmd == "selectspr") return with_type(argv[2], [&](auto t) { return select<TYPE_OF(t)>(N(3), 2, 0); });
    if (cmd == "brcb")
        return with_type(argv[2], [&](auto t) {
            return brcb<TYPE_OF(t)>(std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]), N(6));
        });
    if (cmd == "counter_add") return with_type(argv[2], [&](auto t) { return counter_add<TYPE_OF(t)>(N(3)); });
    if (cmd == "repeat_reduce" || cmd == "block_reduce")
        return with_type(argv[3], [&](auto t) {
            if constexpr (sizeof(TYPE_OF(t)) == 2 || sizeof(TYPE_OF(t)) == 4)
                return repeat_reduce<TYPE_OF(t)>(argv[2], cmd == "block_reduce", std::atoi(argv[4]), std::atoi(argv[5]));
            else return 2;
        });
    if (cmd == "cube") return cube(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]) != 0);
    if (cmd == "add0") return with_type(argv[2], [&](auto t) { return add0<TYPE_OF(t)>(argv + 3, N(11)); });
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) g_in.insert(g_in.end(), buf, buf + got);
    try {
        return dispatch(argc, argv);
    } catch (ascgen::rt::Cancelled&) {
        return 3;
    }
}
