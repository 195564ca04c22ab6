#pragma once
// Flattening parameters to one vector and back, as
// torch::nn::utils::parameters_to_vector / vector_to_parameters.
#include <vector>

#include "ember/core/tensor.h"

namespace torch::nn::utils {

// The parameters flattened and concatenated (a copy).
Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
// Makes each parameter a view of its slice of `vec` (in place: every handle
// to the parameter sees the new data), as PyTorch's `param.data = ...`.
void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);

}  // namespace torch::nn::utils
