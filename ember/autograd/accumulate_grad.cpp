#include "ember/autograd/accumulate_grad.h"

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"

namespace ember::autograd {

// Leaves run as soon as their gradient is complete: highest priority.
AccumulateGrad::AccumulateGrad(Tensor variable) : Node(UINT64_MAX), variable_(std::move(variable)) {
  add_input_metadata(variable_);
}

bool owns_gradient_memory(const Tensor& g) {
  return g.use_count() == 1 && g.impl()->storage().use_count() == 1 && g.is_contiguous();
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  if (!g.defined()) return {};
  AutogradMeta& m = materialize_meta(variable_);
  for (auto& hook : m.leaf_hooks) {
    Tensor r = hook(g);
    if (r.defined()) g = r;
  }
  std::lock_guard<std::mutex> lock(m.mu);
  if (!m.grad.defined()) {
    if (GradMode::is_enabled()) {
      m.grad = g;  // create_graph: keep the gradient's own graph
    } else {
      // Steal the buffer when nothing else can see it; otherwise copy, so later
      // in-place accumulation never writes into another tensor's memory.
      m.grad = owns_gradient_memory(g) ? g : g.clone();
    }
  } else if (GradMode::is_enabled()) {
    m.grad = m.grad.add(g);  // out of place, so the grad's own graph stays valid (double backward)
  } else {
    m.grad.add_(g);
  }
  return {};
}

}  // namespace ember::autograd
