#pragma once
// CPU kernels of the unary family. The op layer (ops/unary*.cpp) decides the
// dtypes and hands each kernel a TensorIterator whose operand 0 is the output
// and operand 1.. the inputs, already of the dtypes listed per kernel.
#include <optional>

#include "ember/kernels/cpu/tensor_iterator.h"

namespace torch::kernels {

// Column 2 and 3 of tables/unary.def (meanings documented there).
enum class UnaryKind { Float, FloatOnly, Int, IntBool, IntToLong, Bitwise, Logical };
enum class UnaryComplex { Cplx, CplxToReal, NoCplx };

enum class UnaryOpId {
#define EMBER_UNARY_OP(name, ...) name,
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
};
constexpr int kNumUnaryOps = 0
#define EMBER_UNARY_OP(name, ...) +1
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
    ;

// One kernel per row of unary.def: out = op(in), in of the compute dtype, out of
// the same dtype (bool for Logical rows, real for complex CplxToReal rows).
using UnaryKernel = void (*)(const TensorIterator& iter);
#define EMBER_UNARY_OP(name, ...) void name##_kernel(const TensorIterator& iter);
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP

// Ops with arguments; floating in, same dtype out unless stated.
void round_decimals_kernel(const TensorIterator& iter, int64_t decimals);
void gelu_kernel(const TensorIterator& iter, bool tanh_approximation);
void softplus_kernel(const TensorIterator& iter, double beta, double threshold);
void elu_kernel(const TensorIterator& iter, double alpha, double scale, double input_scale);
void leaky_relu_kernel(const TensorIterator& iter, double negative_slope);
void logit_kernel(const TensorIterator& iter, std::optional<double> eps);
void nan_to_num_kernel(const TensorIterator& iter, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf);
// polygamma(n, x) for 0 <= n <= kMaxPolygammaOrder (kernels/cpu/polygamma_kernel.cpp):
// Boost.Math's series stop converging (and its work grows with n) beyond it.
constexpr int64_t kMaxPolygammaOrder = 100000;
void polygamma_kernel(const TensorIterator& iter, int64_t n);

// Floating or complex in, bool out.
enum class FloatClass { isnan, isinf, isposinf, isneginf, isfinite, isreal };
void float_class_kernel(const TensorIterator& iter, FloatClass which);
// The int32 exponent std::frexp gives; 0 for 0, inf and NaN (as PyTorch).
void frexp_exponent_kernel(const TensorIterator& iter);

// Complex helpers. angle: floating/complex in, real out. conj: complex -> complex.
// polar(abs, angle) and complex(real, imag): two floating inputs -> complex out.
void angle_kernel(const TensorIterator& iter);
void conj_kernel(const TensorIterator& iter);
void polar_kernel(const TensorIterator& iter);
void complex_kernel(const TensorIterator& iter);

}  // namespace torch::kernels
