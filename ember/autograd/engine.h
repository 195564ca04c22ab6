#pragma once
// The autograd engine: runs the backward graph from some roots.
#include "ember/autograd/node.h"

namespace torch::autograd {

// Runs backward from `roots` with initial gradients `grads`.
// With `outputs` empty, gradients accumulate into leaves' .grad (backward());
// otherwise only what is needed to reach `outputs` runs, and the gradients
// flowing into those edges are returned instead (autograd::grad()).
variable_list execute(const edge_list& roots, const variable_list& grads, bool keep_graph, bool create_graph,
                      const edge_list& outputs = {});

// An empty gradient list for a formula's result: one the backward pass
// running on this thread has finished with (Note [Recycled gradient lists] in
// engine.cpp), or a new one outside backward. Room for at least two.
variable_list recycled_gradient_list();

}  // namespace torch::autograd
