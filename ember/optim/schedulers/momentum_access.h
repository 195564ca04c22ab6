#pragma once
// The momentum-like hyper-parameter of the built-in optimizers, which the
// cyclic schedulers vary along with the rate: `momentum` of SGD and RMSprop,
// beta1 of the Adam family (PyTorch looks for 'betas' or 'momentum' keys).
#include "ember/optim/optimizer.h"

namespace torch::optim::detail {

enum class MomentumKind { kNone, kMomentum, kBeta1 };

MomentumKind momentum_kind(const OptimizerOptions& options);
double get_momentum(const OptimizerOptions& options);
void set_momentum(OptimizerOptions& options, double value);

}  // namespace torch::optim::detail
