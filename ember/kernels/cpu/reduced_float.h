#pragma once
// float16/bfloat16 runs widened to float32 and rounded back a block at a time,
// by converters compiled once (Note [Reduced-precision blocks]).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ember/core/half.h"
#include "ember/kernels/cpu/convert.h"

namespace torch::kernels {

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

// A run of out = convert<Out>(in), strides s[0] (out) and s[1] (in), where
// one side is float16/bfloat16 and the other is not the same type: through a
// float block, which gives convert<Out>'s values because every conversion to
// or from a 16-bit float already goes through float.
template <typename Out, typename In>
void convert_run_through_float(char** data, const int64_t* s, int64_t n) {
  float buf[kReducedBlock];
  for (int64_t i = 0; i < n; i += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - i);
    const char* in = data[1] + i * s[1];
    char* out = data[0] + i * s[0];
    if constexpr (is_reduced_float_v<In>) {
      widen(reinterpret_cast<const In*>(in), s[1], buf, m);
    } else if (s[1] == sizeof(In)) {
      // bool read as its byte (0 or 1), which GCC vectorises (a bool load it does not).
      using Load = std::conditional_t<std::is_same_v<In, bool>, uint8_t, In>;
      const Load* p = reinterpret_cast<const Load*>(in);
      for (int64_t j = 0; j < m; ++j) buf[j] = convert<float>(p[j]);
    } else {
      for (int64_t j = 0; j < m; ++j) buf[j] = convert<float>(*reinterpret_cast<const In*>(in + j * s[1]));
    }
    if constexpr (is_reduced_float_v<Out>) {
      narrow(buf, reinterpret_cast<Out*>(out), s[0], m);
    } else if (s[0] == sizeof(Out)) {
      Out* p = reinterpret_cast<Out*>(out);
      for (int64_t j = 0; j < m; ++j) p[j] = convert<Out>(buf[j]);
    } else {
      for (int64_t j = 0; j < m; ++j) *reinterpret_cast<Out*>(out + j * s[0]) = convert<Out>(buf[j]);
    }
  }
}

}  // namespace torch::kernels
