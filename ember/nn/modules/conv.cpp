#include "ember/nn/modules/conv.h"

#include <cmath>
#include <vector>

#include "ember/nn/init.h"
#include "ember/nn/modules/print_sizes.h"
#include "ember/ops/conv.h"
#include "ember/ops/factory.h"
#include "ember/ops/pad.h"

namespace ember::nn {

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::reset() {
  const char* name = D == 1 ? "Conv1d" : D == 2 ? "Conv2d" : "Conv3d";
  EMBER_CHECK(options.groups() > 0, name, ": groups must be a positive integer, got ", options.groups());
  EMBER_CHECK(options.in_channels() % options.groups() == 0, name, ": in_channels must be divisible by groups, got ",
              options.in_channels(), " and groups=", options.groups());
  EMBER_CHECK(options.out_channels() % options.groups() == 0, name, ": out_channels must be divisible by groups, got ",
              options.out_channels(), " and groups=", options.groups());
  for (int64_t s : *options.stride()) EMBER_CHECK(s > 0, name, ": stride must be positive, got ", options.stride());
  if (std::holds_alternative<enumtype::kSame>(options.padding())) {
    for (int64_t s : *options.stride())
      EMBER_CHECK(s == 1, name, ": padding='same' is not supported for strided convolutions");
  }
  std::vector<int64_t> shape;
  if (options.transposed())
    shape = {options.in_channels(), options.out_channels() / options.groups()};
  else
    shape = {options.out_channels(), options.in_channels() / options.groups()};
  for (int64_t k : *options.kernel_size()) shape.push_back(k);
  weight = this->register_parameter("weight", ember::empty(shape));
  if (options.bias())
    bias = this->register_parameter("bias", ember::empty(options.out_channels()));
  else
    bias = this->register_parameter("bias", {}, /*requires_grad=*/false);
  reset_parameters();
}

// kaiming_uniform_(a=sqrt(5)) on the weight, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) on the bias, as _ConvNd.
template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(weight);
    if (fan_in != 0) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
      init::uniform_(bias, -bound, bound);
    }
  }
}

namespace {
std::string padding_mode_name(const conv_padding_mode_t& mode) {
  return std::visit([](auto tag) { return enum_name(tag); }, mode);
}
}  // namespace

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Conv" << (options.transposed() ? "Transpose" : "") << D << "d"
         << "(" << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << detail::print_sizes(options.kernel_size())
         << ", stride=" << detail::print_sizes(options.stride());
  if (std::holds_alternative<enumtype::kValid>(options.padding())) {
    stream << ", padding='valid'";
  } else if (std::holds_alternative<enumtype::kSame>(options.padding())) {
    stream << ", padding='same'";
  } else {
    const auto& pad = std::get<ExpandingArray<D>>(options.padding());
    if (*pad != *ExpandingArray<D>(0)) stream << ", padding=" << detail::print_sizes(pad);
  }
  if (*options.dilation() != *ExpandingArray<D>(1)) stream << ", dilation=" << detail::print_sizes(options.dilation());
  if (*options.output_padding() != *ExpandingArray<D>(0))
    stream << ", output_padding=" << detail::print_sizes(options.output_padding());
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=" << std::boolalpha << false;
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode()))
    stream << ", padding_mode=" << padding_mode_name(options.padding_mode());
  stream << ")";
}

// Note [Conv padding modes]: as PyTorch, a non-zeros padding mode pads the input
// with F::pad first (pairs for the last dim first) and convolves with padding 0.
template <size_t D, typename Derived>
Tensor ConvNdImpl<D, Derived>::pad_input(const Tensor& input) const {
  if (std::holds_alternative<enumtype::kZeros>(options.padding_mode())) return input;
  if (std::holds_alternative<enumtype::kValid>(options.padding())) return input;
  std::vector<int64_t> pads(2 * D);
  for (size_t i = 0; i < D; ++i) {
    int64_t left, right;
    if (std::holds_alternative<enumtype::kSame>(options.padding())) {
      const int64_t total = (*options.dilation())[i] * ((*options.kernel_size())[i] - 1);
      left = total / 2;
      right = total - left;
    } else {
      left = right = (*std::get<ExpandingArray<D>>(options.padding()))[i];
    }
    const size_t j = D - 1 - i;
    pads[2 * j] = left;
    pads[2 * j + 1] = right;
  }
  const char* mode = std::holds_alternative<enumtype::kReflect>(options.padding_mode())     ? "reflect"
                     : std::holds_alternative<enumtype::kReplicate>(options.padding_mode()) ? "replicate"
                                                                                            : "circular";
  return pad(input, pads, mode);
}

template class ConvNdImpl<1, Conv1dImpl>;
template class ConvNdImpl<2, Conv2dImpl>;
template class ConvNdImpl<3, Conv3dImpl>;

#define EMBER_DEFINE_CONV(D)                                                                                          \
  Conv##D##dImpl::Conv##D##dImpl(Conv##D##dOptions options_)                                                          \
      : ConvNdImpl<D, Conv##D##dImpl>(to_conv_nd_options<D>(options_)) {                                              \
    reset();                                                                                                          \
  }                                                                                                                   \
  Tensor Conv##D##dImpl::forward(const Tensor& input) {                                                               \
    const bool explicit_pad = !std::holds_alternative<enumtype::kZeros>(options.padding_mode());                      \
    const Tensor x = pad_input(input);                                                                                \
    if (std::holds_alternative<enumtype::kSame>(options.padding()) && !explicit_pad)                                  \
      return conv##D##d_padding_str(x, weight, bias, options.stride(), "same", options.dilation(), options.groups()); \
    if (std::holds_alternative<enumtype::kValid>(options.padding()) || explicit_pad)                                  \
      return conv##D##d(x, weight, bias, options.stride(), IntArrayRef(0), options.dilation(), options.groups());     \
    return conv##D##d(x, weight, bias, options.stride(), std::get<ExpandingArray<D>>(options.padding()),              \
                      options.dilation(), options.groups());                                                          \
  }

EMBER_DEFINE_CONV(1)
EMBER_DEFINE_CONV(2)
EMBER_DEFINE_CONV(3)
#undef EMBER_DEFINE_CONV

}  // namespace ember::nn
