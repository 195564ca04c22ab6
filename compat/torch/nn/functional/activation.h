#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/nn/functional/activation.h> is Ember.
#include <torch/ember_prelude.h>
