#pragma once
// Linear, Identity, Flatten, Unflatten, as in torch/nn/modules/linear.h.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/linear.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

// Returns its input unchanged; a placeholder layer.
class IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  template <typename... Args>
  explicit IdentityImpl(const Args&...) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
};
EMBER_NN_MODULE(Identity);

// y = x W^T + b with W: [out_features, in_features], initialised as PyTorch:
// W, b ~ U(-1/sqrt(in_features), 1/sqrt(in_features)).
class LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features) : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;  // undefined when options.bias() is false
};
EMBER_NN_MODULE(Linear);

// y = x1^T A x2 + b with weight A: [out, in1, in2], initialised as PyTorch:
// A, b ~ U(-1/sqrt(in1_features), 1/sqrt(in1_features)).
class BilinearImpl : public Cloneable<BilinearImpl> {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : BilinearImpl(BilinearOptions(in1_features, in2_features, out_features)) {}
  explicit BilinearImpl(const BilinearOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);

  BilinearOptions options;
  Tensor weight;
  Tensor bias;  // undefined when options.bias() is false
};
EMBER_NN_MODULE(Bilinear);

// Flattens dims start_dim..end_dim into one.
class FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  FlattenOptions options;
};
EMBER_NN_MODULE(Flatten);

// Splits dim into the given sizes.
class UnflattenImpl : public Cloneable<UnflattenImpl> {
 public:
  UnflattenImpl(int64_t dim, std::vector<int64_t> sizes) : UnflattenImpl(UnflattenOptions(dim, std::move(sizes))) {}
  UnflattenImpl(std::string dimname, UnflattenOptions::namedshape_t namedshape)
      : UnflattenImpl(UnflattenOptions(std::move(dimname), std::move(namedshape))) {}
  explicit UnflattenImpl(UnflattenOptions options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  UnflattenOptions options;
};
EMBER_NN_MODULE(Unflatten);

}  // namespace torch::nn
