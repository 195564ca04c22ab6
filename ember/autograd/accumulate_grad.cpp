#include "ember/autograd/accumulate_grad.h"

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"

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
    if (!r.defined()) continue;
    // As PyTorch: a hook may replace the gradient, not change what it is a gradient of.
    EMBER_CHECK(r.sizes() == g.sizes(), "backward: a hook has changed the size of value (was ", shape_str(g.sizes()),
                ", got ", shape_str(r.sizes()), ")");
    EMBER_CHECK(r.dtype() == g.dtype(), "backward: a hook has changed the type of value (was ", g.dtype(), ", got ",
                r.dtype(), ")");
    g = r;
  }
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

}  // namespace ember::autograd
