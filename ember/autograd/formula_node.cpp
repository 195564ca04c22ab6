#include "ember/autograd/formula_node.h"

#include "ember/autograd/anomaly_mode.h"

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
  for (const Tensor& out : outputs) {
    if (out.defined())
      set_history(out, node);
    else
      node->add_input_metadata_undefined();
  }
  if (AnomalyMode::is_enabled()) node->creation_trace = capture_stack_trace();
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
}

}  // namespace ember::autograd
