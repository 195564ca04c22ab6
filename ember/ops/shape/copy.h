#pragma once
// Copies and dtype conversion: copy_, to, clone, contiguous, fill_.
#include "ember/core/tensor.h"

namespace torch {

Tensor& copy_(Tensor& self, const Tensor& src);  // broadcasting src to self, converting dtype
Tensor clone(const Tensor& self);
Tensor contiguous(const Tensor& self);
Tensor& fill_(Tensor& self, const Scalar& v);
Tensor& zero_(Tensor& self);

namespace ops {
// A contiguous tensor of dtype `t` with self's values (self itself when nothing changes).
Tensor cast(const Tensor& self, ScalarType t);
}  // namespace ops

}  // namespace torch
