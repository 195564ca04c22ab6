#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <ATen/ATen.h> is Ember.
#include <torch/ember_prelude.h>
