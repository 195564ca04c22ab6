#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <ATen/TensorIndexing.h> is Ember.
#include <torch/ember_prelude.h>
