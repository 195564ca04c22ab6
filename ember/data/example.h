#pragma once
// Example: one (data, target) pair, the unit a Dataset returns and a
// collation stacks into a batch (torch::data::Example).
#include <utility>

#include "ember/core/tensor.h"

namespace torch::data {

namespace example {
// Marks an Example without a target (TensorExample).
using NoTarget = void;
}  // namespace example

template <typename Data = Tensor, typename Target = Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;

  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}

  Data data;
  Target target;
};

// An Example that holds only data; converts to and from its data.
template <typename Data>
struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;

  Example() = default;
  Example(Data data) : data(std::move(data)) {}  // NOLINT: implicit like LibTorch

  operator Data&() { return data; }              // NOLINT
  operator const Data&() const { return data; }  // NOLINT

  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

}  // namespace torch::data
