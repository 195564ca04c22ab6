#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/ordered_dict.h> is Ember.
#include <torch/ember_prelude.h>
