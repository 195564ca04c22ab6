#pragma once
// Note [Raw backward paths]
// Several formulas have a fast path that reads and writes raw memory (fused row
// kernels, oneDNN primitives, byte masks). It is right only when nothing
// differentiates the backward (GradMode off: create_graph needs recorded ops)
// and no operand is batched by vmap: vmap over func::vjp's vjp_fn sends batched
// gradients, whose batch dim a raw kernel would read as data (silently wrong
// conv weight and pooling gradients, before). Otherwise the formula runs its
// composite of differentiable ops, which have batching rules. One predicate, so
// every fast path asks the same question.
#include <initializer_list>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/core/tensor.h"
#include "ember/vmap/batched_tensor.h"

namespace ember::autograd {

inline bool raw_backward_ok(std::initializer_list<const Tensor*> operands) {
  if (GradMode::is_enabled()) return false;
  for (const Tensor* t : operands)
    if (t->defined() && batching::is_batched(*t)) return false;
  return true;
}
inline bool raw_backward_ok(const std::vector<Tensor>& grads) {
  if (GradMode::is_enabled()) return false;
  for (const Tensor& t : grads)
    if (t.defined() && batching::is_batched(t)) return false;
  return true;
}

}  // namespace ember::autograd
