// Datasets and transforms: custom Dataset subclasses, get_batch, .map
// chaining, Normalize (golden values from PyTorch), Stack, Lambda, Collation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace {

// The shape of a LibTorch tutorial's custom dataset.
class SquaresDataset : public torch::data::datasets::Dataset<SquaresDataset> {
 public:
  explicit SquaresDataset(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<double>(index);
    return {torch::full({2}, i, torch::kFloat), torch::tensor(static_cast<int64_t>(index * index))};
  }
  std::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

TEST(DataDataset, CustomDatasetGetBatchGathersInRequestOrder) {
  SquaresDataset ds(5);
  EXPECT_EQ(ds.size().value(), 5u);
  std::vector<size_t> idx{3, 0, 4};
  auto batch = ds.get_batch(idx);
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[0].target.item<int64_t>(), 9);
  EXPECT_EQ(batch[1].target.item<int64_t>(), 0);
  EXPECT_EQ(batch[2].target.item<int64_t>(), 16);
  EXPECT_TENSOR_EQ(batch[2].data, torch::full({2}, 4.0, torch::kFloat));
}

TEST(DataDataset, MapStackStacksDataAndTargets) {
  auto ds = SquaresDataset(4).map(torch::data::transforms::Stack<>());
  EXPECT_EQ(ds.size().value(), 4u);
  torch::data::Example<> batch = ds.get_batch(std::vector<size_t>{1, 2});
  EXPECT_EQ(batch.data.sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_TENSOR_EQ(batch.target, torch::tensor({int64_t{1}, int64_t{4}}));
}

TEST(DataDataset, MapChainsLambdaThenStack) {
  using torch::data::Example;
  SquaresDataset base(3);
  auto ds = base.map(torch::data::transforms::Lambda<Example<>>([](Example<> e) {
                  e.data = e.data * 10;
                  return e;
                }))
                .map(torch::data::transforms::Stack<>());
  auto batch = ds.get_batch(std::vector<size_t>{2});
  EXPECT_TENSOR_EQ(batch.data, torch::full({1, 2}, 20.0, torch::kFloat));
  // The source stays usable: map(&) copied it.
  EXPECT_EQ(base.get(1).target.item<int64_t>(), 1);
}

TEST(DataDataset, TensorLambdaTransformsDataOnly) {
  auto ds = SquaresDataset(3).map(torch::data::transforms::TensorLambda<>([](torch::Tensor t) { return t + 1; }));
  auto batch = ds.get_batch(std::vector<size_t>{2});
  EXPECT_TENSOR_EQ(batch[0].data, torch::full({2}, 3.0, torch::kFloat));
  EXPECT_EQ(batch[0].target.item<int64_t>(), 4);
}

TEST(DataDataset, NormalizePerChannelMatchesPyTorch) {
  ember::testing::Golden g("data.golden");
  auto mean_t = g["normalize_channels_mean"];
  auto std_t = g["normalize_channels_std"];
  std::vector<double> mean(mean_t.data_ptr<double>(), mean_t.data_ptr<double>() + 3);
  std::vector<double> stddev(std_t.data_ptr<double>(), std_t.data_ptr<double>() + 3);
  torch::data::transforms::Normalize<> normalize(mean, stddev);
  EXPECT_EQ(normalize.mean.sizes(), (std::vector<int64_t>{3, 1, 1}));
  EXPECT_EQ(normalize.mean.dtype(), torch::kFloat);
  auto out = normalize.apply({g["normalize_channels_input"], torch::tensor(int64_t{7})});
  EXPECT_TENSOR_CLOSE(out.data, g["normalize_channels_expected"]);
  EXPECT_EQ(out.target.item<int64_t>(), 7);
}

TEST(DataDataset, NormalizeScalarMatchesPyTorch) {
  ember::testing::Golden g("data.golden");
  torch::data::transforms::Normalize<> normalize(0.1307, 0.3081);
  EXPECT_TENSOR_CLOSE(normalize(g["normalize_scalar_input"]), g["normalize_scalar_expected"]);
}

TEST(DataDataset, NormalizeRejectsEmptyStatistics) {
  std::vector<double> none;
  EXPECT_EMBER_ERROR(torch::data::transforms::Normalize<>(none, 0.5), "Normalize", "mean");
  EXPECT_EMBER_ERROR(torch::data::transforms::Normalize<>(0.5, none), "Normalize", "stddev");
}

TEST(DataDataset, StackOfTensorExamples) {
  torch::data::datasets::TensorDataset ds(torch::arange(12).reshape({4, 3}));
  EXPECT_EQ(ds.size().value(), 4u);
  auto stacked = ds.map(torch::data::transforms::Stack<torch::data::TensorExample>());
  torch::data::TensorExample batch = stacked.get_batch(std::vector<size_t>{3, 1});
  EXPECT_TENSOR_EQ(batch.data, torch::tensor({{9, 10, 11}, {3, 4, 5}}));
  EXPECT_EMBER_ERROR(ds.get(4), "TensorDataset", "out of range");
}

TEST(DataDataset, TensorDatasetFromVectorStacks) {
  torch::data::datasets::TensorDataset ds(std::vector<torch::Tensor>{torch::zeros({2}), torch::ones({2})});
  EXPECT_EQ(ds.size().value(), 2u);
  EXPECT_TENSOR_EQ(ds.get(1).data, torch::ones({2}));
}

// A hand-written collation, as LibTorch programs derive from Collation<T>.
struct SumTargets : torch::data::transforms::Collation<torch::Tensor, std::vector<torch::data::Example<>>> {
  torch::Tensor apply_batch(std::vector<torch::data::Example<>> examples) override {
    torch::Tensor total = torch::zeros({}, torch::kLong);
    for (auto& e : examples) total = total + e.target;
    return total;
  }
};

TEST(DataDataset, CustomCollationAndCollate) {
  auto ds = SquaresDataset(4).map(SumTargets());
  EXPECT_EQ(ds.get_batch(std::vector<size_t>{1, 2, 3}).item<int64_t>(), 14);
  auto counted = SquaresDataset(4).map(torch::data::transforms::Collate<size_t, std::vector<torch::data::Example<>>>(
      [](std::vector<torch::data::Example<>> v) { return v.size(); }));
  EXPECT_EQ(counted.get_batch(std::vector<size_t>{0, 1}), 2u);
}

TEST(DataDataset, BatchLambdaMapsWholeBatch) {
  using Batch = std::vector<torch::data::Example<>>;
  auto ds = SquaresDataset(4).map(torch::data::transforms::BatchLambda<Batch>([](Batch b) {
    b.pop_back();
    return b;
  }));
  EXPECT_EQ(ds.get_batch(std::vector<size_t>{0, 1, 2}).size(), 2u);
}

}  // namespace

namespace {

TEST(DataDataset, SharedDatasetCopiesReachOneDataset) {
  auto shared = torch::data::datasets::make_shared_dataset<SquaresDataset>(6);
  auto copy = shared;
  EXPECT_EQ(copy.size().value(), 6u);
  EXPECT_EQ(&*copy, &*shared);
  auto batch = copy.map(torch::data::transforms::Stack<>()).get_batch(std::vector<size_t>{5});
  EXPECT_EQ(batch.target.item<int64_t>(), 25);
}

}  // namespace
