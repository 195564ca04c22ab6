#pragma once
// SavedVariable: a tensor a backward formula needs, with the version it had
// when saved. Unpacking after an in-place change raises.
// Note [Saved outputs]
// Saving a node's own output strongly would form a cycle (output -> grad_fn
// -> saved output). Outputs are saved as a plain alias of the data plus a weak
// reference to the node; unpack() rebuilds a tensor that is again that node's
// output, so double backward differentiates through it.
#include <memory>

#include "ember/autograd/node.h"

namespace ember::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output);
  // `saved_for` names the node in error messages.
  Tensor unpack(const Node* saved_for = nullptr) const;
  void reset() {
    data_.reset();
    was_released_ = true;
  }
  bool defined() const { return data_.defined() || was_released_; }
  // Forward mode: gives a saved output the tangent its op just computed, so a
  // formula differentiated in forward mode (forward over reverse) sees it.
  void set_output_tangent(const Tensor& output, const Tensor& tangent);

 private:
  Tensor data_;  // input: the tensor itself; output: a grad-less alias of it
  bool is_output_ = false;
  bool was_released_ = false;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  std::weak_ptr<Node> grad_fn_;
};

}  // namespace ember::autograd
