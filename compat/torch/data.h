#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/data.h> is Ember.
#include <ember/torch.h>

// LibTorch's torch/data.h exports these two into torch::data.
namespace ember::data {
using datasets::BatchDataset;
using datasets::Dataset;
}  // namespace ember::data
