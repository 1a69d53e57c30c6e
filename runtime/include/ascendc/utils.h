// Small compile-time helpers of the Ascend C utility headers that kernels use directly.
#pragma once
#include <cstdint>
#include <type_traits>

namespace AscendC {

__attribute__((always_inline)) constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__attribute__((always_inline)) constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
template <typename T>
constexpr inline T CeilDivision(T a, T b) {
    return (a + b - 1) / b;
}

template <bool cond, typename A, typename B>
struct Conditional {
    using type = std::conditional_t<cond, A, B>;
};
template <typename A, typename B>
struct IsSameType {
    static constexpr bool value = std::is_same<A, B>::value;
};

constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;

}  // namespace AscendC
