#include "ember/nn/modules/fold.h"

#include "ember/nn/functional/fold.h"

namespace torch::nn {

void FoldImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Fold(output_size=" << options.output_size() << ", kernel_size=" << options.kernel_size()
         << ", dilation=" << options.dilation() << ", padding=" << options.padding() << ", stride=" << options.stride()
         << ")";
}

Tensor FoldImpl::forward(const Tensor& input) { return functional::fold(input, options); }

void UnfoldImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unfold(kernel_size=" << options.kernel_size() << ", dilation=" << options.dilation()
         << ", padding=" << options.padding() << ", stride=" << options.stride() << ")";
}

Tensor UnfoldImpl::forward(const Tensor& input) { return functional::unfold(input, options); }

}  // namespace torch::nn
