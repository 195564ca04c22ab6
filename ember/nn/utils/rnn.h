#pragma once
// PackedSequence and the padding/packing helpers, as torch::nn::utils::rnn.
// A PackedSequence stores variable-length sequences time step by time step:
// `data` is [sum(batch_sizes), *] with the batch_sizes[t] sequences still running
// at step t stacked at offset sum(batch_sizes[:t]); sequences are ordered by
// decreasing length (sorted_indices maps that order back to the caller's batch).
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::nn::utils::rnn {

class PackedSequence {
 public:
  // batch_sizes: int64 [T]; unsorted_indices defaults to the inverse of sorted_indices.
  explicit PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices = {}, Tensor unsorted_indices = {});

  const Tensor& data() const { return data_; }
  const Tensor& batch_sizes() const { return batch_sizes_; }
  const Tensor& sorted_indices() const { return sorted_indices_; }
  const Tensor& unsorted_indices() const { return unsorted_indices_; }
  // The same sequence with `data` converted (batch_sizes and indices stay int64).
  PackedSequence to(ScalarType dtype) const;
  // `data` to the options' dtype and device; the indices follow the device, batch_sizes stays on
  // the CPU (LibTorch's PackedSequence::to).
  PackedSequence to(const TensorOptions& options) const;
  PackedSequence cpu() const { return to(TensorOptions(kCPU)); }
  PackedSequence cuda() const { return to(TensorOptions(kCUDA)); }  // raises: no CUDA
  bool is_cuda() const { return data_.is_cuda(); }
  bool is_floating_point() const { return data_.is_floating_point(); }

 private:
  Tensor data_, batch_sizes_, sorted_indices_, unsorted_indices_;
};

// The permutation p with p[perm[i]] = i.
Tensor invert_permutation(const Tensor& permutation);

// input: [T, B, *] ([B, T, *] when batch_first), lengths: B lengths (int64, or a list).
// enforce_sorted = true requires decreasing lengths; otherwise the batch is sorted and the
// permutation recorded. Differentiable with respect to input.
PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first = false, bool enforce_sorted = true);
// Inverse of pack_padded_sequence: returns (padded [T, B, *], lengths int64 [B]) in the caller's
// batch order; total_length pads the time dim beyond the longest sequence.
std::tuple<Tensor, Tensor> pad_packed_sequence(const PackedSequence& sequence, bool batch_first = false,
                                               double padding_value = 0.0,
                                               std::optional<int64_t> total_length = std::nullopt);
// Stacks sequences [L_i, *] into [max L, B, *] ([B, max L, *] when batch_first), padding the tail.
Tensor pad_sequence(TensorList sequences, bool batch_first = false, double padding_value = 0.0);
// pack_padded_sequence(pad_sequence(sequences), their lengths, false, enforce_sorted).
PackedSequence pack_sequence(TensorList sequences, bool enforce_sorted = true);

}  // namespace torch::nn::utils::rnn
