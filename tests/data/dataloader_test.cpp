// DataLoader: the LibTorch call shapes, batching and drop_last, epochs,
// worker threads (same batches in the same order for any worker count),
// exceptions from workers, timeouts, and shutdown mid-epoch.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

using namespace std::chrono_literals;

// Example i has data [i, i] and target i; optionally slow or failing.
class IndexDataset : public torch::data::datasets::Dataset<IndexDataset> {
 public:
  explicit IndexDataset(size_t n, std::chrono::milliseconds delay = 0ms, int64_t fail_at = -1)
      : n_(n), delay_(delay), fail_at_(fail_at), calls_(std::make_shared<std::atomic<size_t>>(0)) {}
  torch::data::Example<> get(size_t index) override {
    ++*calls_;
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    if (static_cast<int64_t>(index) == fail_at_) throw std::runtime_error("bad example " + std::to_string(index));
    const auto i = static_cast<int64_t>(index);
    return {torch::full({2}, static_cast<double>(i), torch::kFloat), torch::tensor(i)};
  }
  std::optional<size_t> size() const override { return n_; }
  size_t calls() const { return *calls_; }

 private:
  size_t n_;
  std::chrono::milliseconds delay_;
  int64_t fail_at_;
  std::shared_ptr<std::atomic<size_t>> calls_;  // shared by the workers' copies
};

std::vector<int64_t> targets_of(const torch::Tensor& t) {
  auto c = t.contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

// All targets of `epochs` epochs, batch by batch.
template <typename Loader>
std::vector<std::vector<int64_t>> collect(Loader& loader, int epochs) {
  std::vector<std::vector<int64_t>> out;
  for (int e = 0; e < epochs; ++e)
    for (auto& batch : loader) out.push_back(targets_of(batch.target));
  return out;
}

TEST(DataLoader, SequentialBatchesAndLastPartialBatch) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(10).map(torch::data::transforms::Stack<>()), 4);
  EXPECT_EQ(loader->options().batch_size, 4u);
  std::vector<std::vector<int64_t>> expected{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
  EXPECT_EQ(collect(*loader, 1), expected);
  for (torch::data::Example<>& batch : *loader) {
    EXPECT_EQ(batch.data.sizes()[1], 2);
    EXPECT_EQ(batch.data.dtype(), torch::kFloat);
  }
}

TEST(DataLoader, DropLastAndOptionsChaining) {
  auto options = torch::data::DataLoaderOptions().batch_size(4).drop_last(true).workers(0);
  EXPECT_EQ(options.batch_size(), 4u);
  EXPECT_TRUE(options.drop_last());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(10).map(torch::data::transforms::Stack<>()), options);
  std::vector<std::vector<int64_t>> expected{{0, 1, 2, 3}, {4, 5, 6, 7}};
  EXPECT_EQ(collect(*loader, 1), expected);
  EXPECT_EQ(loader->options().max_jobs, 0u);
}

TEST(DataLoader, UnstackedBatchesAreVectorsOfExamples) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(5), torch::data::DataLoaderOptions().batch_size(2));
  size_t total = 0;
  for (const auto& batch : *loader) {
    static_assert(std::is_same_v<std::decay_t<decltype(batch)>, std::vector<torch::data::Example<>>>);
    total += batch.size();
  }
  EXPECT_EQ(total, 5u);
}

TEST(DataLoader, DefaultRandomSamplerCoversEachExampleOncePerEpoch) {
  auto loader = torch::data::make_data_loader(IndexDataset(50).map(torch::data::transforms::Stack<>()), 8);
  for (int epoch = 0; epoch < 2; ++epoch) {
    std::vector<int64_t> seen;
    size_t batches = 0;
    for (const auto& batch : *loader) {
      auto t = targets_of(batch.target);
      seen.insert(seen.end(), t.begin(), t.end());
      ++batches;
    }
    EXPECT_EQ(batches, 7u);
    std::sort(seen.begin(), seen.end());
    std::vector<int64_t> all(50);
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(seen, all);
  }
}

TEST(DataLoader, EachEpochDrawsANewPermutation) {
  torch::manual_seed(3);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      IndexDataset(64).map(torch::data::transforms::Stack<>()), 64);
  auto epochs = collect(*loader, 2);
  ASSERT_EQ(epochs.size(), 2u);
  EXPECT_NE(epochs[0], epochs[1]);
}

TEST(DataLoader, SameBatchesInSameOrderForAnyWorkerCount) {
  std::vector<std::vector<int64_t>> reference;
  for (size_t workers : {0, 1, 2, 4}) {
    for (size_t max_jobs : {1, 3, 8}) {
      if (workers == 0 && max_jobs != 1) continue;
      torch::manual_seed(1234);
      auto ds = IndexDataset(37).map(torch::data::transforms::Stack<>());
      auto loader = torch::data::make_data_loader(
          std::move(ds), torch::data::DataLoaderOptions().batch_size(5).workers(workers).max_jobs(max_jobs));
      auto got = collect(*loader, 3);
      if (reference.empty()) {
        reference = got;
        ASSERT_EQ(reference.size(), 24u);  // 3 epochs of 8 batches
      } else {
        EXPECT_EQ(got, reference) << "workers=" << workers << " max_jobs=" << max_jobs;
      }
    }
  }
}

TEST(DataLoader, UnorderedWorkersStillDeliverEveryBatch) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(40, 1ms).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(3).workers(3).enforce_ordering(false));
  std::vector<int64_t> seen;
  for (auto& batch : *loader) {
    auto t = targets_of(batch.target);
    seen.insert(seen.end(), t.begin(), t.end());
  }
  std::sort(seen.begin(), seen.end());
  std::vector<int64_t> all(40);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(seen, all);
}

TEST(DataLoader, FirstBatchThroughBeginAndArrow) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(6).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(3).workers(2));
  auto batch = *loader->begin();
  EXPECT_EQ(targets_of(batch.target), (std::vector<int64_t>{0, 1, 2}));
  auto it = loader->begin();
  EXPECT_EQ(it->data.size(0), 3);
  ++it;
  EXPECT_EQ(targets_of(it->target), (std::vector<int64_t>{3, 4, 5}));
  ++it;
  EXPECT_TRUE(it == loader->end());
  EXPECT_EMBER_ERROR(*it, "past the end");
}

TEST(DataLoader, WorkerExceptionsReachTheMainThread) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(20, 0ms, /*fail_at=*/9).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(4).workers(2));
  size_t good = 0;
  try {
    for (auto& batch : *loader) {
      (void)batch;
      ++good;
    }
    ADD_FAILURE() << "expected the worker's exception";
  } catch (const torch::data::WorkerException& e) {
    EXPECT_NE(std::string(e.what()).find("bad example 9"), std::string::npos) << e.what();
    EXPECT_THROW(std::rethrow_exception(e.original_exception), std::runtime_error);
  }
  EXPECT_EQ(good, 2u);  // batches before the failing one arrive in order
  // The loader stays usable: a new epoch starts cleanly, delivers the same two
  // batches (indices 0-7 in order) and fails at the same example.
  std::vector<int64_t> seen;
  try {
    for (auto& batch : *loader)
      for (int64_t v : targets_of(batch.target)) seen.push_back(v);
    ADD_FAILURE() << "expected the worker's exception in the second epoch";
  } catch (const torch::data::WorkerException& e) {
    EXPECT_NE(std::string(e.what()).find("bad example 9"), std::string::npos) << e.what();
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(DataLoader, MainThreadExceptionsPropagateUnchanged) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(8, 0ms, 2).map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(4));
  try {
    (void)collect(*loader, 1);
    ADD_FAILURE() << "expected the dataset's exception";
  } catch (const ember::Error& e) {
    ADD_FAILURE() << "the dataset's std::runtime_error arrived wrapped: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad example 2"), std::string::npos) << e.what();
  }
}

TEST(DataLoader, TimeoutRaises) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(4, 300ms), torch::data::DataLoaderOptions().batch_size(1).workers(1).timeout(5ms));
  EXPECT_EMBER_ERROR(loader->begin() == loader->end(), "DataLoader", "timeout");
}

TEST(DataLoader, DestroyingMidEpochJoinsWorkers) {
  IndexDataset ds(1000, 1ms);
  {
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        ds, torch::data::DataLoaderOptions().batch_size(2).workers(4).max_jobs(8));
    auto it = loader->begin();
    EXPECT_EQ(it->size(), 2u);
  }  // must not hang or touch freed state
  EXPECT_LT(ds.calls(), 1000u);
}

TEST(DataLoader, BreakingOutThenRestartingGivesAFullEpoch) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      IndexDataset(30).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(3).workers(3));
  for (auto& batch : *loader) {
    (void)batch;
    break;
  }
  auto epoch = collect(*loader, 1);
  ASSERT_EQ(epoch.size(), 10u);
  EXPECT_EQ(epoch.front(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(epoch.back(), (std::vector<int64_t>{27, 28, 29}));
}

TEST(DataLoader, ExplicitSamplerOverloadAndDistributedSampler) {
  torch::data::samplers::DistributedSequentialSampler sampler(10, /*num_replicas=*/2, /*rank=*/1);
  auto loader = torch::data::make_data_loader(IndexDataset(10).map(torch::data::transforms::Stack<>()), sampler,
                                              torch::data::DataLoaderOptions().batch_size(2));
  std::vector<std::vector<int64_t>> expected{{5, 6}, {7, 8}, {9}};
  EXPECT_EQ(collect(*loader, 1), expected);
}

// A stream dataset answers "the next n examples".
struct CountingStream : torch::data::datasets::StreamDataset<CountingStream, std::vector<int64_t>> {
  std::vector<int64_t> get_batch(size_t n) override {
    std::vector<int64_t> v(n);
    std::iota(v.begin(), v.end(), next);
    next += static_cast<int64_t>(n);
    return v;
  }
  std::optional<size_t> size() const override { return std::nullopt; }
  int64_t next = 0;
};

TEST(DataLoader, StreamDatasetWithStreamSampler) {
  auto loader = torch::data::make_data_loader(CountingStream(), torch::data::samplers::StreamSampler(7),
                                              torch::data::DataLoaderOptions().batch_size(3));
  std::vector<size_t> sizes;
  for (auto& batch : *loader) sizes.push_back(batch.size());
  EXPECT_EQ(sizes, (std::vector<size_t>{3, 3, 1}));
}

struct Unsized : torch::data::datasets::Dataset<Unsized> {
  torch::data::Example<> get(size_t) override { return {}; }
  std::optional<size_t> size() const override { return std::nullopt; }
};

TEST(DataLoader, RejectsBadOptionsAndUnsizedDatasets) {
  EXPECT_EMBER_ERROR(torch::data::make_data_loader(IndexDataset(4), torch::data::DataLoaderOptions().batch_size(0)),
                     "DataLoader", "batch_size");
  EXPECT_EMBER_ERROR(
      torch::data::make_data_loader(IndexDataset(4), torch::data::DataLoaderOptions().workers(2).max_jobs(0)),
      "DataLoader", "max_jobs");
  EXPECT_EMBER_ERROR(torch::data::make_data_loader(Unsized(), torch::data::DataLoaderOptions()), "make_data_loader",
                     "sized");
}

}  // namespace
