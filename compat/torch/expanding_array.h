#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/expanding_array.h> is Ember.
#include <torch/ember_prelude.h>
