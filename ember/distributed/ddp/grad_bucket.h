#pragma once
// GradBucket (torch.distributed.GradBucket): the flattened gradients of some
// parameters, handed to a communication hook to reduce.
#include <vector>

#include "ember/core/tensor.h"

namespace torch::distributed {

class GradBucket {
 public:
  GradBucket(size_t index, size_t num_buckets, Tensor buffer, std::vector<Tensor> parameters,
             std::vector<int64_t> offsets)
      : index_(index),
        num_buckets_(num_buckets),
        buffer_(std::move(buffer)),
        parameters_(std::move(parameters)),
        offsets_(std::move(offsets)) {}
  size_t index() const { return index_; }
  // The bucket's one flat tensor: every parameter's gradient, back to back.
  const Tensor& buffer() const { return buffer_; }
  void set_buffer(const Tensor& t) { buffer_.copy_(t); }
  // Each parameter's gradient as a view of buffer(), shaped like the parameter.
  std::vector<Tensor> gradients() const;
  const std::vector<Tensor>& parameters() const { return parameters_; }
  bool is_last() const { return index_ + 1 == num_buckets_; }

 private:
  size_t index_, num_buckets_;
  Tensor buffer_;
  std::vector<Tensor> parameters_;
  std::vector<int64_t> offsets_;
};

}  // namespace torch::distributed
