#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/torch.h> is Ember.
#include <ember/torch.h>
