#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/csrc/utils/tensor_flatten.h>.
#include <vector>

#include <torch/ember_prelude.h>

namespace torch::utils {
// The tensors concatenated, flattened, into one contiguous 1-D tensor (as the bucketing of
// data-parallel gradients does).
inline Tensor flatten_dense_tensors(TensorList tensors) {
  if (tensors.size() == 1) return tensors[0].contiguous().view({-1});
  std::vector<Tensor> flat;
  flat.reserve(tensors.size());
  for (const auto& t : tensors) flat.push_back(t.contiguous().view({-1}));
  return torch::cat(flat);
}
// `flat` cut back into tensors shaped like `tensors`: views of `flat`, an empty tensor for
// each empty one (data_ptr() null, as LibTorch's).
inline std::vector<Tensor> unflatten_dense_tensors(const Tensor& flat, TensorList tensors) {
  std::vector<Tensor> outputs;
  outputs.reserve(tensors.size());
  int64_t offset = 0;
  for (const auto& t : tensors) {
    const int64_t n = t.numel();
    if (n == 0)
      outputs.push_back(torch::empty({0}, flat.options()));
    else
      outputs.push_back(flat.narrow(0, offset, n).view(t.sizes()));
    offset += n;
  }
  return outputs;
}
}  // namespace torch::utils
