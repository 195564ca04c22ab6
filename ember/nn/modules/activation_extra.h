#pragma once
// Softmax-family and the remaining activation modules, as
// torch/nn/modules/activation.h. Each forwards to its nn::functional form and
// prints like LibTorch.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/activation_extra.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

#define EMBER_NN_PLAIN_ACTIVATION(Name)                     \
  class Name##Impl : public Cloneable<Name##Impl> {         \
   public:                                                  \
    Name##Impl() = default;                                 \
    void reset() override {}                                \
    void pretty_print(std::ostream& stream) const override; \
    Tensor forward(const Tensor& input);                    \
  };                                                        \
  EMBER_NN_MODULE(Name)

EMBER_NN_PLAIN_ACTIVATION(Softsign);
EMBER_NN_PLAIN_ACTIVATION(Tanhshrink);
EMBER_NN_PLAIN_ACTIVATION(LogSigmoid);
EMBER_NN_PLAIN_ACTIVATION(Softmax2d);  // softmax over the channels of [C, H, W] or [N, C, H, W]
#undef EMBER_NN_PLAIN_ACTIVATION

// `inplace` ones take the input by value so the in-place form can write into it.
#define EMBER_NN_OPTIONS_ACTIVATION(Name)                                         \
  class Name##Impl : public Cloneable<Name##Impl> {                               \
   public:                                                                        \
    explicit Name##Impl(const Name##Options& options_ = {}) : options(options_) { \
      reset(); /* validates the options */                                        \
    }                                                                             \
    void reset() override;                                                        \
    void pretty_print(std::ostream& stream) const override;                       \
    Tensor forward(Tensor input);                                                 \
    Name##Options options;                                                        \
  };                                                                              \
  EMBER_NN_MODULE(Name)

EMBER_NN_OPTIONS_ACTIVATION(ReLU6);
EMBER_NN_OPTIONS_ACTIVATION(CELU);
EMBER_NN_OPTIONS_ACTIVATION(Hardtanh);
EMBER_NN_OPTIONS_ACTIVATION(Softshrink);
EMBER_NN_OPTIONS_ACTIVATION(Hardshrink);
EMBER_NN_OPTIONS_ACTIVATION(GLU);
EMBER_NN_OPTIONS_ACTIVATION(RReLU);
#undef EMBER_NN_OPTIONS_ACTIVATION

// Options without a default: Softmax(1), Threshold(0.1, 20).
#define EMBER_NN_REQUIRED_OPTIONS_ACTIVATION(Name)                            \
  class Name##Impl : public Cloneable<Name##Impl> {                           \
   public:                                                                    \
    explicit Name##Impl(const Name##Options& options_) : options(options_) {} \
    void reset() override {}                                                  \
    void pretty_print(std::ostream& stream) const override;                   \
    Tensor forward(Tensor input);                                             \
    Name##Options options;                                                    \
  };                                                                          \
  EMBER_NN_MODULE(Name)

EMBER_NN_REQUIRED_OPTIONS_ACTIVATION(Softmax);
EMBER_NN_REQUIRED_OPTIONS_ACTIVATION(LogSoftmax);
EMBER_NN_REQUIRED_OPTIONS_ACTIVATION(Softmin);
#undef EMBER_NN_REQUIRED_OPTIONS_ACTIVATION

class ThresholdImpl : public Cloneable<ThresholdImpl> {
 public:
  ThresholdImpl(double threshold, double value) : ThresholdImpl(ThresholdOptions(threshold, value)) {}
  explicit ThresholdImpl(const ThresholdOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  ThresholdOptions options;
};
EMBER_NN_MODULE(Threshold);

// PReLU: a learnable slope per channel (or one shared), initialized to options.init().
class PReLUImpl : public Cloneable<PReLUImpl> {
 public:
  explicit PReLUImpl(const PReLUOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  PReLUOptions options;
  Tensor weight;
};
EMBER_NN_MODULE(PReLU);

}  // namespace torch::nn
