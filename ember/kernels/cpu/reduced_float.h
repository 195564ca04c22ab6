#pragma once
// float16/bfloat16 runs widened to float32 and rounded back a block at a time,
// by converters compiled once (Note [Reduced-precision blocks]).
#include <cstdint>
#include <type_traits>

#include "ember/core/half.h"

namespace ember::kernels {

template <typename T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Elements per block: a few float buffers of it fit in L1 beside the data.
inline constexpr int64_t kReducedBlock = 256;

// n elements `stride` bytes apart (0: one element repeated) to and from a
// contiguous float buffer.
void widen(const Half* in, int64_t stride, float* out, int64_t n);
void widen(const BFloat16* in, int64_t stride, float* out, int64_t n);
void narrow(const float* in, Half* out, int64_t stride, int64_t n);
void narrow(const float* in, BFloat16* out, int64_t stride, int64_t n);
void store_bools(const bool* in, bool* out, int64_t stride, int64_t n);

}  // namespace ember::kernels
