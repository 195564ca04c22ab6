#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <c10/util/Exception.h> is Ember's
// Error, check macros and warnings (ember/core/error.h, ember/core/warning.h).
#include <c10/util/StringUtil.h>
#include <torch/ember_prelude.h>
