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
//
// The same call site serves forward-mode AD (Note [Forward-mode AD] in
// forward_ad.h): needs_grad() is also true when an input carries a tangent,
// and record() returns a `Recorded` handle; when the handle goes out of scope
// — after the call site has saved what its formulas read — the node computes
// its outputs' tangents, with `node->jvp` when the op's table gives one and
// otherwise from the VJP formula (Note [JVP from the VJP] in formula_node.cpp).
#include <exception>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/engine.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/saved_variable.h"

namespace torch::autograd {

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
  void save(const Tensor& t, bool is_output = false) { saved_.emplace_back(t, is_output, this); }
  // Keeps slot numbering when a row's formulas do not read this tensor.
  void save_none() { saved_.emplace_back(); }
  Tensor saved(size_t i) const { return saved_.at(i).unpack(this); }
  // saved(i) without taking a new reference when none is needed (SavedVariable::unpack_ref).
  const Tensor& saved_ref(size_t i, Tensor& rebuilt) const { return saved_.at(i).unpack_ref(this, rebuilt); }
  bool needs_input_grad(size_t i) const { return should_compute_output(i); }
  // Forward mode: saved copies of `output` get its tangent too (SavedVariable).
  void set_saved_output_tangent(const Tensor& output, const Tensor& tangent) {
    for (SavedVariable& s : saved_) s.set_output_tangent(output, tangent);
  }

  // Set for ops whose derivative is not implemented: backward raises with it.
  const char* not_implemented_reason = nullptr;
  static variable_list not_implemented(const FormulaNode& n, const variable_list&);

  // Non-tensor state a formula needs (alpha, dims, sizes of inputs, ...).
  std::vector<Scalar> scalars;
  std::vector<DimVector> shapes;
  DimVector ints;

  // Forward mode: the outputs' tangents from the inputs' tangents (one per
  // input, undefined = zero), in the formula's terms (saved tensors, scalars)
  // plus the op's outputs. Null: derived from the VJP formula.
  using Jvp = variable_list (*)(const FormulaNode& node, const variable_list& tangents, const variable_list& outputs);
  Jvp jvp = nullptr;

  // Set by record() while the outputs' tangents are still to be computed.
  struct PendingForward {
    variable_list tangents;            // the inputs' tangents
    variable_list outputs;             // the op's outputs, to receive theirs
    std::vector<bool> written;         // per output: it is also an input (an in-place op)
    std::vector<size_t> marker_edges;  // edges made valid only so saves and formulas cover tangent inputs
    bool create_graph = false;         // tangents must be differentiable (reverse over forward)
  };
  std::unique_ptr<PendingForward> pending_forward;

 private:
  const char* name_;
  Formula formula_;
  InlineVector<SavedVariable, 3> saved_;  // binary ops save self, other, result
};

// A formula's result, its gradients moved in: `return {a, b};` would copy each
// out of the braced list (an atomic increment and decrement per gradient) into
// a newly allocated vector; the unary and binary tables, on every small op's
// backward, use this instead, in a list the engine recycles.
template <typename... Grads>
variable_list gradient_list(Grads&&... grads) {
  variable_list r = recycled_gradient_list();
  r.reserve(sizeof...(grads));
  (r.emplace_back(std::forward<Grads>(grads)), ...);
  return r;
}

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

// Whether an op over these inputs records a node: grad mode is on and an
// input requires grad, or a dual level is open and an input has a tangent.
inline bool tensor_requires_grad(const Tensor& t) { return t.defined() && t.requires_grad(); }
template <typename... Rest>
bool needs_grad(const Tensor& t, const Rest&... rest) {
  if (GradMode::is_enabled() && (tensor_requires_grad(t) || (tensor_requires_grad(rest) || ...))) return true;
  return forward_ad::is_active() && (forward_ad::has_tangent(t) || (forward_ad::has_tangent(rest) || ...));
}
inline bool any_needs_grad(TensorList ts) {
  if (GradMode::is_enabled())
    for (const Tensor& t : ts)
      if (tensor_requires_grad(t)) return true;
  if (forward_ad::is_active())
    for (const Tensor& t : ts)
      if (forward_ad::has_tangent(t)) return true;
  return false;
}

// What record() returns: the node, used like a pointer while the call site
// saves tensors and sets scalars; at the end of the handle's scope the node
// computes its outputs' tangents if an input had one (a no-op otherwise).
class Recorded {
 public:
  explicit Recorded(std::shared_ptr<FormulaNode> node) : owned_(std::move(node)), node_(owned_.get()) { init(); }
  // Note [Recorded borrows the node]
  // When the op's single output holds the node as its grad_fn, Recorded only
  // points at it: handing the output the creator's reference instead of a copy
  // saves an atomic increment and decrement per recorded op. The output is the
  // op's own local and outlives the Recorded (declared after it) in every op.
  explicit Recorded(FormulaNode* borrowed) : node_(borrowed) { init(); }
  Recorded(Recorded&& o) noexcept
      : owned_(std::move(o.owned_)), node_(std::exchange(o.node_, nullptr)), uncaught_(o.uncaught_) {}
  Recorded& operator=(Recorded&&) = delete;
  // May throw (a JVP formula failing); skipped while an exception unwinds.
  ~Recorded() noexcept(false) {
    if (node_ && node_->pending_forward && std::uncaught_exceptions() == uncaught_) finish();
  }
  FormulaNode* operator->() const { return node_; }
  FormulaNode& operator*() const { return *node_; }
  std::shared_ptr<FormulaNode> node() const {
    return owned_ ? owned_ : std::static_pointer_cast<FormulaNode>(node_->shared_from_this());
  }

 private:
  // uncaught_ matters only when there are tangents to compute (it costs a call per op).
  void init() { uncaught_ = node_->pending_forward ? std::uncaught_exceptions() : 0; }
  void finish();
  std::shared_ptr<FormulaNode> owned_;  // null when borrowed
  FormulaNode* node_;
  int uncaught_ = 0;
};

// Creates the node. With grad mode on and an input that requires grad it
// points its edges at `inputs` and becomes the grad_fn of `outputs` (in
// order; undefined inputs get invalid edges); with tangents on inputs it
// arranges the outputs' tangents (see Recorded).
Recorded record(const char* name, FormulaNode::Formula formula, TensorList inputs, TensorList outputs);
// The same for an op with one output whose inputs the caller holds: given by
// address, they are not copied into a temporary list (Note [Recording without
// copies] in formula_node.cpp): record(name, f, {&a, &b}, out).
Recorded record(const char* name, FormulaNode::Formula formula, std::initializer_list<const Tensor*> inputs,
                const Tensor& output);
// For in-place ops: `self` was modified and becomes the node's output.
// Raises for a leaf that requires grad (PyTorch's rule).
void check_inplace(const Tensor& self, const char* op);

}  // namespace torch::autograd
