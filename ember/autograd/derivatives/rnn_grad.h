#pragma once
// Backward recording for the recurrent ops' split (ops/nn/rnn.cpp). The formula (rnn_grad.cpp) is a
// cat of differentiable ops, so double backward works.
#include <vector>

#include "ember/core/tensor.h"

namespace ember::autograd {

// "SplitWithSizesBackward0" for `pieces`, consecutive views of `self` along `dim` with the given
// sizes: one node for all pieces whose gradient is the cat of the pieces' gradients (zeros for
// pieces that got none), instead of one slice node per piece that each fill a zero tensor of
// self's full size.
void record_split_with_sizes(const Tensor& self, const std::vector<Tensor>& pieces, IntArrayRef sizes, int64_t dim);

}  // namespace ember::autograd
