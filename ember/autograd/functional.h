#pragma once
// autograd::functional: PyTorch's torch.autograd.functional in C++ — vjp, jvp,
// jacobian, hessian, vhp and hvp of a function of a list of tensors.
// Note [Functional API]
// Every entry point detaches the inputs into fresh leaves (or, with
// create_graph, differentiable aliases that keep the caller's graph), runs the
// function with grad mode on and differentiates with autograd::grad. Gradients
// that do not reach an input are zeros (strict=false) or an error naming the
// output and input (strict=true). Without create_graph the results are
// detached. jvp and hvp use the double-vjp trick, as PyTorch's functional API
// does: the vjp with a zero grad_output that requires grad is linear in that
// grad_output, so differentiating it against v gives J v.
// jacobian's `vectorize` is accepted for PyTorch compatibility but computes the
// same rows one backward pass at a time: PyTorch batches them with vmap, which
// Ember does not have. strategy "forward-mode" builds the Jacobian column by
// column with forward-mode AD (dual tensors, forward_ad.h).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ember/autograd/node.h"

namespace torch::autograd::functional {

using Function = std::function<variable_list(const variable_list&)>;
using ScalarFunction = std::function<Tensor(const variable_list&)>;

struct Result {
  variable_list outputs;  // the function's outputs (detached unless create_graph)
  variable_list values;   // the vjp / jvp / vhp / hvp, one per input (jvp: per output)
};

// v^T J: `v` has one tensor per output (may be empty when every output has one element).
Result vjp(const Function& func, const variable_list& inputs, const variable_list& v = {}, bool create_graph = false,
           bool strict = false);
// J v: `v` has one tensor per input (may be empty when every input has one element).
Result jvp(const Function& func, const variable_list& inputs, const variable_list& v = {}, bool create_graph = false,
           bool strict = false);
// jac[i][j] = d outputs[i] / d inputs[j], shaped outputs[i].sizes() + inputs[j].sizes().
// strategy: "reverse-mode" (a row per output element) or "forward-mode" (a column per input element).
std::vector<variable_list> jacobian(const Function& func, const variable_list& inputs, bool create_graph = false,
                                    bool strict = false, bool vectorize = false,
                                    const std::string& strategy = "reverse-mode");
Tensor jacobian(const std::function<Tensor(const Tensor&)>& func, const Tensor& input, bool create_graph = false,
                bool strict = false, bool vectorize = false, const std::string& strategy = "reverse-mode");
// hess[i][j] = d^2 f / d inputs[i] d inputs[j], shaped inputs[i].sizes() + inputs[j].sizes();
// func must return a single-element tensor.
std::vector<variable_list> hessian(const ScalarFunction& func, const variable_list& inputs, bool create_graph = false,
                                   bool strict = false, bool vectorize = false,
                                   const std::string& outer_jacobian_strategy = "reverse-mode");
Tensor hessian(const std::function<Tensor(const Tensor&)>& func, const Tensor& input, bool create_graph = false,
               bool strict = false, bool vectorize = false,
               const std::string& outer_jacobian_strategy = "reverse-mode");
// v^T H and H v for a single-element func; outputs holds func's value.
Result vhp(const ScalarFunction& func, const variable_list& inputs, const variable_list& v = {},
           bool create_graph = false, bool strict = false);
Result hvp(const ScalarFunction& func, const variable_list& inputs, const variable_list& v = {},
           bool create_graph = false, bool strict = false);

}  // namespace torch::autograd::functional
