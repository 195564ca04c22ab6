#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/csrc/autograd/variable.h> is Ember.
#include <torch/ember_prelude.h>
