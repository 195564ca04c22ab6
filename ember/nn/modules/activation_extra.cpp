#include "ember/nn/modules/activation_extra.h"

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/nn/functional/activation_extra.h"
#include "ember/ops/factory/factory.h"

namespace torch::nn {
namespace F = functional;
namespace {
// LibTorch prints `inplace=true` only when it is set.
void print_inplace(std::ostream& stream, bool inplace, const char* separator) {
  if (inplace) stream << separator << "inplace=true";
}
}  // namespace

void SoftsignImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Softsign()"; }
Tensor SoftsignImpl::forward(const Tensor& input) { return F::softsign(input); }
void Softmax2dImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Softmax2d()"; }
Tensor Softmax2dImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 3 || input.dim() == 4, "Softmax2d: expected a 3D or 4D input, got shape ",
              shape_str(input.sizes()));
  return F::softmax(input, -3);
}
void TanhshrinkImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Tanhshrink()"; }
Tensor TanhshrinkImpl::forward(const Tensor& input) { return F::tanhshrink(input); }
void LogSigmoidImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::LogSigmoid()"; }
Tensor LogSigmoidImpl::forward(const Tensor& input) { return F::logsigmoid(input); }

void ReLU6Impl::reset() {}
void ReLU6Impl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU6(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}
Tensor ReLU6Impl::forward(Tensor input) { return F::relu6(std::move(input), options); }

void CELUImpl::reset() {}
void CELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CELU(alpha=" << options.alpha();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
Tensor CELUImpl::forward(Tensor input) { return F::celu(std::move(input), options); }

void HardtanhImpl::reset() {
  EMBER_CHECK(options.max_val() > options.min_val(),
              "Hardtanh: max_val must be greater than min_val, got min_val=", options.min_val(),
              ", max_val=", options.max_val());
}
void HardtanhImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardtanh(min_val=" << options.min_val() << ", max_val=" << options.max_val();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
Tensor HardtanhImpl::forward(Tensor input) { return F::hardtanh(std::move(input), options); }

void SoftshrinkImpl::reset() {}
void SoftshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softshrink(" << options.lambda() << ")";
}
Tensor SoftshrinkImpl::forward(Tensor input) { return F::softshrink(input, options); }

void HardshrinkImpl::reset() {}
void HardshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardshrink(" << options.lambda() << ")";
}
Tensor HardshrinkImpl::forward(Tensor input) { return F::hardshrink(input, options); }

void GLUImpl::reset() {}
void GLUImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::GLU(dim=" << options.dim() << ")"; }
Tensor GLUImpl::forward(Tensor input) { return F::glu(input, options); }

void RReLUImpl::reset() {}
void RReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::RReLU(lower=" << options.lower() << ", upper=" << options.upper();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
// Random slopes in training, their mean in eval, as torch.nn.RReLU.
Tensor RReLUImpl::forward(Tensor input) {
  return F::rrelu(std::move(input), F::RReLUFuncOptions()
                                        .lower(options.lower())
                                        .upper(options.upper())
                                        .inplace(options.inplace())
                                        .training(is_training()));
}

void SoftmaxImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softmax(dim=" << options.dim() << ")";
}
Tensor SoftmaxImpl::forward(Tensor input) { return F::softmax(input, options.dim()); }
void LogSoftmaxImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LogSoftmax(dim=" << options.dim() << ")";
}
Tensor LogSoftmaxImpl::forward(Tensor input) { return F::log_softmax(input, options.dim()); }
void SoftminImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softmin(dim=" << options.dim() << ")";
}
Tensor SoftminImpl::forward(Tensor input) { return F::softmin(input, options.dim()); }

void ThresholdImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Threshold(threshold=" << options.threshold() << ", value=" << options.value();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
Tensor ThresholdImpl::forward(Tensor input) { return F::threshold(std::move(input), options); }

PReLUImpl::PReLUImpl(const PReLUOptions& options_) : options(options_) { reset(); }
void PReLUImpl::reset() {
  EMBER_CHECK(options.num_parameters() > 0, "PReLU: num_parameters must be positive, got ", options.num_parameters());
  weight = register_parameter("weight", full({options.num_parameters()}, options.init()));
}
void PReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PReLU(num_parameters=" << options.num_parameters() << ")";
}
Tensor PReLUImpl::forward(const Tensor& input) { return F::prelu(input, weight); }

}  // namespace torch::nn
