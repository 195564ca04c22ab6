// LibTorch spellings that <ember/torch.h> provides without the compat include dir:
// torch::optional / torch::nullopt (LibTorch's torch/types.h) and torch::data::Dataset /
// BatchDataset (LibTorch's torch/data.h), used the way LibTorch programs use them.
#include <gtest/gtest.h>

#include <type_traits>

#include "ember/torch.h"

namespace torch_spelling_test {

struct Squares : torch::data::Dataset<Squares> {
  torch::data::Example<> get(size_t i) override {
    const auto v = static_cast<double>(i);
    return {torch::full({1}, v), torch::full({1}, v * v)};
  }
  torch::optional<size_t> size() const override { return 6; }
};

struct Pairs : torch::data::BatchDataset<Pairs, std::vector<int64_t>> {
  std::vector<int64_t> get_batch(torch::ArrayRef<size_t> request) override {
    std::vector<int64_t> out;
    for (size_t i : request) out.push_back(static_cast<int64_t>(2 * i));
    return out;
  }
  torch::optional<size_t> size() const override { return torch::nullopt; }
};

TEST(TorchSpelling, OptionalIsStdOptional) {
  static_assert(std::is_same_v<torch::optional<int>, std::optional<int>>);
  static_assert(std::is_same_v<c10::optional<size_t>, std::optional<size_t>>);
  torch::optional<int> maybe = torch::nullopt;
  EXPECT_FALSE(maybe.has_value());
  maybe = 3;
  EXPECT_EQ(maybe.value(), 3);
}

TEST(TorchSpelling, DatasetBasesInTorchData) {
  static_assert(std::is_base_of_v<torch::data::datasets::Dataset<Squares>, Squares>);
  Squares ds;
  EXPECT_EQ(ds.size().value(), 6u);
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      ds.map(torch::data::transforms::Stack<>()), 3);
  double sum = 0;
  for (auto& batch : *loader) sum += batch.target.sum().item<double>();
  EXPECT_DOUBLE_EQ(sum, 0 + 1 + 4 + 9 + 16 + 25);

  Pairs pairs;
  EXPECT_FALSE(pairs.size().has_value());
  const std::vector<size_t> req = {1, 3};
  EXPECT_EQ(pairs.get_batch(req), (std::vector<int64_t>{2, 6}));
}

}  // namespace torch_spelling_test
