#pragma once
// Deterministic mode (torch.use_deterministic_algorithms): when on, every op
// either runs an implementation whose result does not depend on thread timing
// or raises ember::Error naming itself (warn_only: prints a warning once per
// op instead). See Note [Deterministic algorithms] in deterministic.cpp for
// the audit of Ember's kernels.
#include <atomic>

#include "ember/core/namespace.h"

namespace torch {

void use_deterministic_algorithms(bool mode, bool warn_only = false);
bool are_deterministic_algorithms_enabled();
bool is_deterministic_algorithms_warn_only_enabled();

// Called by an op that has no deterministic implementation, before it runs:
// raises (or warns once, in warn_only mode) when deterministic mode is on.
void alert_not_deterministic(const char* op);

}  // namespace torch
