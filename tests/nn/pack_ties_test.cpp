// pack_padded_sequence / pack_sequence with enforce_sorted=false and tied lengths against
// torch 1.13 (tools/golden/gen_pack_ties.py): the order of tied sequences (Note [Tie order
// of enforce_sorted=false]) decides sorted_indices and the packed data.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace pack_ties_test {

using ember::testing::Golden;
using torch::Tensor;
namespace rnn_utils = torch::nn::utils::rnn;

const Golden& golden() {
  static const Golden g("pack_ties.golden");
  return g;
}

// The padded input of the generator: value (t * 1000 + b, -(t * 1000 + b)) at [t, b].
Tensor padded(const std::vector<int64_t>& lengths) {
  const int64_t T = *std::max_element(lengths.begin(), lengths.end()), B = static_cast<int64_t>(lengths.size());
  Tensor v = torch::arange(T, torch::kDouble).view({T, 1, 1}) * 1000 + torch::arange(B, torch::kDouble).view({1, B, 1});
  return torch::cat({v, -v}, 2);
}

TEST(PackTies, MatchesTorchOrder) {
  for (const char* name : {"small", "sixteen", "seventeen", "thirty", "all_equal_40", "random_70"}) {
    SCOPED_TRACE(name);
    const std::string n(name);
    const Tensor lengths = golden()[n + ".lengths"];
    std::vector<int64_t> len(lengths.data_ptr<int64_t>(), lengths.data_ptr<int64_t>() + lengths.numel());
    const Tensor x = padded(len);
    auto p = rnn_utils::pack_padded_sequence(x, lengths, /*batch_first=*/false, /*enforce_sorted=*/false);
    EXPECT_TENSOR_EQ(p.sorted_indices(), golden()[n + ".sorted_indices"]);
    EXPECT_TENSOR_EQ(p.unsorted_indices(), golden()[n + ".unsorted_indices"]);
    EXPECT_TENSOR_EQ(p.batch_sizes(), golden()[n + ".batch_sizes"]);
    EXPECT_TENSOR_EQ(p.data(), golden()[n + ".data"]);
    auto bf = rnn_utils::pack_padded_sequence(x.transpose(0, 1), lengths, /*batch_first=*/true, false);
    EXPECT_TENSOR_EQ(bf.data(), golden()[n + ".data"]);
    // Unpacking restores the caller's order.
    auto [unpacked, out_lengths] = rnn_utils::pad_packed_sequence(p);
    EXPECT_TENSOR_EQ(out_lengths, lengths);
    for (int64_t b = 0; b < lengths.numel(); ++b)
      EXPECT_TENSOR_EQ(unpacked.select(1, b).narrow(0, 0, len[b]), x.select(1, b).narrow(0, 0, len[b]));
  }
}

TEST(PackTies, PackSequenceMatchesTorchOrder) {
  const Tensor lengths = golden()["thirty.lengths"];
  std::vector<Tensor> seqs;
  for (int64_t i = 0; i < lengths.numel(); ++i)
    seqs.push_back(torch::full({lengths[i].item<int64_t>(), 1}, static_cast<double>(i)));
  auto p = rnn_utils::pack_sequence(seqs, /*enforce_sorted=*/false);
  EXPECT_TENSOR_EQ(p.sorted_indices(), golden()["pack_sequence.sorted_indices"]);
  EXPECT_TENSOR_EQ(p.data(), golden()["pack_sequence.data"]);
}

}  // namespace pack_ties_test
