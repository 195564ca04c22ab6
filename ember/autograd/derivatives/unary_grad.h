#pragma once
// Backward recording for the unary family (formulas in the gradient column of tables/unary.def).
#include "ember/core/tensor.h"

namespace torch::autograd {

// Records the backward of row `id` of tables/unary.def for result = op(self).
// `self_value` is what the formula reads as `self`: the input itself, or for
// in-place ops a copy taken before the op overwrote it (undefined when the
// formula does not read self). For in-place ops `self` and `result` are the
// same tensor, which becomes the node's output.
void record_unary(int id, const Tensor& self, const Tensor& self_value, const Tensor& result);
// Whether the formula of row `id` reads `self`.
bool unary_grad_uses_self(int id);

}  // namespace torch::autograd
