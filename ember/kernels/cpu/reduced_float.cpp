// Note [Reduced-precision blocks]
// An elementwise kernel on float16/bfloat16 computes in float32 (opmath_t), so
// its loop converts every element in and out. Inlined into each op's loop, the
// vectorised bfloat16 rounding made every 16-bit instantiation of a unary or
// binary kernel 10-20 KB of machine code: over a megabyte of the library for
// conversions that are all the same. Instead the loops (loops.h,
// unary_kernels_vec.h) widen a block of kReducedBlock elements into a float
// buffer with these functions, run the op's element function on floats, and
// round the block back here. They are the same conversions (operator float,
// and the Half/BFloat16 constructors from float: round to nearest even, NaN
// kept), so the values are those of an element-by-element loop.
#include "ember/kernels/cpu/reduced_float.h"

#include <cstring>

namespace torch::kernels {
namespace {

template <typename T>
void widen_run(const T* in, int64_t stride, float* out, int64_t n) {
  if (stride == sizeof(T)) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
  } else if (stride == 0) {
    const float v = n > 0 ? static_cast<float>(in[0]) : 0.f;
    for (int64_t i = 0; i < n; ++i) out[i] = v;
  } else {
    const char* p = reinterpret_cast<const char*>(in);
    for (int64_t i = 0; i < n; ++i, p += stride) out[i] = static_cast<float>(*reinterpret_cast<const T*>(p));
  }
}

template <typename T>
void narrow_run(const float* in, T* out, int64_t stride, int64_t n) {
  if (stride == sizeof(T)) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(in[i]);
  } else {
    char* p = reinterpret_cast<char*>(out);
    for (int64_t i = 0; i < n; ++i, p += stride) *reinterpret_cast<T*>(p) = T(in[i]);
  }
}

}  // namespace

void widen(const Half* in, int64_t stride, float* out, int64_t n) { widen_run(in, stride, out, n); }
void widen(const BFloat16* in, int64_t stride, float* out, int64_t n) { widen_run(in, stride, out, n); }
void narrow(const float* in, Half* out, int64_t stride, int64_t n) { narrow_run(in, out, stride, n); }
void narrow(const float* in, BFloat16* out, int64_t stride, int64_t n) { narrow_run(in, out, stride, n); }

void store_bools(const bool* in, bool* out, int64_t stride, int64_t n) {
  if (stride == sizeof(bool)) {
    std::memcpy(out, in, static_cast<size_t>(n));
  } else {
    char* p = reinterpret_cast<char*>(out);
    for (int64_t i = 0; i < n; ++i, p += stride) *reinterpret_cast<bool*>(p) = in[i];
  }
}

}  // namespace torch::kernels
