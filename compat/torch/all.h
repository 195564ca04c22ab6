#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/all.h> is Ember.
#include <ember/torch.h>
