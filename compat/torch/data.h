#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/data.h> is Ember.
// torch::data::Dataset / BatchDataset are declared by <ember/data.h>.
#include <torch/ember_prelude.h>
