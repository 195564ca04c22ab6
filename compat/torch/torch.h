#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/torch.h> is Ember.
#include <torch/ember_prelude.h>
#include <torch/data.h>
#include <torch/types.h>
