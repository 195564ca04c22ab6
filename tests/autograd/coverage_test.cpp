// Coverage of the OpInfo registry: every backward node the library can record
// must show up in the graphs the registry's samples build (forward, and the
// backward-of-backward nodes a create_graph backward records). The expected
// names come from the derivative tables (unary.def, binary.def, expanded here
// with the same X-macros) and from the "XxxBackwardN" literals of every
// record(...) call site under ember/ (read from the source tree). A name that
// no sample reaches means an op with a formula but no OpInfo entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "ember/autograd/copy_slices.h"
#include "ember/autograd/derivatives/binary_grad.h"
#include "opinfo.h"

using namespace ember;
using namespace ember::testing;

namespace {

std::set<std::string> table_names() {
  std::set<std::string> names;
#define EMBER_UNARY_GRAD(name, ...) names.insert(autograd::backward_node_name(#name));
#define EMBER_UNARY_GRAD_JVP(name, ...) names.insert(autograd::backward_node_name(#name));
#define EMBER_UNARY_NONDIFF(name)
#define EMBER_UNARY_NOT_IMPLEMENTED(name, reason)
#define EMBER_UNARY_OP(name, kind, cplx, vec, element, gradient, ...) \
  EMBER_UNARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
#undef EMBER_UNARY_GRAD
#undef EMBER_UNARY_GRAD_JVP
#undef EMBER_UNARY_NONDIFF
#undef EMBER_UNARY_NOT_IMPLEMENTED
  // Both overloads of each public op: Tensor-Tensor and Tensor-Scalar (x.mul(2.0)
  // records MulBackward1), so an op reached only through its Tensor overload is
  // a gap. EMBER_BINARY_KERNEL rows (sigmoid_backward, ...) have no Scalar overload.
  bool has_scalar_overload = true;
#define EMBER_BINARY_GRAD(name, ...)                                  \
  names.insert(autograd::binary_node_name(BinaryOp::name, #name, 0)); \
  if (has_scalar_overload) names.insert(autograd::binary_node_name(BinaryOp::name, #name, 1));
#define EMBER_BINARY_NONDIFF(name)
#define EMBER_BINARY_NOT_IMPLEMENTED(name)
#define EMBER_BINARY_RECORDED_ELSEWHERE(name, where)
#define EMBER_BINARY_OP(name, promotion, dtypes, functor, gradient, ...) \
  has_scalar_overload = true;                                            \
  EMBER_BINARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#define EMBER_BINARY_KERNEL(name, promotion, dtypes, functor, gradient, ...) \
  has_scalar_overload = false;                                               \
  EMBER_BINARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_GRAD
#undef EMBER_BINARY_NONDIFF
#undef EMBER_BINARY_NOT_IMPLEMENTED
#undef EMBER_BINARY_RECORDED_ELSEWHERE
  names.insert("PowBackward2");  // pow(Scalar, Tensor), pow's third overload
  return names;
}

// "FooBackwardN" string literals in the library's sources.
std::map<std::string, std::string> source_names() {
  std::map<std::string, std::string> names;  // name -> first file that records it
  const std::regex lit("\"([A-Z][A-Za-z0-9]*Backward[0-9]+)\"");
  for (const auto& e : std::filesystem::recursive_directory_iterator(EMBER_SOURCE_DIR "/ember")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (std::sregex_iterator it(text.begin(), text.end(), lit), end; it != end; ++it)
      names.emplace((*it)[1].str(), e.path().filename().string());
  }
  return names;
}

void collect(const std::shared_ptr<autograd::Node>& root, std::set<std::string>& seen,
             std::unordered_set<const autograd::Node*>& visited) {
  std::vector<autograd::Node*> stack;
  if (root) stack.push_back(root.get());
  while (!stack.empty()) {
    autograd::Node* n = stack.back();
    stack.pop_back();
    if (!visited.insert(n).second) continue;
    seen.insert(n->name());
    if (auto* cs = dynamic_cast<autograd::CopySlices*>(n)) stack.push_back(cs->fn().get());
    for (const autograd::Edge& e : n->next_edges())
      if (e.function) stack.push_back(e.function.get());
  }
}

// Names reached by the registry: forward graphs and, with create_graph, the graphs of the gradients.
std::set<std::string> registry_names() {
  std::set<std::string> seen;
  for (const OpInfo& op : op_registry()) {
    for (const variable_list& inputs : op.samples()) {
      std::unordered_set<const autograd::Node*> visited;
      try {
        variable_list outs = op.fn(inputs);
        variable_list roots, grads, diff;
        for (const Tensor& o : outs) {
          if (!o.defined() || !o.requires_grad()) continue;
          collect(o.grad_fn(), seen, visited);
          roots.push_back(o);
          grads.push_back(ones_like(o).requires_grad_());
        }
        for (const Tensor& x : inputs)
          if (x.defined() && x.requires_grad()) diff.push_back(x);
        if (roots.empty() || diff.empty() || !op.gradgrad) continue;
        for (const Tensor& g : autograd::grad(roots, diff, grads, true, true, true))
          if (g.defined()) collect(g.grad_fn(), seen, visited);
      } catch (const std::exception&) {
        // gradcheck reports failing samples; coverage only counts what builds.
      }
    }
  }
  return seen;
}

// Recorded nodes that no registry sample can reach, each with the reason.
const std::map<std::string, std::string>& exempt() {
  static const std::map<std::string, std::string> m = {
      {"UnsafeViewBackward0", "reshape of a non-viewable input: covered by the reshape samples only when they copy"},
      {"MaxPoolGatherBackward0", "third order of max pooling: only gradgradcheck's second differentiation reaches it"},
      {"AdaptiveAvgPool3DBackwardBackward0", "second order of adaptive_avg_pool3d, reached by its gradgradcheck"},
      {"StandardGammaBackward0",
       "a sampler: its gradient (d draw / d alpha at a fixed CDF value) is not the finite difference of a draw at a "
       "fixed seed; tests/ops/distributions_test.cpp checks it against PyTorch's and the CDF's derivative"},
  };
  return m;
}

}  // namespace

TEST(OpInfoCoverage, EveryRecordedNodeIsReachedByTheRegistry) {
  std::map<std::string, std::string> expected = source_names();
  for (const std::string& n : table_names()) expected.emplace(n, "unary.def/binary.def");
  const std::set<std::string> seen = registry_names();
  std::vector<std::string> missing;
  for (const auto& [name, file] : expected)
    if (!seen.count(name) && !exempt().count(name)) missing.push_back(name + " (" + file + ")");
  std::string list;
  for (const std::string& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << missing.size() << " backward nodes have no OpInfo sample reaching them:" << list;
}

TEST(OpInfoCoverage, NotImplementedFormulasGiveAReason) {
#define EMBER_UNARY_GRAD(name, ...)
#define EMBER_UNARY_GRAD_JVP(name, ...)
#define EMBER_UNARY_NONDIFF(name)
#define EMBER_UNARY_NOT_IMPLEMENTED(name, reason) EXPECT_GT(std::string(reason).size(), 10u) << #name;
#define EMBER_UNARY_OP(name, kind, cplx, vec, element, gradient, ...) \
  EMBER_UNARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
#undef EMBER_UNARY_GRAD
#undef EMBER_UNARY_GRAD_JVP
#undef EMBER_UNARY_NONDIFF
#undef EMBER_UNARY_NOT_IMPLEMENTED
  // Every record(..., &FormulaNode::not_implemented, ...) site sets not_implemented_reason right after.
  const std::regex site("&FormulaNode::not_implemented[^;]*;\\s*\\n\\s*([^\\n]*)");
  for (const auto& e : std::filesystem::recursive_directory_iterator(EMBER_SOURCE_DIR "/ember")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (std::sregex_iterator it(text.begin(), text.end(), site), end; it != end; ++it)
      EXPECT_NE((*it)[1].str().find("not_implemented_reason"), std::string::npos)
          << e.path().filename() << ": " << (*it)[0].str();
  }
}
