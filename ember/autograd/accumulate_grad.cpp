#include "ember/autograd/accumulate_grad.h"

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/tensor_hook.h"

namespace torch::autograd {

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
  for (auto& hook : m.leaf_hooks) g = run_tensor_hook(hook, g);
  std::lock_guard<std::mutex> lock(m.mu);
  if (!m.grad.defined()) {
    // Steal the buffer when nothing else can see it; otherwise copy, so .grad never
    // aliases a tensor the user holds (a grad_outputs tensor, an expanded one shared
    // by two leaves) and later in-place accumulation or zero_grad() never writes into
    // another tensor's memory. Under create_graph the clone keeps the gradient's graph.
    m.grad = owns_gradient_memory(g) ? g : g.clone();
  } else if (GradMode::is_enabled()) {
    m.grad = m.grad.add(g);  // out of place, so the grad's own graph stays valid (double backward)
  } else {
    m.grad.add_(g);
  }
  return {};
}

}  // namespace torch::autograd
