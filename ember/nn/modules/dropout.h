#pragma once
// Dropout, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout, as torch::nn::Dropout:
// active only while the module is_training().
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

#define EMBER_DECLARE_DROPOUT(Name)                                                           \
  class Name##Impl : public Cloneable<Name##Impl> {                                           \
   public:                                                                                    \
    explicit Name##Impl(double p) : Name##Impl(DropoutOptions().p(p)) {}                      \
    explicit Name##Impl(const DropoutOptions& options_ = {}) : options(options_) { reset(); } \
    void reset() override;                                                                    \
    void pretty_print(std::ostream& stream) const override;                                   \
    Tensor forward(Tensor input);                                                             \
    DropoutOptions options;                                                                   \
  };                                                                                          \
  EMBER_NN_MODULE(Name);

EMBER_DECLARE_DROPOUT(Dropout)
EMBER_DECLARE_DROPOUT(Dropout2d)
EMBER_DECLARE_DROPOUT(Dropout3d)
EMBER_DECLARE_DROPOUT(AlphaDropout)
EMBER_DECLARE_DROPOUT(FeatureAlphaDropout)
#undef EMBER_DECLARE_DROPOUT

}  // namespace torch::nn
