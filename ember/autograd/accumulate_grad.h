#pragma once
// AccumulateGrad: the node at every leaf that requires grad; adds the incoming
// gradient into the leaf's .grad (which starts undefined).
#include "ember/autograd/node.h"

namespace ember::autograd {

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

}  // namespace ember::autograd
