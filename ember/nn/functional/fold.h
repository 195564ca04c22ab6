#pragma once
// F::unfold (im2col) and F::fold (col2im), as torch::nn::functional.
// unfold: (N, C, H, W) -> (N, C*kh*kw, L), one column per sliding block;
// fold is its adjoint, summing each column back into an (N, C, H, W) image.
#include "ember/core/tensor.h"
#include "ember/nn/options/fold.h"

namespace torch::nn::functional {

Tensor unfold(const Tensor& input, const UnfoldFuncOptions& options);
Tensor fold(const Tensor& input, const FoldFuncOptions& options);

}  // namespace torch::nn::functional
