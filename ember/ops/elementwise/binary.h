#pragma once
// Free functions of the binary family (implemented in ops/elementwise/binary.cpp; the
// table is tables/binary.def). Every op follows PyTorch's type promotion
// (ops/elementwise/type_promotion.h) and broadcasting; out= forms take the output first,
// as LibTorch's at::add_out(out, self, other) does, and follow Note
// [Elementwise outputs] in ops/elementwise/elementwise.h.
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

// ---- the uniform table ops: mul, remainder, fmod, pow, atan2, hypot, copysign,
// nextafter, gcd, lcm, bitwise_*, logical_*, eq/ne/lt/le/gt/ge ---------------------------
#define EMBER_BINARY_OP(name, ...)                                          \
  Tensor name(const Tensor& self, const Tensor& other);                     \
  Tensor name(const Tensor& self, const Scalar& other);                     \
  Tensor name(const Scalar& self, const Tensor& other);                     \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other); \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other);
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP

// NumPy's names, kept by PyTorch as aliases.
inline Tensor arctan2(const Tensor& self, const Tensor& other) { return atan2(self, other); }
#define EMBER_BINARY_ALIAS_(alias, name)                                                     \
  inline Tensor alias(const Tensor& self, const Tensor& other) { return name(self, other); } \
  inline Tensor alias(const Tensor& self, const Scalar& other) { return name(self, other); }
EMBER_BINARY_ALIAS_(greater, gt)
EMBER_BINARY_ALIAS_(greater_equal, ge)
EMBER_BINARY_ALIAS_(less, lt)
EMBER_BINARY_ALIAS_(less_equal, le)
EMBER_BINARY_ALIAS_(not_equal, ne)
#undef EMBER_BINARY_ALIAS_

// ---- add / sub: self + alpha * other ------------------------------------------------
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor subtract(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// other - alpha * self (PyTorch's rsub).
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// ---- div: true division (integers give the default float dtype), or rounded
// with rounding_mode "trunc" / "floor" (integer division by zero raises) --------------
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Scalar& self, const Tensor& other, std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other,
                std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor divide(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor true_divide(const Tensor& self, const Tensor& other);
Tensor floor_divide(const Tensor& self, const Tensor& other);
Tensor floor_divide(const Tensor& self, const Scalar& other);
Tensor multiply(const Tensor& self, const Tensor& other);

// ---- maximum/minimum propagate NaN; fmax/fmin ignore it -----------------------------
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor fmax(const Tensor& self, const Tensor& other);
Tensor fmin(const Tensor& self, const Tensor& other);
Tensor& maximum_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& minimum_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& fmax_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& fmin_out(Tensor& out, const Tensor& self, const Tensor& other);

// ---- derivatives of tanh and sigmoid from their result (real dtypes), as
// LibTorch's at::tanh_backward: grad_output * (1 - output^2), and
// grad_output * output * (1 - output) ----------------------------------------------
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output);
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output);
// LibTorch's at::threshold_backward: self <= threshold ? 0 : grad_output, in one
// pass (relu's and threshold's backward; real dtypes).
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);

// ---- closeness ---------------------------------------------------------------------
Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
               bool equal_nan = false);
bool allclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);
// Same shape and equal values (dtypes promote, as torch.equal).
bool equal(const Tensor& self, const Tensor& other);

// ---- clamp: at least one bound; NaN anywhere gives NaN; min > max gives max ---------
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt);
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt);
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max = std::nullopt);
Tensor clamp_min(const Tensor& self, const Scalar& min);
Tensor clamp_min(const Tensor& self, const Tensor& min);
Tensor clamp_max(const Tensor& self, const Scalar& max);
Tensor clamp_max(const Tensor& self, const Tensor& max);
Tensor clip(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt);
Tensor clip(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt);

// ---- three-input ops ---------------------------------------------------------------
// self + weight * (end - self); self, end (and a tensor weight) share one dtype.
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);
// self + value * t1 * t2
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value = 1);
// self + value * t1 / t2 (integer t1 and t2 raise, as in PyTorch)
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value = 1);

}  // namespace torch
