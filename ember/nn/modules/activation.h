#pragma once
// Activation modules, as torch/nn/modules/activation.h. Each forwards to the
// nn::functional form (or the op) and prints like LibTorch.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/activation.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

// Activations without options: Sigmoid, Tanh, SiLU, Mish.
#define EMBER_NN_PLAIN_ACTIVATION(Name)                     \
  class Name##Impl : public Cloneable<Name##Impl> {         \
   public:                                                  \
    Name##Impl() = default;                                 \
    void reset() override {}                                \
    void pretty_print(std::ostream& stream) const override; \
    Tensor forward(const Tensor& input);                    \
  };                                                        \
  EMBER_NN_MODULE(Name)

EMBER_NN_PLAIN_ACTIVATION(Sigmoid);
EMBER_NN_PLAIN_ACTIVATION(Tanh);
EMBER_NN_PLAIN_ACTIVATION(SiLU);
EMBER_NN_PLAIN_ACTIVATION(Mish);
#undef EMBER_NN_PLAIN_ACTIVATION

// Activations with an options struct; `inplace` ones take the input by value
// so the in-place form can write into it.
#define EMBER_NN_OPTIONS_ACTIVATION(Name)                                          \
  class Name##Impl : public Cloneable<Name##Impl> {                                \
   public:                                                                         \
    explicit Name##Impl(const Name##Options& options_ = {}) : options(options_) {} \
    void reset() override {}                                                       \
    void pretty_print(std::ostream& stream) const override;                        \
    Tensor forward(Tensor input);                                                  \
    Name##Options options;                                                         \
  };                                                                               \
  EMBER_NN_MODULE(Name)

EMBER_NN_OPTIONS_ACTIVATION(ReLU);
EMBER_NN_OPTIONS_ACTIVATION(ELU);
EMBER_NN_OPTIONS_ACTIVATION(SELU);
EMBER_NN_OPTIONS_ACTIVATION(GELU);
EMBER_NN_OPTIONS_ACTIVATION(LeakyReLU);
EMBER_NN_OPTIONS_ACTIVATION(Softplus);
EMBER_NN_OPTIONS_ACTIVATION(Hardswish);
EMBER_NN_OPTIONS_ACTIVATION(Hardsigmoid);
#undef EMBER_NN_OPTIONS_ACTIVATION

}  // namespace torch::nn
