#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/autograd.h> is Ember.
#include <ember/torch.h>
