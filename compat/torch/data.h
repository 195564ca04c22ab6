#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/data.h> is Ember.
#include <ember/torch.h>
