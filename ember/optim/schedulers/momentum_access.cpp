#include "ember/optim/schedulers/momentum_access.h"

#include <tuple>

#include "ember/core/error.h"
#include "ember/optim/adam.h"
#include "ember/optim/adamax.h"
#include "ember/optim/adamw.h"
#include "ember/optim/nadam.h"
#include "ember/optim/radam.h"
#include "ember/optim/rmsprop.h"
#include "ember/optim/sgd.h"

namespace torch::optim::detail {

namespace {
// A pointer to the value inside `options`, or null.
template <typename Options>
double* beta1_of(OptimizerOptions& options) {
  auto* o = dynamic_cast<Options*>(&options);
  return o ? &std::get<0>(o->betas()) : nullptr;
}

template <typename Options>
double* momentum_of(OptimizerOptions& options) {
  auto* o = dynamic_cast<Options*>(&options);
  return o ? &o->momentum() : nullptr;
}

std::pair<MomentumKind, double*> find(OptimizerOptions& options) {
  for (double* p : {beta1_of<AdamOptions>(options), beta1_of<AdamWOptions>(options), beta1_of<AdamaxOptions>(options),
                    beta1_of<NAdamOptions>(options), beta1_of<RAdamOptions>(options)})
    if (p) return {MomentumKind::kBeta1, p};
  for (double* p : {momentum_of<SGDOptions>(options), momentum_of<RMSpropOptions>(options)})
    if (p) return {MomentumKind::kMomentum, p};
  return {MomentumKind::kNone, nullptr};
}
}  // namespace

MomentumKind momentum_kind(const OptimizerOptions& options) {
  return find(const_cast<OptimizerOptions&>(options)).first;
}

double get_momentum(const OptimizerOptions& options) {
  auto [kind, p] = find(const_cast<OptimizerOptions&>(options));
  EMBER_CHECK(p != nullptr, "LRScheduler: the optimizer has no momentum or betas option");
  return *p;
}

void set_momentum(OptimizerOptions& options, double value) {
  auto [kind, p] = find(options);
  EMBER_CHECK(p != nullptr, "LRScheduler: the optimizer has no momentum or betas option");
  *p = value;
}

}  // namespace torch::optim::detail
