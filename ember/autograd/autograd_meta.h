#pragma once
// Per-tensor autograd state, stored in TensorImpl's autograd slot. For now it
// holds requires_grad and .grad; the engine (graph nodes, hooks, version
// checks) is built on it by the autograd issue.
#include "ember/core/tensor.h"

namespace ember::autograd {

struct AutogradMeta : AutogradMetaBase {
  bool requires_grad = false;
  Tensor grad;
};

// The tensor's meta, created on first use.
AutogradMeta& materialize_meta(const Tensor& t);
// The tensor's meta or null when it never had autograd state.
inline AutogradMeta* get_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}

}  // namespace ember::autograd
