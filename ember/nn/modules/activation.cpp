#include "ember/nn/modules/activation.h"

#include "ember/nn/functional/activation.h"

namespace torch::nn {
namespace F = functional;
namespace {
// LibTorch prints `inplace=true` only when it is set.
void print_inplace(std::ostream& stream, bool inplace, const char* separator) {
  if (inplace) stream << separator << "inplace=true";
}
}  // namespace

void SigmoidImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sigmoid()"; }
Tensor SigmoidImpl::forward(const Tensor& input) { return ember::sigmoid(input); }
void TanhImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Tanh()"; }
Tensor TanhImpl::forward(const Tensor& input) { return ember::tanh(input); }
void SiLUImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::SiLU()"; }
Tensor SiLUImpl::forward(const Tensor& input) { return F::silu(input); }
void MishImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Mish()"; }
Tensor MishImpl::forward(const Tensor& input) { return F::mish(input); }

void ReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}
Tensor ReLUImpl::forward(Tensor input) { return F::relu(std::move(input), options); }

void ELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ELU(alpha=" << options.alpha();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
Tensor ELUImpl::forward(Tensor input) { return F::elu(std::move(input), options); }

void SELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SELU(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}
Tensor SELUImpl::forward(Tensor input) { return F::selu(std::move(input), options); }

void GELUImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::GELU()"; }
Tensor GELUImpl::forward(Tensor input) { return F::gelu(input, options); }

void LeakyReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LeakyReLU(negative_slope=" << options.negative_slope();
  print_inplace(stream, options.inplace(), ", ");
  stream << ")";
}
Tensor LeakyReLUImpl::forward(Tensor input) { return F::leaky_relu(std::move(input), options); }

void SoftplusImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softplus(beta=" << options.beta() << ", threshold=" << options.threshold() << ")";
}
Tensor SoftplusImpl::forward(Tensor input) { return F::softplus(input, options); }

void HardswishImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardswish(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}
Tensor HardswishImpl::forward(Tensor input) { return F::hardswish(std::move(input), options); }

void HardsigmoidImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardsigmoid(";
  print_inplace(stream, options.inplace(), "");
  stream << ")";
}
Tensor HardsigmoidImpl::forward(Tensor input) { return F::hardsigmoid(std::move(input), options); }

}  // namespace torch::nn
