#pragma once
// autograd::backward and autograd::grad: the public entry points to the engine.
#include <optional>

#include "ember/autograd/node.h"

namespace torch::autograd {

void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
              const variable_list& inputs = {});

// Gradients of `outputs` with respect to `inputs` (not accumulated into .grad).
variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                   bool allow_unused = false);

}  // namespace torch::autograd
