// The few math functions the library needs, as compiler builtins: <cmath> alone would add ~20k lines to
// every kernel's compile (header cost matters: a generated kernel should build cold in well under 3 s).
#pragma once

namespace ascgen {
namespace lib {
namespace m {

inline float exp(float x) { return __builtin_expf(x); }
inline double exp(double x) { return __builtin_exp(x); }
inline float log(float x) { return __builtin_logf(x); }
inline double log(double x) { return __builtin_log(x); }
inline float sqrt(float x) { return __builtin_sqrtf(x); }
inline double sqrt(double x) { return __builtin_sqrt(x); }
inline double fabs(double x) { return __builtin_fabs(x); }
inline double floor(double x) { return __builtin_floor(x); }
inline double ceil(double x) { return __builtin_ceil(x); }
inline double round(double x) { return __builtin_round(x); }          // ties away from zero
inline double trunc(double x) { return __builtin_trunc(x); }
inline double nearbyint(double x) { return __builtin_nearbyint(x); }  // current mode: ties to even
inline bool isnan(double x) { return __builtin_isnan(x); }
inline bool isinf(double x) { return __builtin_isinf(x); }

}  // namespace m
}  // namespace lib
}  // namespace ascgen
