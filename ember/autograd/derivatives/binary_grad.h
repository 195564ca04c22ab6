#pragma once
// Backward recording for the binary family (formulas in the gradient column of tables/binary.def).
#include <string>

#include "ember/core/tensor.h"
#include "ember/tables/binary_ops.h"

namespace torch::autograd {

// Whether recording `op` makes a node (false: its row is EMBER_BINARY_NONDIFF
// or EMBER_BINARY_RECORDED_ELSEWHERE).
bool binary_is_differentiable(BinaryOp op);
// The node an EMBER_BINARY_GRAD row records for a Tensor (overload 0) or a
// Scalar (1) other: "MulBackward0"; the rounding divisions are DivBackward2/3.
std::string binary_node_name(BinaryOp op, const char* name, int overload);
// Records result = op(a, b). `a_in`/`b_in` are the user's operands (undefined
// for a Scalar; these give the edges), `a`/`b` the compute-dtype values the
// formulas read (the same tensors when no cast was needed). `scalar_other` selects PyTorch's "...Backward1" name.
void record_binary(BinaryOp op, const Tensor& a_in, const Tensor& b_in, const Tensor& a, const Tensor& b,
                   const Tensor& result, const Scalar& alpha, bool scalar_other);

}  // namespace torch::autograd
