#include "ember/nn/modules/linear.h"

#include <cmath>

#include "ember/nn/functional/linear.h"
#include "ember/nn/init.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"

namespace torch::nn {

void IdentityImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Identity()"; }
Tensor IdentityImpl::forward(const Tensor& input) { return input; }

LinearImpl::LinearImpl(const LinearOptions& options_) : options(options_) { reset(); }

void LinearImpl::reset() {
  EMBER_CHECK(options.in_features() >= 0 && options.out_features() >= 0,
              "Linear: in_features and out_features must be non-negative, got in_features=", options.in_features(),
              ", out_features=", options.out_features());
  weight = register_parameter("weight", empty({options.out_features(), options.in_features()}));
  if (options.bias())
    bias = register_parameter("bias", empty(options.out_features()));
  else
    bias = register_parameter("bias", {}, /*requires_grad=*/false);
  reset_parameters();
}

// Kaiming-uniform with a = sqrt(5) gives bound 1/sqrt(fan_in) for the weight; the bias uses the same bound.
void LinearImpl::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(weight);
    const double bound = fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

void LinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

Tensor LinearImpl::forward(const Tensor& input) { return functional::linear(input, weight, bias); }

BilinearImpl::BilinearImpl(const BilinearOptions& options_) : options(options_) { reset(); }

void BilinearImpl::reset() {
  EMBER_CHECK(options.in1_features() >= 0 && options.in2_features() >= 0 && options.out_features() >= 0,
              "Bilinear: feature counts must be non-negative, got in1_features=", options.in1_features(),
              ", in2_features=", options.in2_features(), ", out_features=", options.out_features());
  weight =
      register_parameter("weight", empty({options.out_features(), options.in1_features(), options.in2_features()}));
  if (options.bias())
    bias = register_parameter("bias", empty(options.out_features()));
  else
    bias = register_parameter("bias", {}, /*requires_grad=*/false);
  reset_parameters();
}

// PyTorch's Bilinear.reset_parameters: both from U(-1/sqrt(in1), 1/sqrt(in1))
// (weight.size(1) is in1_features, not the full fan-in).
void BilinearImpl::reset_parameters() {
  const double bound = options.in1_features() > 0 ? 1.0 / std::sqrt(static_cast<double>(options.in1_features())) : 0.0;
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
}

void BilinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Bilinear(in1_features=" << options.in1_features()
         << ", in2_features=" << options.in2_features() << ", out_features=" << options.out_features()
         << ", bias=" << options.bias() << ")";
}

Tensor BilinearImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::bilinear(input1, input2, weight, bias);
}

FlattenImpl::FlattenImpl(const FlattenOptions& options_) : options(options_) {}

void FlattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Flatten(start_dim=" << options.start_dim() << ", end_dim=" << options.end_dim() << ")";
}

Tensor FlattenImpl::forward(const Tensor& input) { return flatten(input, options.start_dim(), options.end_dim()); }

UnflattenImpl::UnflattenImpl(UnflattenOptions options_) : options(std::move(options_)) {}

void UnflattenImpl::pretty_print(std::ostream& stream) const {
  auto print_sizes = [&stream](const auto& values, auto&& print_one) {
    stream << "{";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) stream << ", ";
      print_one(values[i]);
    }
    stream << "}";
  };
  if (options.namedshape().empty()) {
    stream << "torch::nn::Unflatten(dim=" << options.dim() << ", unflattened_size=";
    print_sizes(options.sizes(), [&](int64_t s) { stream << s; });
  } else {
    stream << "torch::nn::Unflatten(dim=\"" << options.dimname() << "\", unflattened_size=";
    print_sizes(options.namedshape(), [&](const auto& p) { stream << "{\"" << p.first << "\", " << p.second << "}"; });
  }
  stream << ")";
}

Tensor UnflattenImpl::forward(const Tensor& input) {
  EMBER_CHECK(options.namedshape().empty(),
              "Unflatten: named dimensions are not supported (Ember has no named "
              "tensors); give the dim as an integer");
  return unflatten(input, options.dim(), options.sizes());
}

}  // namespace torch::nn
