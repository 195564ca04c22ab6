#include "ember/autograd/formula_node.h"

#include "ember/autograd/anomaly_mode.h"
#include "ember/autograd/copy_slices.h"

#include <cctype>
#include <string>

namespace ember::autograd {

std::shared_ptr<FormulaNode> record(const char* name, FormulaNode::Formula formula, TensorList inputs,
                                    TensorList outputs) {
  auto node = std::make_shared<FormulaNode>(name, formula);
  edge_list edges;
  edges.reserve(inputs.size());
  for (const Tensor& t : inputs) edges.push_back(t.defined() ? gradient_edge(t) : Edge());
  node->set_next_edges(std::move(edges));
  if (AnomalyMode::is_enabled()) node->creation_trace = capture_stack_trace();
  for (const Tensor& out : outputs) {
    AutogradMeta* m = out.defined() ? get_meta(out) : nullptr;
    bool written_input = false;  // an in-place op: self is both an input and the output
    if (m != nullptr && m->view_base.defined())
      for (const Tensor& in : inputs) written_input = written_input || (in.defined() && in.is_same(out));
    if (written_input)
      rebase_history(out, *m, node, inputs);  // an in-place write through a view
    else if (out.defined())
      set_history(out, node);
    else
      node->add_input_metadata_undefined();
  }
  return node;
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
  EMBER_CHECK(!(self.is_leaf() && self.requires_grad()), op,
              ": a leaf Variable that requires grad is being used in an in-place operation.");
  check_inplace_view(self, op);
}

}  // namespace ember::autograd
