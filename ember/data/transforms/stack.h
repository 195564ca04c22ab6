#pragma once
// Stack: collates a vector of examples into one example whose data (and
// target) are the examples' tensors stacked along a new dim 0.
#include <utility>
#include <vector>

#include "ember/data/example.h"
#include "ember/data/transforms/collate.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::data::transforms {

template <typename T = Example<>>
struct Stack;

template <>
struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override {
    std::vector<Tensor> data, targets;
    data.reserve(examples.size());
    targets.reserve(examples.size());
    for (auto& example : examples) {
      data.push_back(std::move(example.data));
      targets.push_back(std::move(example.target));
    }
    return {ember::stack(data), ember::stack(targets)};
  }
};

template <>
struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override {
    std::vector<Tensor> data;
    data.reserve(examples.size());
    for (auto& example : examples) data.push_back(std::move(example.data));
    return ember::stack(data);
  }
};

}  // namespace torch::data::transforms
