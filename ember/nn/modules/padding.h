#pragma once
// ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d, ZeroPad2d, ConstantPad1d/2d/3d,
// as torch/nn/modules/padding.h.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/padding.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

#define EMBER_DECLARE_PAD(Kind, D, Mode)                                                                         \
  class Kind##Pad##D##dImpl : public Cloneable<Kind##Pad##D##dImpl> {                                            \
   public:                                                                                                       \
    Kind##Pad##D##dImpl(ExpandingArray<D * 2> padding) : Kind##Pad##D##dImpl(Kind##Pad##D##dOptions(padding)) {} \
    explicit Kind##Pad##D##dImpl(const Kind##Pad##D##dOptions& options_) : options(options_) {}                  \
    void reset() override {}                                                                                     \
    void pretty_print(std::ostream& stream) const override {                                                     \
      stream << "torch::nn::" #Kind "Pad" #D "d(padding=" << options.padding() << ")";                           \
    }                                                                                                            \
    Tensor forward(const Tensor& input) { return functional::detail::pad(input, options.padding(), Mode, 0); }   \
    Kind##Pad##D##dOptions options;                                                                              \
  };                                                                                                             \
  EMBER_NN_MODULE(Kind##Pad##D##d);

EMBER_DECLARE_PAD(Reflection, 1, kReflect)
EMBER_DECLARE_PAD(Reflection, 2, kReflect)
EMBER_DECLARE_PAD(Reflection, 3, kReflect)
EMBER_DECLARE_PAD(Replication, 1, kReplicate)
EMBER_DECLARE_PAD(Replication, 2, kReplicate)
EMBER_DECLARE_PAD(Replication, 3, kReplicate)
#undef EMBER_DECLARE_PAD

class ZeroPad2dImpl : public Cloneable<ZeroPad2dImpl> {
 public:
  ZeroPad2dImpl(ExpandingArray<4> padding) : ZeroPad2dImpl(ZeroPad2dOptions(padding)) {}  // NOLINT
  explicit ZeroPad2dImpl(const ZeroPad2dOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ZeroPad2d(padding=" << options.padding() << ")";
  }
  Tensor forward(const Tensor& input) { return functional::detail::pad(input, options.padding(), kConstant, 0); }
  ZeroPad2dOptions options;
};
EMBER_NN_MODULE(ZeroPad2d);

#define EMBER_DECLARE_CONSTANT_PAD(D)                                                                                  \
  class ConstantPad##D##dImpl : public Cloneable<ConstantPad##D##dImpl> {                                              \
   public:                                                                                                             \
    ConstantPad##D##dImpl(ExpandingArray<D * 2> padding, double value)                                                 \
        : ConstantPad##D##dImpl(ConstantPad##D##dOptions(padding, value)) {}                                           \
    explicit ConstantPad##D##dImpl(const ConstantPad##D##dOptions& options_) : options(options_) {}                    \
    void reset() override {}                                                                                           \
    void pretty_print(std::ostream& stream) const override {                                                           \
      stream << "torch::nn::ConstantPad" #D "d(padding=" << options.padding() << ", value=" << options.value() << ")"; \
    }                                                                                                                  \
    Tensor forward(const Tensor& input) {                                                                              \
      return functional::detail::pad(input, options.padding(), kConstant, options.value());                            \
    }                                                                                                                  \
    ConstantPad##D##dOptions options;                                                                                  \
  };                                                                                                                   \
  EMBER_NN_MODULE(ConstantPad##D##d);

EMBER_DECLARE_CONSTANT_PAD(1)
EMBER_DECLARE_CONSTANT_PAD(2)
EMBER_DECLARE_CONSTANT_PAD(3)
#undef EMBER_DECLARE_CONSTANT_PAD

}  // namespace torch::nn
