#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <c10/util/ArrayRef.h> is Ember.
#include <torch/ember_prelude.h>
