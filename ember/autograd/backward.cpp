#include "ember/autograd/backward.h"

#include "ember/autograd/accumulate_grad.h"
#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/engine.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/factory/factory.h"

namespace torch::autograd {

namespace {
// Root edges and their starting gradients (implicit 1 for one-element outputs).
std::pair<edge_list, variable_list> make_roots(const variable_list& tensors, const variable_list& grad_tensors,
                                               const char* op) {
  EMBER_CHECK(grad_tensors.empty() || grad_tensors.size() == tensors.size(), op, ": got ", tensors.size(),
              " tensors and ", grad_tensors.size(), " gradients");
  edge_list roots;
  variable_list grads;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.defined(), op, ": tensor ", i, " is undefined");
    Edge e = gradient_edge(t);
    EMBER_CHECK(e.is_valid(), op, ": element ", i, " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grad_tensors.empty() ? Tensor() : grad_tensors[i];
    if (!g.defined()) {
      EMBER_CHECK(t.numel() == 1, op, ": grad can be implicitly created only for scalar outputs (got shape ",
                  shape_str(t.sizes()), ")");
      g = ones_like(t);
    } else {
      EMBER_CHECK(g.sizes().equals(t.sizes()), op, ": Mismatch in shape: grad_output[", i, "] has a shape of ",
                  shape_str(g.sizes()), " and output[", i, "] has a shape of ", shape_str(t.sizes()));
      // A complex gradient for a real output (or the reverse) has no meaning; other
      // dtype differences are cast, as in PyTorch.
      EMBER_CHECK(g.is_complex() == t.is_complex(), op,
                  ": For complex Tensors, both grad_output and output are required to have the same dtype. "
                  "Mismatch in dtype: grad_output[",
                  i, "] has a dtype of ", g.dtype(), " and output[", i, "] has a dtype of ", t.dtype());
    }
    roots.push_back(std::move(e));
    grads.push_back(std::move(g));
  }
  return {std::move(roots), std::move(grads)};
}

edge_list input_edges(const variable_list& inputs, const char* op) {
  edge_list out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EMBER_CHECK(inputs[i].requires_grad(), op, ": One of the differentiated Tensors (input ", i,
                ") does not require grad");
    out.push_back(gradient_edge(inputs[i]));
  }
  return out;
}
}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors, std::optional<bool> retain_graph,
              bool create_graph, const variable_list& inputs) {
  auto [roots, grads] = make_roots(tensors, grad_tensors, "backward");
  const bool keep = retain_graph.value_or(create_graph);
  if (inputs.empty()) {
    execute(roots, grads, keep, create_graph);
    return;
  }
  // backward(inputs=...): accumulate only into the given tensors.
  variable_list got = execute(roots, grads, keep, create_graph, input_edges(inputs, "backward"));
  AutoGradMode mode(create_graph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!got[i].defined()) continue;
    if (inputs[i].is_leaf()) {
      grad_accumulator(inputs[i])->apply({got[i]});
    } else {
      // A non-leaf's .grad() is its retained gradient.
      auto& m = materialize_meta(inputs[i]);
      if (!m.retained_grad) m.retained_grad = std::make_shared<Tensor>();
      Tensor& g = *m.retained_grad;
      g = g.defined() ? g.add(got[i]) : got[i];
    }
  }
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                   std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  auto [roots, grads] = make_roots(outputs, grad_outputs, "grad");
  variable_list result =
      execute(roots, grads, retain_graph.value_or(create_graph), create_graph, input_edges(inputs, "grad"));
  for (size_t i = 0; i < result.size(); ++i) {
    EMBER_CHECK(allow_unused || result[i].defined(), "grad: One of the differentiated Tensors (input ", i,
                ") appears to not have been used in the graph. Set allow_unused=true if this is the desired behavior.");
  }
  return result;
}

}  // namespace torch::autograd

namespace torch {

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph,
                      std::optional<TensorList> inputs) const {
  autograd::backward({*this}, {gradient}, retain_graph, create_graph,
                     inputs ? inputs->vec() : autograd::variable_list{});
}

const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const {
  static const std::shared_ptr<autograd::Node> kNone;
  auto* m = autograd::get_meta(*this);
  if (m == nullptr) return kNone;
  autograd::current_grad_fn(*this, *m);  // regenerates a stale view's grad_fn
  return m->grad_fn;
}

uint32_t Tensor::output_nr() const {
  auto* m = autograd::get_meta(*this);
  return m ? m->output_nr : 0;
}

void Tensor::retain_grad() const {
  EMBER_CHECK(requires_grad(), "retain_grad: can't retain_grad on Tensor that has requires_grad=False");
  auto& m = autograd::materialize_meta(*this);
  if (!autograd::current_grad_fn(*this, m) || m.retained_grad) return;  // leaves always keep .grad
  m.retained_grad = std::make_shared<Tensor>();
  autograd::install_retain_grad_hook(m);
}

bool Tensor::retains_grad() const {
  auto* m = autograd::get_meta(*this);
  return m != nullptr && m->retained_grad != nullptr;
}

unsigned Tensor::register_hook_impl(std::function<Tensor(const Tensor&)> hook) const {
  EMBER_CHECK(requires_grad(), "register_hook: cannot register a hook on a tensor that doesn't require gradient");
  auto& m = autograd::materialize_meta(*this);
  if (autograd::current_grad_fn(*this, m)) {
    m.grad_fn->add_tensor_pre_hook(m.output_nr, std::move(hook));
    return 0;
  }
  m.leaf_hooks.push_back(std::move(hook));
  return static_cast<unsigned>(m.leaf_hooks.size() - 1);
}

}  // namespace torch
