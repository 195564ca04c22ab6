#pragma once
// AccumulateGrad: the node at every leaf that requires grad; adds the incoming
// gradient into the leaf's .grad (which starts undefined).
#include "ember/autograd/node.h"

namespace torch::autograd {

// Whether a gradient's memory is visible only through this one handle (no other
// tensor or view shares its TensorImpl or storage) and dense: then it may be
// kept as .grad or summed into in place without another tensor seeing it.
bool owns_gradient_memory(const Tensor& g);

class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }
  const Tensor& variable() const { return variable_; }

 private:
  // A handle to the leaf (sharing its TensorImpl). The leaf's meta holds this
  // node only weakly, so there is no cycle.
  Tensor variable_;
};

}  // namespace torch::autograd
