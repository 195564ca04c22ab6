#include "ember/autograd/grad_mode.h"

#include "ember/core/fast_thread_local.h"

namespace torch {

namespace {
EMBER_INITIAL_EXEC_TLS thread_local bool t_grad_enabled = true;  // Note [Fast thread_locals]
thread_local bool t_inference_enabled = false;
}  // namespace

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }
bool InferenceMode::is_enabled() { return t_inference_enabled; }
void InferenceMode::set_enabled(bool enabled) { t_inference_enabled = enabled; }

}  // namespace torch
