#include "ember/nn/modules/conv.h"

#include <cmath>
#include <vector>

#include "ember/nn/init.h"
#include "ember/nn/modules/print_sizes.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/nn/conv.h"
#include "ember/ops/nn/pad.h"

namespace torch::nn {

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
template class ConvNdImpl<1, ConvTranspose1dImpl>;
template class ConvNdImpl<2, ConvTranspose2dImpl>;
template class ConvNdImpl<3, ConvTranspose3dImpl>;
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

namespace {
// The output_padding giving `output_size` (spatial sizes, or with the batch/channel dims), as _output_padding.
template <size_t D>
std::vector<int64_t> transpose_output_padding(const char* name, const ConvNdOptions<D>& o, const Tensor& input,
                                              const std::optional<IntArrayRef>& output_size) {
  if (!output_size) return std::vector<int64_t>(o.output_padding()->begin(), o.output_padding()->end());
  const int64_t non_spatial = input.dim() == static_cast<int64_t>(D) + 2 ? 2 : 1;
  std::vector<int64_t> size(output_size->begin(), output_size->end());
  if (static_cast<int64_t>(size.size()) == non_spatial + static_cast<int64_t>(D))
    size.erase(size.begin(), size.begin() + non_spatial);
  EMBER_CHECK(size.size() == D, name, ": for ", input.dim(), "D input, output_size must have ", D, " or ",
              non_spatial + static_cast<int64_t>(D), " elements (got ", output_size->size(), ")");
  EMBER_CHECK(input.dim() >= non_spatial + static_cast<int64_t>(D), name, ": expected a batched or unbatched ", D,
              "-D input, got ", shape_str(input.sizes()));
  std::vector<int64_t> result(D);
  for (size_t d = 0; d < D; ++d) {
    const int64_t min_size = (input.size(non_spatial + d) - 1) * (*o.stride())[d] -
                             2 * std::get<ExpandingArray<D>>(o.padding())->at(d) +
                             (*o.dilation())[d] * ((*o.kernel_size())[d] - 1) + 1;
    const int64_t max_size = min_size + (*o.stride())[d] - 1;
    EMBER_CHECK(size[d] >= min_size && size[d] <= max_size, name, ": requested an output size of ", shape_str(size),
                ", but valid sizes in dim ", d, " range from ", min_size, " to ", max_size, " (for an input of ",
                shape_str(input.sizes()), ")");
    result[d] = size[d] - min_size;
  }
  return result;
}
}  // namespace

#define EMBER_DEFINE_CONV_TRANSPOSE(D)                                                                                 \
  ConvTranspose##D##dImpl::ConvTranspose##D##dImpl(ConvTranspose##D##dOptions options_)                                \
      : ConvNdImpl<D, ConvTranspose##D##dImpl>(to_conv_nd_options<D>(options_)) {                                      \
    reset();                                                                                                           \
  }                                                                                                                    \
  /* Other padding modes can be set and printed, as in LibTorch; running them raises. */                               \
  Tensor ConvTranspose##D##dImpl::forward(const Tensor& input, const std::optional<IntArrayRef>& output_size) {        \
    EMBER_CHECK(std::holds_alternative<enumtype::kZeros>(options.padding_mode()),                                      \
                "ConvTranspose" #D "d: Only `zeros` padding mode is supported for ConvTranspose" #D "d");              \
    const auto output_padding = transpose_output_padding<D>("ConvTranspose" #D "d", options, input, output_size);      \
    return conv_transpose##D##d(input, weight, bias, options.stride(), std::get<ExpandingArray<D>>(options.padding()), \
                                output_padding, options.groups(), options.dilation());                                 \
  }

EMBER_DEFINE_CONV_TRANSPOSE(1)
EMBER_DEFINE_CONV_TRANSPOSE(2)
EMBER_DEFINE_CONV_TRANSPOSE(3)
#undef EMBER_DEFINE_CONV_TRANSPOSE

}  // namespace torch::nn
