#include "ember/nn/modules/pooling.h"

#include "ember/nn/modules/print_sizes.h"

namespace ember::nn {

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

}  // namespace ember::nn
