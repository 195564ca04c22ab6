#pragma once
// Grad mode: whether ops record the backward graph. Thread-local, as in PyTorch.
#include "ember/core/namespace.h"

namespace torch {

struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// Sets grad mode for a scope and restores the previous mode on exit.
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_;
};

struct NoGradGuard : AutoGradMode {
  NoGradGuard() : AutoGradMode(false) {}
};
struct EnableGradGuard : AutoGradMode {
  EnableGradGuard() : AutoGradMode(true) {}
};

// Inference mode: no graph recording in the scope. Ember has no separate
// "inference tensor" kind, so this is a grad-mode guard with LibTorch's name
// plus the thread-local flag InferenceMode::is_enabled() reports.
class InferenceMode {
 public:
  explicit InferenceMode(bool enabled = true) : guard_(!enabled), prev_(is_enabled()) { set_enabled(enabled); }
  ~InferenceMode() { set_enabled(prev_); }
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;
  // True inside an InferenceMode scope only; a plain NoGradGuard does not count (as c10).
  static bool is_enabled();

 private:
  static void set_enabled(bool enabled);
  AutoGradMode guard_;
  bool prev_;
};

namespace autograd {
using ember::GradMode;
}  // namespace autograd

}  // namespace torch
