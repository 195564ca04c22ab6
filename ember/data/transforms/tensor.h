#pragma once
// Transforms of an example's data tensor (the target passes through):
// TensorTransform, TensorLambda and Normalize.
#include <functional>
#include <utility>

#include "ember/core/array_ref.h"
#include "ember/data/example.h"
#include "ember/data/transforms/base.h"
#include "ember/ops/factory/factory.h"

namespace torch::data::transforms {

template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;

  virtual Tensor operator()(Tensor input) = 0;

  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;

  explicit TensorLambda(FunctionType function) : function_(std::move(function)) {}

  Tensor operator()(Tensor input) override { return function_(std::move(input)); }

 private:
  FunctionType function_;
};

// (data - mean) / stddev with one value per channel (dim -3 of the data) or a
// single value for all: mean and stddev are float32 tensors of shape (C, 1, 1).
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(make_channel_tensor(mean, "mean")), stddev(make_channel_tensor(stddev, "stddev")) {}

  Tensor operator()(Tensor input) override { return input.sub(mean).div(stddev); }

  Tensor mean, stddev;

 private:
  static Tensor make_channel_tensor(ArrayRef<double> values, const char* what) {
    EMBER_CHECK(!values.empty(), "Normalize: ", what, " must have at least one value");
    return ember::tensor(values, kFloat32).unsqueeze(/*dim=*/1).unsqueeze(/*dim=*/2);
  }
};

}  // namespace torch::data::transforms
