#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/optim.h> is Ember.
#include <ember/torch.h>
