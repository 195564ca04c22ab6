#pragma once
// FormulaNode and record(): how every op puts its backward into the graph.
// Note [Recording an op]
//   Tensor out = ...forward...;
//   if (autograd::needs_grad(a, b)) {
//     auto node = autograd::record("MulBackward0", &mul_backward, {a, b}, {out});
//     node->save(a); node->save(b);          // what the formula reads
//   }
// The formula is a plain function written with public differentiable ops, so
// create_graph=true differentiates it again:
//   variable_list mul_backward(const FormulaNode& n, const variable_list& g) {
//     return {n.needs_input_grad(0) ? g[0] * n.saved(1).conj() : Tensor(),
//             n.needs_input_grad(1) ? g[0] * n.saved(0).conj() : Tensor()};
//   }
// It returns one gradient per forward input (undefined = not needed / zero).
// The engine reduces broadcast gradients to each input's shape and casts them
// to its dtype (Note [Engine]), so formulas return the broadcast shape freely.
#include <vector>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/saved_variable.h"

namespace ember::autograd {

class FormulaNode : public Node {
 public:
  using Formula = variable_list (*)(const FormulaNode& node, const variable_list& grads);
  FormulaNode(const char* name, Formula formula) : name_(name), formula_(formula) {}

  variable_list apply(variable_list&& grads) override { return formula_(*this, grads); }
  std::string name() const override { return name_; }
  void release_variables() override {
    for (SavedVariable& s : saved_) s.reset();
  }

  // Saves a tensor for the formula; `is_output` for the op's own results (Note [Saved outputs]).
  void save(const Tensor& t, bool is_output = false) { saved_.emplace_back(t, is_output); }
  Tensor saved(size_t i) const { return saved_.at(i).unpack(this); }
  bool needs_input_grad(size_t i) const { return should_compute_output(i); }

  // Set for ops whose derivative is not implemented: backward raises with it.
  const char* not_implemented_reason = nullptr;
  static variable_list not_implemented(const FormulaNode& n, const variable_list&);

  // Non-tensor state a formula needs (alpha, dims, sizes of inputs, ...).
  std::vector<Scalar> scalars;
  std::vector<DimVector> shapes;
  DimVector ints;

 private:
  const char* name_;
  Formula formula_;
  std::vector<SavedVariable> saved_;
};

// Whether `word` occurs as an identifier in a formula's text: the derivative
// tables save only the tensors their formulas name, so an in-place change to
// an unused input never trips the version check.
constexpr bool formula_mentions(const char* text, const char* word) {
  auto ident = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  for (const char* p = text; *p; ++p) {
    const char* a = p;
    const char* b = word;
    while (*b && *a == *b) {
      ++a;
      ++b;
    }
    if (*b == 0 && (p == text || !ident(p[-1])) && !ident(*a)) return true;
  }
  return false;
}

// PyTorch's grad_fn name for an op: CamelCase, capitalising after '_' and
// after digits, plus the overload suffix (log1p -> "Log1PBackward0").
std::string backward_node_name(const char* op, int overload = 0);

// Whether an op over these inputs records a node.
inline bool tensor_requires_grad(const Tensor& t) { return t.defined() && t.requires_grad(); }
template <typename... Rest>
bool needs_grad(const Tensor& t, const Rest&... rest) {
  if (!GradMode::is_enabled()) return false;
  return tensor_requires_grad(t) || (tensor_requires_grad(rest) || ...);
}
inline bool any_needs_grad(TensorList ts) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : ts)
    if (tensor_requires_grad(t)) return true;
  return false;
}

// Creates the node, points its edges at `inputs` and makes it the grad_fn of
// `outputs` (in order). Undefined inputs get invalid edges.
std::shared_ptr<FormulaNode> record(const char* name, FormulaNode::Formula formula, TensorList inputs,
                                    TensorList outputs);
// For in-place ops: `self` was modified and becomes the node's output.
// Raises for a leaf that requires grad (PyTorch's rule).
void check_inplace(const Tensor& self, const char* op);

}  // namespace ember::autograd
