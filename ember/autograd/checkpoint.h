#pragma once
// Gradient checkpointing (PyTorch's torch.utils.checkpoint with
// use_reentrant=True): run a piece of the forward without keeping its
// activations and recompute them during backward.
// Note [Reentrant checkpoint]
// checkpoint(fn, inputs) runs fn under no-grad, so none of fn's intermediate
// tensors are saved; it records one CheckpointBackward node whose edges point at
// the inputs and which saves only the inputs (version-checked like any saved
// tensor) and the default generator's state. Its backward detaches the saved
// inputs into fresh leaves, restores the generator state (so dropout draws the
// same mask), reruns fn with grad mode on, and calls autograd::backward on the
// recomputed outputs from inside the outer backward (a reentrant call: the
// engine runs it on the calling thread). The gradients that reach the fresh
// leaves are the node's results; parameters fn captures (module weights)
// receive theirs directly in .grad, as in PyTorch. The recomputation is not
// itself part of the outer graph, so create_graph=true does not differentiate
// through a checkpoint (PyTorch's reentrant variant has the same limit).
#include <functional>

#include "ember/autograd/node.h"

namespace torch::autograd {

using CheckpointFn = std::function<variable_list(const variable_list&)>;

// Returns fn(inputs); outputs require grad when grad mode is on and an input
// requires grad. `preserve_rng_state` replays the default generator's stream.
variable_list checkpoint(const CheckpointFn& fn, const variable_list& inputs, bool preserve_rng_state = true);
// The single-output spelling.
Tensor checkpoint(const std::function<Tensor(const variable_list&)>& fn, const variable_list& inputs,
                  bool preserve_rng_state = true);

}  // namespace torch::autograd
