#pragma once
// result_type: PyTorch's type promotion over tensors and Scalars.
// Note [Promotion categories]
// Operands fall in three priority classes: tensors with dims, 0-dim tensors,
// and Scalars ("wrapped numbers"). Each class is promoted within itself; a
// lower class only matters when it is of a higher *category*
// (bool < integer < floating < complex) than every higher class, e.g.
// int32 tensor + 2.5 -> float32 (default dtype), but float16 tensor + 2.5 ->
// float16 and uint8 tensor + 1000 -> uint8.
#include "ember/core/tensor.h"

namespace torch {

class ResultTypeState {
 public:
  void update(const Tensor& t);
  void update(const Scalar& s);
  ScalarType result() const;

 private:
  ScalarType dim_ = ScalarType::Undefined, zero_dim_ = ScalarType::Undefined, wrapped_ = ScalarType::Undefined;
};

ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(const Scalar& a, const Tensor& b);
ScalarType result_type(const Scalar& a, const Scalar& b);
ScalarType result_type(TensorList tensors);

}  // namespace torch
