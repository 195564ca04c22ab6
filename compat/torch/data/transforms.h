#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/data/transforms.h> is Ember.
#include <torch/ember_prelude.h>
