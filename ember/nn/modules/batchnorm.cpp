#include "ember/nn/modules/batchnorm.h"

namespace torch::nn {

// The ranks PyTorch's _check_input_dim accepts, with its message.
void BatchNorm1dImpl::_check_input_dim(const Tensor& input) {
  EMBER_CHECK(input.dim() == 2 || input.dim() == 3, "BatchNorm1d: expected 2D or 3D input (got ", input.dim(),
              "D input of shape ", shape_str(input.sizes()), ")");
}
void BatchNorm2dImpl::_check_input_dim(const Tensor& input) {
  EMBER_CHECK(input.dim() == 4, "BatchNorm2d: expected 4D input (got ", input.dim(), "D input of shape ",
              shape_str(input.sizes()), ")");
}
void BatchNorm3dImpl::_check_input_dim(const Tensor& input) {
  EMBER_CHECK(input.dim() == 5, "BatchNorm3d: expected 5D input (got ", input.dim(), "D input of shape ",
              shape_str(input.sizes()), ")");
}

}  // namespace torch::nn
