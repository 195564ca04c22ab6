#pragma once
// LocalResponseNorm: normalizes each channel by the energy of `size` neighbouring
// channels, as torch::nn::LocalResponseNorm.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/local_response_norm.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class LocalResponseNormImpl : public Cloneable<LocalResponseNormImpl> {
 public:
  LocalResponseNormImpl(int64_t size) : LocalResponseNormImpl(LocalResponseNormOptions(size)) {}  // NOLINT
  explicit LocalResponseNormImpl(const LocalResponseNormOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input) { return functional::local_response_norm(input, options); }

  LocalResponseNormOptions options;
};
EMBER_NN_MODULE(LocalResponseNorm);

}  // namespace torch::nn
