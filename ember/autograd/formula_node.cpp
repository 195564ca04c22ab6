#include "ember/autograd/formula_node.h"

#include "ember/autograd/anomaly_mode.h"
#include "ember/autograd/backward.h"
#include "ember/autograd/copy_slices.h"
#include "ember/autograd/derivatives/index_grad.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/pool_allocator.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

#include <cctype>
#include <string>

namespace torch::autograd {

namespace {

// Stands at the end of the edges record() makes valid only for forward mode
// (an input with a tangent that does not require grad), so that the call
// site saves what the formula needs for it and the formula computes its part.
// It never receives a gradient: the edges are invalidated again once the
// tangents are computed. Immutable after construction.
class ForwardMarker : public Node {
 public:
  variable_list apply(variable_list&&) override { return {}; }
  std::string name() const override { return "ForwardMarker"; }
};
const std::shared_ptr<Node>& forward_marker() {
  static const std::shared_ptr<Node> kMarker = std::make_shared<ForwardMarker>();
  return kMarker;
}

// Note [Recording without copies]
// Copying a Tensor into a temporary list costs an atomic increment and, when
// the list dies, an atomic decrement; for bench/SPEC.md W1's one-element ops those
// locked instructions were a measurable share of the whole op. record() reads
// its inputs and outputs in place, and the binary and unary tables pass the
// addresses of the tensors they already hold.
// The tensors record() is given: a TensorList, or addresses of the caller's own tensors.
class TensorRefs {
 public:
  TensorRefs(TensorList list) : list_(list.data()), size_(list.size()) {}  // NOLINT
  // Valid while the call that built the list runs, as ArrayRef's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  TensorRefs(std::initializer_list<const Tensor*> ptrs) : ptrs_(ptrs.begin()), size_(ptrs.size()) {}
#pragma GCC diagnostic pop
  size_t size() const { return size_; }
  const Tensor& operator[](size_t i) const { return ptrs_ ? *ptrs_[i] : list_[i]; }

 private:
  const Tensor* list_ = nullptr;
  const Tensor* const* ptrs_ = nullptr;
  size_t size_;
};

Recorded record_refs(const char* name, FormulaNode::Formula formula, TensorRefs inputs, TensorRefs outputs) {
  // Pooled: one node per recorded op (Note [Small-op fast path] in ops/elementwise/binary.cpp).
  auto node = std::allocate_shared<FormulaNode>(::ember::detail::PoolAllocator<FormulaNode>(), name, formula);
  bool backward = false;
  if (GradMode::is_enabled())
    for (size_t i = 0; i < inputs.size(); ++i) backward = backward || tensor_requires_grad(inputs[i]);
  // Edges go straight into the node (inline storage for up to two inputs).
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    node->add_next_edge(backward && t.defined() ? gradient_edge(t) : Edge());
  }
  if (forward_ad::is_active()) {
    auto pending = std::make_unique<FormulaNode::PendingForward>();
    bool any = false;
    bool tangent_requires_grad = false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Tensor t = inputs[i].defined() ? forward_ad::fw_grad(inputs[i]) : Tensor();
      if (t.defined()) {
        any = true;
        tangent_requires_grad = tangent_requires_grad || t.requires_grad();
        if (!node->next_edge(i).is_valid()) {
          node->set_next_edge(i, Edge(forward_marker(), 0));
          pending->marker_edges.push_back(i);
        }
      }
      pending->tangents.push_back(std::move(t));
    }
    if (any) {
      for (size_t k = 0; k < outputs.size(); ++k) {
        pending->outputs.push_back(outputs[k]);
        bool written = false;
        for (size_t i = 0; i < inputs.size() && outputs[k].defined(); ++i)
          written = written || (inputs[i].defined() && inputs[i].is_same(outputs[k]));
        pending->written.push_back(written);
      }
      pending->create_graph = GradMode::is_enabled() && (backward || tangent_requires_grad);
      node->pending_forward = std::move(pending);
    }
  }
  if (!backward) return Recorded(std::move(node));
  if (AnomalyMode::is_enabled()) node->creation_trace = capture_stack_trace();
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Tensor& out = outputs[k];
    AutogradMeta* m = out.defined() ? get_meta(out) : nullptr;
    bool written_input = false;  // an in-place op: self is both an input and the output
    if (m != nullptr && m->view_base.defined())
      for (size_t i = 0; i < inputs.size(); ++i)
        written_input = written_input || (inputs[i].defined() && inputs[i].is_same(out));
    if (written_input) {
      std::vector<Tensor> fn_inputs;
      for (size_t i = 0; i < inputs.size(); ++i) fn_inputs.push_back(inputs[i]);
      rebase_history(out, *m, node, fn_inputs);  // an in-place write through a view
    } else if (out.defined() && outputs.size() == 1) {
      // Note [Recorded borrows the node]: the output now owns the node.
      FormulaNode* raw = node.get();
      set_history(out, std::shared_ptr<Node>(std::move(node)));
      return Recorded(raw);
    } else if (out.defined()) {
      set_history(out, node);
    } else {
      node->add_input_metadata_undefined();
    }
  }
  return Recorded(std::move(node));
}

}  // namespace

Recorded record(const char* name, FormulaNode::Formula formula, TensorList inputs, TensorList outputs) {
  return record_refs(name, formula, inputs, outputs);
}
Recorded record(const char* name, FormulaNode::Formula formula, std::initializer_list<const Tensor*> inputs,
                const Tensor& output) {
  return record_refs(name, formula, inputs, TensorList(output));
}

namespace {

// Note [JVP from the VJP]
// A node's VJP formula computes v_i = J_i^H g for each input i, linearly in
// the output gradients g. Its JVP, w = sum_i J_i t_i, is the gradient with
// respect to g of the real scalar  u(g) = sum_i Re <v_i(g), t_i>  (the VJP is
// the adjoint of the JVP under the real inner product Re sum(a conj(b)), which
// is what the conjugate Wirtinger convention makes it). So: run the formula on
// output gradients that require grad, form u, and differentiate it once more —
// the double-backward machinery every formula already supports (gradgradcheck
// covers each). It costs a few times the formula; ops on hot paths carry an
// explicit JVP in their table instead.
variable_list jvp_from_vjp(FormulaNode& node, const FormulaNode::PendingForward& pf) {
  const size_t n_out = pf.outputs.size();
  variable_list grads(n_out);
  variable_list wrt;
  std::vector<size_t> wrt_index;
  for (size_t k = 0; k < n_out; ++k) {
    const Tensor& out = pf.outputs[k];
    if (!out.defined() || !(out.is_floating_point() || out.is_complex())) continue;
    // Any value works (the formula is linear in it); ones keeps formulas that
    // work in log space (log|grad|, logcumsumexp) away from their kink at 0.
    grads[k] = ones_like(out).requires_grad_();
    wrt.push_back(grads[k]);
    wrt_index.push_back(k);
  }
  variable_list result(n_out);
  if (wrt.empty()) return result;
  EnableGradGuard grad_on;
  variable_list vjps = node.apply(variable_list(grads));
  Tensor u;
  for (size_t i = 0; i < pf.tangents.size() && i < vjps.size(); ++i) {
    const Tensor& t = pf.tangents[i];
    if (!t.defined() || !vjps[i].defined()) continue;
    Tensor term = sum_to_size(vjps[i], t.sizes()) * t.conj();
    if (term.is_complex()) term = real(term);
    term = term.sum();
    u = u.defined() ? u + term : term;
  }
  if (!u.defined() || !u.requires_grad()) return result;
  variable_list w = grad({u}, wrt, {}, /*retain_graph=*/false, pf.create_graph, /*allow_unused=*/true);
  // Contiguous: a gradient may come back expanded, and a later in-place op
  // must be able to write into the tangent.
  for (size_t j = 0; j < wrt_index.size(); ++j)
    if (w[j].defined()) result[wrt_index[j]] = w[j].contiguous();
  return result;
}

}  // namespace

void Recorded::finish() {
  FormulaNode& node = *node_;
  std::unique_ptr<FormulaNode::PendingForward> pf = std::move(node.pending_forward);
  variable_list tangents;
  {
    forward_ad::SuspendGuard suspend;  // the formulas' own ops carry no tangents
    if (node.jvp != nullptr) {
      AutoGradMode mode(pf->create_graph);
      tangents = node.jvp(node, pf->tangents, pf->outputs);
    } else {
      tangents = jvp_from_vjp(node, *pf);
    }
  }
  for (size_t i : pf->marker_edges) node.set_next_edge(i, Edge());
  for (size_t k = 0; k < pf->outputs.size() && k < tangents.size(); ++k) {
    const Tensor& out = pf->outputs[k];
    Tensor t = tangents[k];
    if (!out.defined() || !(out.is_floating_point() || out.is_complex())) continue;
    const bool written = pf->written[k];
    if (!t.defined()) {
      // A zero tangent. Only an input written in place (fill_, zero_) holds a
      // tangent that must now become zero; fresh outputs just carry none.
      if (written && forward_ad::fw_grad(out).defined()) forward_ad::set_fw_grad(out, zeros_like(out), 0, true);
      continue;
    }
    if (t.is_complex() && !out.is_complex()) t = real(t);
    if (!t.sizes().equals(out.sizes())) t = t.expand(out.sizes()).contiguous();
    // An input written in place has its tangent updated in place too (through
    // its base's, for a view), so tangents of its views see the change. A
    // fresh output just takes its tangent: a view op's formula already makes
    // it a view of the input's, and writing it into the base's would give
    // the base (possibly a tensor the caller never made dual) a tangent.
    forward_ad::set_fw_grad(out, t, 0, /*is_inplace_op=*/written);
    node.set_saved_output_tangent(out, forward_ad::fw_grad(out));
  }
}

variable_list FormulaNode::not_implemented(const FormulaNode& n, const variable_list&) {
  EMBER_ERROR(n.name(), ": the derivative is not implemented (", n.not_implemented_reason, ")");
}

std::string backward_node_name(const char* op, int overload) {
  std::string s;
  bool up = true;
  for (const char* p = op; *p; ++p) {
    if (*p == '_') {
      up = true;
      continue;
    }
    s += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(*p))) : *p;
    up = std::isdigit(static_cast<unsigned char>(*p)) != 0;
  }
  return s + "Backward" + std::to_string(overload);
}

void check_inplace(const Tensor& self, const char* op) {
  if (!GradMode::is_enabled()) return;
  check_inplace_view(self, op);  // first: a no-grad view reports requires_grad and is a leaf too
  EMBER_CHECK(!(self.is_leaf() && self.requires_grad()), op,
              ": a leaf Variable that requires grad is being used in an in-place operation.");
}

}  // namespace torch::autograd
