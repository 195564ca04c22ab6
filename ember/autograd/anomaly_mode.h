#pragma once
// Anomaly mode: nodes remember where they were created, and the engine names
// the node whose backward produced NaN.
#include <string>
#include <vector>

#include "ember/autograd/node.h"

namespace torch::autograd {

struct AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

class DetectAnomalyGuard {
 public:
  DetectAnomalyGuard() : prev_(AnomalyMode::is_enabled()) { AnomalyMode::set_enabled(true); }
  ~DetectAnomalyGuard() { AnomalyMode::set_enabled(prev_); }
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool prev_;
};

// The current call stack, for Node::creation_trace.
std::string capture_stack_trace();
// Runs the node; raises naming it when an output holds NaN.
variable_list run_with_anomaly_check(Node& fn, variable_list&& grads);

}  // namespace torch::autograd
