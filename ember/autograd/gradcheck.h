#pragma once
// gradcheck / gradgradcheck: compare the Jacobian autograd computes with
// central finite differences (PyTorch's defaults: eps 1e-6, atol 1e-5,
// rtol 1e-3). Inputs should be float64; they are perturbed one element at a
// time. Complex inputs are checked through their real and imaginary parts
// under the conjugate Wirtinger convention (see gradcheck.cpp).
#include <functional>
#include <string>

#include "ember/autograd/node.h"

namespace torch::autograd {

struct GradcheckOptions {
  double eps = 1e-6;
  double atol = 1e-5;
  double rtol = 1e-3;
};

using DifferentiableFn = std::function<variable_list(const variable_list&)>;

// Returns an empty string when the gradients agree, otherwise a description
// of the first mismatch (which output/input element, analytical vs numerical).
std::string gradcheck(const DifferentiableFn& fn, const variable_list& inputs, const GradcheckOptions& opts = {});
// gradcheck of the function (inputs, grad_outputs) -> vjp, i.e. of the backward itself.
std::string gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs, const GradcheckOptions& opts = {});
// Forward mode: tangents propagated through dual tensors against the central
// difference along random tangents (PyTorch's gradcheck check_forward_ad).
std::string forward_ad_check(const DifferentiableFn& fn, const variable_list& inputs,
                             const GradcheckOptions& opts = {});

}  // namespace torch::autograd
