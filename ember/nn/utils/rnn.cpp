#include "ember/nn/utils/rnn.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"

namespace torch::nn::utils::rnn {

namespace {

std::vector<int64_t> int64_values(const Tensor& t) {
  Tensor c = t.to(kInt64).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

// Note [Tie order of enforce_sorted=false]
// PyTorch orders the batch with torch.sort(lengths, descending=True), which is
// not stable: its CPU kernel calls std::sort on (length, index) pairs that
// start in index order, comparing lengths with >. libstdc++'s std::sort is an
// insertion sort up to 16 elements (so small batches keep tied sequences in
// their original order) and an introsort above, which permutes ties. The
// permutation is a function of the comparison results alone, so running the
// same algorithm on the same pairs reproduces PyTorch's order exactly, ties
// included (Ember's own sort is always stable and would differ above 16).
std::vector<int64_t> descending_order(const std::vector<int64_t>& lengths) {
  std::vector<std::pair<int64_t, int64_t>> kv(lengths.size());
  for (size_t i = 0; i < lengths.size(); ++i) kv[i] = {lengths[i], static_cast<int64_t>(i)};
  std::sort(kv.begin(), kv.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int64_t> order(kv.size());
  for (size_t i = 0; i < kv.size(); ++i) order[i] = kv[i].second;
  return order;
}

}  // namespace

Tensor invert_permutation(const Tensor& permutation) {
  if (!permutation.defined()) return {};
  EMBER_CHECK(permutation.dim() == 1, "invert_permutation: expected a 1-D index tensor, got ", permutation.sizes());
  const std::vector<int64_t> perm = int64_values(permutation);
  std::vector<int64_t> inv(perm.size(), -1);
  for (size_t i = 0; i < perm.size(); ++i) {
    EMBER_CHECK(perm[i] >= 0 && perm[i] < static_cast<int64_t>(perm.size()) && inv[perm[i]] < 0,
                "invert_permutation: not a permutation of 0..", perm.size() - 1);
    inv[perm[i]] = static_cast<int64_t>(i);
  }
  return tensor(inv, TensorOptions().dtype(kInt64));
}

PackedSequence::PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices, Tensor unsorted_indices)
    : data_(std::move(data)),
      batch_sizes_(std::move(batch_sizes)),
      sorted_indices_(std::move(sorted_indices)),
      unsorted_indices_(std::move(unsorted_indices)) {
  EMBER_CHECK(data_.defined() && batch_sizes_.defined() && batch_sizes_.dim() == 1,
              "PackedSequence: expected data and a 1-D batch_sizes tensor");
  if (!unsorted_indices_.defined()) unsorted_indices_ = invert_permutation(sorted_indices_);
}

PackedSequence PackedSequence::to(ScalarType dtype) const {
  return PackedSequence(data_.to(dtype), batch_sizes_, sorted_indices_, unsorted_indices_);
}

PackedSequence PackedSequence::to(const TensorOptions& options) const {
  Tensor data = data_.to(options);
  const auto follow = [&](const Tensor& t) { return t.defined() ? t.to(data.device()) : t; };
  return PackedSequence(data, batch_sizes_, follow(sorted_indices_), follow(unsorted_indices_));
}

PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first, bool enforce_sorted) {
  EMBER_CHECK(input.dim() >= 2, "pack_padded_sequence: expected input of at least 2 dims, got ", input.sizes());
  EMBER_CHECK(lengths.dim() == 1, "pack_padded_sequence: expected 1-D lengths, got ", lengths.sizes());
  EMBER_CHECK(input.numel() > 0, "pack_padded_sequence: Cannot pack empty tensors (got input of shape ", input.sizes(),
              ")");
  const int64_t batch_dim = batch_first ? 0 : 1;
  EMBER_CHECK(lengths.numel() == input.size(batch_dim), "pack_padded_sequence: expected ", input.size(batch_dim),
              " lengths for input of shape ", input.sizes(), " (batch_first=", batch_first, "), got ", lengths.numel());
  Tensor sorted_indices;
  lengths = lengths.to(kInt64);
  if (!enforce_sorted) {
    sorted_indices = tensor(descending_order(int64_values(lengths)), TensorOptions().dtype(kInt64));
    lengths = index_select(lengths, 0, sorted_indices);
    input = index_select(input, batch_dim, sorted_indices);
  }
  if (batch_first) input = input.transpose(0, 1);
  const std::vector<int64_t> len = int64_values(lengths);
  for (size_t b = 0; b < len.size(); ++b) {
    EMBER_CHECK(len[b] > 0, "pack_padded_sequence: length of every sequence must be > 0, got ", len[b],
                " at batch index ", b);
    EMBER_CHECK(len[b] <= input.size(0), "pack_padded_sequence: length ", len[b],
                " exceeds the input's sequence length ", input.size(0));
    EMBER_CHECK(b == 0 || len[b] <= len[b - 1],
                "pack_padded_sequence: `lengths` array must be sorted in decreasing order when "
                "`enforce_sorted` is true. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement");
  }
  // Step t holds the sequences longer than t, which are a prefix of the sorted batch.
  std::vector<int64_t> batch_sizes;
  std::vector<Tensor> steps;
  for (int64_t t = 0; !len.empty() && t < len[0]; ++t) {
    int64_t bs = 0;
    while (bs < static_cast<int64_t>(len.size()) && len[bs] > t) ++bs;
    batch_sizes.push_back(bs);
    steps.push_back(input.select(0, t).narrow(0, 0, bs));
  }
  return PackedSequence(cat(steps, 0), tensor(batch_sizes, TensorOptions().dtype(kInt64)), sorted_indices, {});
}

std::tuple<Tensor, Tensor> pad_packed_sequence(const PackedSequence& sequence, bool batch_first, double padding_value,
                                               std::optional<int64_t> total_length) {
  const Tensor& data = sequence.data();
  const std::vector<int64_t> batch_sizes = int64_values(sequence.batch_sizes());
  const int64_t steps = static_cast<int64_t>(batch_sizes.size());
  EMBER_CHECK(steps > 0, "pad_packed_sequence: empty PackedSequence");
  const int64_t batch = batch_sizes[0];
  int64_t out_len = steps;
  if (total_length) {
    EMBER_CHECK(*total_length >= steps,
                "pad_packed_sequence: Expected total_length to be at least the length of the "
                "longest sequence in input, but got total_length=",
                *total_length, " and max sequence length being ", steps);
    out_len = *total_length;
  }
  std::vector<int64_t> row_shape(data.sizes().begin(), data.sizes().end());
  std::vector<Tensor> rows;
  int64_t offset = 0;
  std::vector<int64_t> lengths(batch, 0);
  for (int64_t t = 0; t < out_len; ++t) {
    const int64_t bs = t < steps ? batch_sizes[t] : 0;
    std::vector<Tensor> parts;
    if (bs > 0) parts.push_back(data.narrow(0, offset, bs));
    if (bs < batch) {
      row_shape[0] = batch - bs;
      parts.push_back(full(row_shape, padding_value, data.options()));
    }
    rows.push_back(parts.size() == 1 ? parts[0] : cat(parts, 0));
    for (int64_t b = 0; b < bs; ++b) ++lengths[b];
    offset += bs;
  }
  Tensor padded = stack(rows, batch_first ? 1 : 0);
  Tensor lengths_t = tensor(lengths, TensorOptions().dtype(kInt64));
  if (sequence.unsorted_indices().defined()) {
    padded = index_select(padded, batch_first ? 0 : 1, sequence.unsorted_indices());
    lengths_t = index_select(lengths_t, 0, sequence.unsorted_indices());
  }
  return {padded, lengths_t};
}

Tensor pad_sequence(TensorList sequences, bool batch_first, double padding_value) {
  EMBER_CHECK(!sequences.empty(), "pad_sequence: received an empty list of sequences");
  int64_t max_len = 0;
  for (const Tensor& s : sequences) {
    EMBER_CHECK(s.dim() >= 1 && s.sizes().slice(1) == sequences[0].sizes().slice(1),
                "pad_sequence: sequences must have equal trailing dims, got ", sequences[0].sizes(), " and ",
                s.sizes());
    max_len = std::max(max_len, s.size(0));
  }
  std::vector<Tensor> padded;
  for (const Tensor& s : sequences) {
    if (s.size(0) == max_len) {
      padded.push_back(s);
      continue;
    }
    std::vector<int64_t> tail(s.sizes().begin(), s.sizes().end());
    tail[0] = max_len - s.size(0);
    padded.push_back(cat({s, full(tail, padding_value, s.options())}, 0));
  }
  return stack(padded, batch_first ? 0 : 1);
}

PackedSequence pack_sequence(TensorList sequences, bool enforce_sorted) {
  std::vector<int64_t> lengths;
  for (const Tensor& s : sequences) lengths.push_back(s.dim() > 0 ? s.size(0) : 0);
  return pack_padded_sequence(pad_sequence(sequences), tensor(lengths, TensorOptions().dtype(kInt64)), false,
                              enforce_sorted);
}

}  // namespace torch::nn::utils::rnn
