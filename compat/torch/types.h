#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/types.h> is Ember.
// torch::optional / torch::nullopt are declared by <ember/torch.h>.
#include <torch/ember_prelude.h>
