#pragma once
// LibTorch-compatible spelling: `torch::` (and `at::`, `c10::`) name Ember.
#include "ember/ember.h"

namespace torch = ember;
namespace at = ember;
namespace c10 = ember;
