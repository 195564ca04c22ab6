#pragma once
// CPU kernels of the binary family. Each takes a TensorIterator whose inputs
// already have the compute dtype (ops/elementwise/binary.cpp casts them) and whose output
// has the result dtype (the compute dtype, or bool for comparisons).
#include <cstdint>
#include <type_traits>

#include "ember/core/scalar.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/kernels/cpu/wrapping.h"

namespace torch::kernels {

// Per-call values some functors read; the rest ignore them.
struct BinaryArgs {
  const char* op = "";        // for errors raised inside a kernel (integer division by zero)
  Scalar alpha = 1;           // add_scaled: a + alpha * b; threshold_backward: the threshold
  double rtol = 0, atol = 0;  // isclose
  bool equal_nan = false;     // isclose
};

#define EMBER_BINARY_OP(name, ...) void name##_kernel(const TensorIterator& iter, const BinaryArgs& args);
#define EMBER_BINARY_KERNEL(name, ...) void name##_kernel(const TensorIterator& iter, const BinaryArgs& args);
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP

// Ternary kernels (binary_kernels_ternary.cpp); all operands share one dtype.
void clamp_kernel(const TensorIterator& iter);                              // out, self, min, max
void lerp_kernel(const TensorIterator& iter);                               // out, self, end, weight
void lerp_scalar_kernel(const TensorIterator& iter, const Scalar& weight);  // out, self, end
// out, grad_output, self: the gradient where min < self < max or self is NaN, else 0 (as ATen).
void hardtanh_backward_kernel(const TensorIterator& iter, const Scalar& min_val, const Scalar& max_val);
void addcmul_kernel(const TensorIterator& iter, const Scalar& value);  // out, self, t1, t2
void addcdiv_kernel(const TensorIterator& iter, const Scalar& value);  // out, self, t1, t2

}  // namespace torch::kernels
