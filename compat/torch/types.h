#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/types.h> is Ember.
#include <ember/torch.h>
