#pragma once
// TensorDataset: examples are the rows (dim 0) of one tensor.
#include <cstddef>
#include <optional>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::data::datasets {

struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  // Stacks the tensors along a new dim 0.
  explicit TensorDataset(const std::vector<Tensor>& tensors) : TensorDataset(ember::stack(tensors)) {}
  explicit TensorDataset(Tensor tensor) : tensor(std::move(tensor)) {
    EMBER_CHECK(this->tensor.defined() && this->tensor.dim() > 0,
                "TensorDataset: expected a defined tensor with at least one dimension");
  }

  TensorExample get(size_t index) override {
    EMBER_CHECK(index < static_cast<size_t>(tensor.size(0)), "TensorDataset: index ", index,
                " out of range for a dataset of size ", tensor.size(0));
    return tensor[static_cast<int64_t>(index)];
  }

  std::optional<size_t> size() const override { return static_cast<size_t>(tensor.size(0)); }

  Tensor tensor;
};

}  // namespace torch::data::datasets
