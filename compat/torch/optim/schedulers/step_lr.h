#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/optim/schedulers/step_lr.h> is Ember.
#include <torch/ember_prelude.h>
