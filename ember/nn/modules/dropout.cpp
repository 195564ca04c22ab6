#include "ember/nn/modules/dropout.h"

#include "ember/nn/functional/dropout.h"

namespace torch::nn {

namespace F = functional;

#define EMBER_DEFINE_DROPOUT(Name, call)                                                                              \
  void Name##Impl::reset() {                                                                                          \
    EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, #Name,                                                      \
                ": dropout probability has to be between 0 and 1, but got ", options.p());                            \
  }                                                                                                                   \
  void Name##Impl::pretty_print(std::ostream& stream) const {                                                         \
    stream << std::boolalpha << "torch::nn::" #Name "(p=" << options.p() << ", inplace=" << options.inplace() << ")"; \
  }                                                                                                                   \
  Tensor Name##Impl::forward(Tensor input) { return call; }

EMBER_DEFINE_DROPOUT(
    Dropout,
    F::dropout(input, F::DropoutFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace())))
EMBER_DEFINE_DROPOUT(
    Dropout2d,
    F::dropout2d(input, F::Dropout2dFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace())))
EMBER_DEFINE_DROPOUT(
    Dropout3d,
    F::dropout3d(input, F::Dropout3dFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace())))
EMBER_DEFINE_DROPOUT(
    AlphaDropout,
    F::alpha_dropout(input,
                     F::AlphaDropoutFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace())))
EMBER_DEFINE_DROPOUT(
    FeatureAlphaDropout,
    F::feature_alpha_dropout(
        input, F::FeatureAlphaDropoutFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace())))

}  // namespace torch::nn
