#include "ember/autograd/grad_mode.h"

#include "ember/core/fast_thread_local.h"

namespace ember {

namespace {
EMBER_INITIAL_EXEC_TLS thread_local bool t_grad_enabled = true;  // Note [Fast thread_locals]
}

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }
bool InferenceMode::is_enabled() { return !t_grad_enabled; }

}  // namespace ember
