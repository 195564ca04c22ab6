#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/nn/modules/conv.h> is Ember.
#include <torch/ember_prelude.h>
