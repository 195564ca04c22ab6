#pragma once
// Backward recording for the binary family (formulas in derivatives/binary.def).
#include "ember/core/tensor.h"

namespace ember::autograd {

// Whether op `name` has a derivative row (false: bool/integer-valued ops).
bool binary_is_differentiable(const char* name);
// Records result = op(a, b). `a_in`/`b_in` are the user's operands (undefined
// for a Scalar; these give the edges), `a`/`b` the compute-dtype values the
// formulas read (the same tensors when no cast was needed). `scalar_other` selects PyTorch's "...Backward1" name.
void record_binary(const char* name, const Tensor& a_in, const Tensor& b_in, const Tensor& a, const Tensor& b,
                   const Tensor& result, const Scalar& alpha, bool scalar_other);

}  // namespace ember::autograd
