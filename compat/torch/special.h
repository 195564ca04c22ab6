#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/special.h> is Ember.
#include <torch/ember_prelude.h>
