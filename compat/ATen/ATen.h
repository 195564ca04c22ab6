#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <ATen/ATen.h> is Ember.
#include <ember/torch.h>
