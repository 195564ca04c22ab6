#include "ember/nn/modules/pooling.h"

#include "ember/nn/modules/print_sizes.h"

namespace torch::nn {

#define EMBER_DEFINE_MAXPOOL(D)                                                                                 \
  void MaxPool##D##dImpl::pretty_print(std::ostream& stream) const {                                            \
    stream << std::boolalpha << "torch::nn::MaxPool" << D                                                       \
           << "d(kernel_size=" << detail::print_sizes(options.kernel_size())                                    \
           << ", stride=" << detail::print_sizes(options.stride())                                              \
           << ", padding=" << detail::print_sizes(options.padding())                                            \
           << ", dilation=" << detail::print_sizes(options.dilation()) << ", ceil_mode=" << options.ceil_mode() \
           << ")";                                                                                              \
  }                                                                                                             \
  Tensor MaxPool##D##dImpl::forward(const Tensor& input) { return functional::max_pool##D##d(input, options); } \
  std::tuple<Tensor, Tensor> MaxPool##D##dImpl::forward_with_indices(const Tensor& input) {                     \
    return functional::max_pool##D##d_with_indices(input, options);                                             \
  }

#define EMBER_DEFINE_AVGPOOL(D)                                                                           \
  void AvgPool##D##dImpl::pretty_print(std::ostream& stream) const {                                      \
    stream << "torch::nn::AvgPool" << D << "d(kernel_size=" << detail::print_sizes(options.kernel_size()) \
           << ", stride=" << detail::print_sizes(options.stride())                                        \
           << ", padding=" << detail::print_sizes(options.padding()) << ")";                              \
  }                                                                                                       \
  Tensor AvgPool##D##dImpl::forward(const Tensor& input) { return functional::avg_pool##D##d(input, options); }

EMBER_DEFINE_MAXPOOL(1)
EMBER_DEFINE_MAXPOOL(2)
EMBER_DEFINE_MAXPOOL(3)
EMBER_DEFINE_AVGPOOL(1)
EMBER_DEFINE_AVGPOOL(2)
EMBER_DEFINE_AVGPOOL(3)

namespace {
// LibTorch prints a one-element output_size bare and the optional form as [2, None].
detail::PrintSizes<1> print_output_size(const ExpandingArray<1>& a) { return detail::print_sizes(a); }
template <size_t D>
const ExpandingArrayWithOptionalElem<D>& print_output_size(const ExpandingArrayWithOptionalElem<D>& a) {
  return a;
}
}  // namespace

#define EMBER_DEFINE_ADAPTIVE_POOL(Kind, name, D)                                                                      \
  void Adaptive##Kind##D##dImpl::pretty_print(std::ostream& stream) const {                                            \
    stream << "torch::nn::Adaptive" #Kind << D << "d(output_size=" << print_output_size(options.output_size()) << ")"; \
  }                                                                                                                    \
  Tensor Adaptive##Kind##D##dImpl::forward(const Tensor& input) {                                                      \
    return functional::adaptive_##name##_pool##D##d(input, options);                                                   \
  }

EMBER_DEFINE_ADAPTIVE_POOL(MaxPool, max, 1)
EMBER_DEFINE_ADAPTIVE_POOL(MaxPool, max, 2)
EMBER_DEFINE_ADAPTIVE_POOL(MaxPool, max, 3)
EMBER_DEFINE_ADAPTIVE_POOL(AvgPool, avg, 1)
EMBER_DEFINE_ADAPTIVE_POOL(AvgPool, avg, 2)
EMBER_DEFINE_ADAPTIVE_POOL(AvgPool, avg, 3)

#define EMBER_DEFINE_ADAPTIVE_MAX_INDICES(D)                                                        \
  std::tuple<Tensor, Tensor> AdaptiveMaxPool##D##dImpl::forward_with_indices(const Tensor& input) { \
    return functional::adaptive_max_pool##D##d_with_indices(input, options);                        \
  }
EMBER_DEFINE_ADAPTIVE_MAX_INDICES(1)
EMBER_DEFINE_ADAPTIVE_MAX_INDICES(2)
EMBER_DEFINE_ADAPTIVE_MAX_INDICES(3)

#define EMBER_DEFINE_MAX_UNPOOL(D)                                                                          \
  void MaxUnpool##D##dImpl::pretty_print(std::ostream& stream) const {                                      \
    stream << "torch::nn::MaxUnpool" << D << "d(kernel_size=" << detail::print_sizes(options.kernel_size()) \
           << ", stride=" << detail::print_sizes(options.stride())                                          \
           << ", padding=" << detail::print_sizes(options.padding()) << ")";                                \
  }                                                                                                         \
  Tensor MaxUnpool##D##dImpl::forward(const Tensor& input, const Tensor& indices,                           \
                                      const std::optional<std::vector<int64_t>>& output_size) {             \
    return functional::max_unpool##D##d(input, indices,                                                     \
                                        functional::MaxUnpool##D##dFuncOptions(options.kernel_size())       \
                                            .stride(options.stride())                                       \
                                            .padding(options.padding())                                     \
                                            .output_size(output_size));                                     \
  }

EMBER_DEFINE_MAX_UNPOOL(1)
EMBER_DEFINE_MAX_UNPOOL(2)
EMBER_DEFINE_MAX_UNPOOL(3)
#undef EMBER_DEFINE_MAX_UNPOOL

#define EMBER_DEFINE_LP_POOL(D)                                                                                     \
  void LPPool##D##dImpl::pretty_print(std::ostream& stream) const {                                                 \
    stream << std::boolalpha << "torch::nn::LPPool" << D << "d(norm_type=" << options.norm_type()                   \
           << ", kernel_size=" << detail::print_sizes(options.kernel_size())                                        \
           << ", stride=" << detail::print_sizes(options.stride()) << ", ceil_mode=" << options.ceil_mode() << ")"; \
  }                                                                                                                 \
  Tensor LPPool##D##dImpl::forward(const Tensor& input) { return functional::lp_pool##D##d(input, options); }

EMBER_DEFINE_LP_POOL(1)
EMBER_DEFINE_LP_POOL(2)
#undef EMBER_DEFINE_LP_POOL

#define EMBER_DEFINE_FRACTIONAL_MAX_POOL(D)                                                                \
  void FractionalMaxPool##D##dImpl::reset() {                                                              \
    _random_samples = register_buffer("_random_samples", options._random_samples());                       \
    EMBER_CHECK(options.output_size() || options.output_ratio(),                                           \
                "FractionalMaxPool" #D "d requires specifying either an output size, or a pooling ratio"); \
    EMBER_CHECK(!(options.output_size() && options.output_ratio()),                                        \
                "only one of output_size and output_ratio may be specified");                              \
    if (options.output_ratio())                                                                            \
      for (double r : **options.output_ratio())                                                            \
        EMBER_CHECK(r > 0 && r < 1, "output_ratio must be between 0 and 1 (got ", r, ")");                 \
  }                                                                                                        \
  void FractionalMaxPool##D##dImpl::pretty_print(std::ostream& stream) const {                             \
    stream << "torch::nn::FractionalMaxPool" << D << "d()";                                                \
  }                                                                                                        \
  std::tuple<Tensor, Tensor> FractionalMaxPool##D##dImpl::forward_with_indices(const Tensor& input) {      \
    return functional::fractional_max_pool##D##d_with_indices(                                             \
        input, FractionalMaxPool##D##dOptions(options)._random_samples(_random_samples));                  \
  }                                                                                                        \
  Tensor FractionalMaxPool##D##dImpl::forward(const Tensor& input) { return std::get<0>(forward_with_indices(input)); }

EMBER_DEFINE_FRACTIONAL_MAX_POOL(2)
EMBER_DEFINE_FRACTIONAL_MAX_POOL(3)
#undef EMBER_DEFINE_FRACTIONAL_MAX_POOL

}  // namespace torch::nn
