#pragma once
// SavedVariable: a tensor a backward formula needs, with the version it had
// when saved. Unpacking after an in-place change raises.
// Note [Saved outputs]
// Saving a node's own output strongly would form a cycle (output -> grad_fn
// -> saved output). Outputs are saved as a plain alias of the data plus a weak
// reference to the node; unpack() rebuilds a tensor that is again that node's
// output, so double backward differentiates through it. Most outputs are saved
// by the node they are an output of (a formula reading its result): that node
// is the one unpacking them, so no weak reference is taken — as PyTorch's
// SavedVariable does; a weak_ptr costs two atomic operations per recorded op.
#include <memory>

#include "ember/autograd/node.h"

namespace torch::autograd {

class SavedVariable {
 public:
  SavedVariable() = default;
  // `saver`: the node that keeps this variable, when known. An output of that
  // very node then keeps no reference to it: unpack() is handed the node.
  SavedVariable(const Tensor& t, bool is_output, const Node* saver = nullptr);
  // `saved_for` names the node in error messages (and is the node that saved it).
  Tensor unpack(const Node* saved_for = nullptr) const;
  // The same without a new reference where none is needed (an input, or any
  // tensor while nothing records): the saved tensor itself, else the rebuilt
  // one stored in `rebuilt`. Formulas on the small-op path read through this.
  const Tensor& unpack_ref(const Node* saved_for, Tensor& rebuilt) const;
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
  bool output_of_saver_ = false;  // the saved output's grad_fn is the node unpack() is given
  uint32_t output_nr_ = 0;
  std::weak_ptr<Node> grad_fn_;  // the saved output's grad_fn otherwise
};

}  // namespace torch::autograd
