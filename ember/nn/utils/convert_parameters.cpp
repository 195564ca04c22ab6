#include "ember/nn/utils/convert_parameters.h"

#include "ember/nn/module.h"
#include "ember/ops/all_ops.h"

namespace torch::nn::utils {

Tensor parameters_to_vector(const std::vector<Tensor>& parameters) {
  std::vector<Tensor> flat;
  flat.reserve(parameters.size());
  for (const auto& p : parameters) flat.push_back(p.view(-1));
  return cat(flat);
}

void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters) {
  EMBER_CHECK(vec.dim() == 1, "vector_to_parameters: expected a 1-D vector, got ", shape_str(vec.sizes()));
  int64_t total = 0;
  for (const auto& p : parameters) total += p.numel();
  EMBER_CHECK(total == vec.numel(), "vector_to_parameters: the vector has ", vec.numel(),
              " elements but the parameters have ", total);
  int64_t offset = 0;
  for (const auto& p : parameters) {
    const int64_t n = p.numel();
    detail::set_data(p, vec.slice(0, offset, offset + n).view_as(p).detach());
    offset += n;
  }
}

}  // namespace torch::nn::utils
