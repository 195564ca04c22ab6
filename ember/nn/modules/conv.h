#pragma once
// Conv1d/2d/3d, as torch::nn::Conv*d: weight [out, in/groups, *kernel], bias [out],
// initialised as PyTorch's _ConvNd.reset_parameters.
#include <optional>
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

template <size_t D, typename Derived>
class ConvNdImpl : public Cloneable<Derived> {
 public:
  explicit ConvNdImpl(ConvNdOptions<D> options_) : options(std::move(options_)) {}
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  ConvNdOptions<D> options;
  Tensor weight;
  Tensor bias;  // undefined when options.bias() is false

 protected:
  // Pads the input explicitly for padding modes other than kZeros; returns it unchanged otherwise.
  Tensor pad_input(const Tensor& input) const;
};

// Converts the module options (ConvOptions) to the common ConvNdOptions.
template <size_t D>
ConvNdOptions<D> to_conv_nd_options(const ConvOptions<D>& o) {
  return ConvNdOptions<D>(o.in_channels(), o.out_channels(), o.kernel_size())
      .stride(o.stride())
      .padding(o.padding())
      .dilation(o.dilation())
      .transposed(false)
      .output_padding(0)
      .groups(o.groups())
      .bias(o.bias())
      .padding_mode(o.padding_mode());
}

#define EMBER_DECLARE_CONV(D)                                                                      \
  class Conv##D##dImpl : public ConvNdImpl<D, Conv##D##dImpl> {                                    \
   public:                                                                                         \
    Conv##D##dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<D> kernel_size) \
        : Conv##D##dImpl(Conv##D##dOptions(input_channels, output_channels, kernel_size)) {}       \
    explicit Conv##D##dImpl(Conv##D##dOptions options_);                                           \
    Tensor forward(const Tensor& input);                                                           \
  };                                                                                               \
  EMBER_NN_MODULE(Conv##D##d);

EMBER_DECLARE_CONV(1)
EMBER_DECLARE_CONV(2)
EMBER_DECLARE_CONV(3)
#undef EMBER_DECLARE_CONV

template <size_t D>
ConvNdOptions<D> to_conv_nd_options(const ConvTransposeOptions<D>& o) {
  return ConvNdOptions<D>(o.in_channels(), o.out_channels(), o.kernel_size())
      .stride(o.stride())
      .padding(o.padding())
      .dilation(o.dilation())
      .transposed(true)
      .output_padding(o.output_padding())
      .groups(o.groups())
      .bias(o.bias())
      .padding_mode(o.padding_mode());
}

// ConvTranspose1d/2d/3d: weight [in, out/groups, *kernel]. forward(input, output_size)
// picks the output_padding that yields output_size, as PyTorch's _output_padding.
#define EMBER_DECLARE_CONV_TRANSPOSE(D)                                                                        \
  class ConvTranspose##D##dImpl : public ConvNdImpl<D, ConvTranspose##D##dImpl> {                              \
   public:                                                                                                     \
    ConvTranspose##D##dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<D> kernel_size)    \
        : ConvTranspose##D##dImpl(ConvTranspose##D##dOptions(input_channels, output_channels, kernel_size)) {} \
    explicit ConvTranspose##D##dImpl(ConvTranspose##D##dOptions options_);                                     \
    Tensor forward(const Tensor& input, const std::optional<IntArrayRef>& output_size = std::nullopt);         \
                                                                                                               \
   protected:                                                                                                  \
    FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<IntArrayRef>())})                                      \
  };                                                                                                           \
  EMBER_NN_MODULE(ConvTranspose##D##d);

EMBER_DECLARE_CONV_TRANSPOSE(1)
EMBER_DECLARE_CONV_TRANSPOSE(2)
EMBER_DECLARE_CONV_TRANSPOSE(3)
#undef EMBER_DECLARE_CONV_TRANSPOSE

}  // namespace torch::nn
