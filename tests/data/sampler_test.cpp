// Samplers: sequential, random (reproducible under manual_seed), the
// distributed pair (slices per rank, padding, epoch-seeded shuffle), stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

using torch::data::samplers::DistributedRandomSampler;
using torch::data::samplers::DistributedSequentialSampler;
using torch::data::samplers::RandomSampler;
using torch::data::samplers::SequentialSampler;
using Indices = std::vector<size_t>;

template <typename S>
Indices drain(S& sampler, size_t batch_size) {
  Indices all;
  while (auto batch = sampler.next(batch_size)) {
    EXPECT_LE(batch->size(), batch_size);
    EXPECT_FALSE(batch->empty());
    all.insert(all.end(), batch->begin(), batch->end());
  }
  return all;
}

Indices iota(size_t n, size_t start = 0) {
  Indices v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

TEST(DataSampler, SequentialBatchesInOrder) {
  SequentialSampler s(5);
  EXPECT_EQ(s.next(2).value(), (Indices{0, 1}));
  EXPECT_EQ(s.next(2).value(), (Indices{2, 3}));
  EXPECT_EQ(s.next(2).value(), (Indices{4}));
  EXPECT_FALSE(s.next(2).has_value());
  EXPECT_EQ(s.index(), 5u);
  s.reset();
  EXPECT_EQ(drain(s, 3), iota(5));
  s.reset(2);
  EXPECT_EQ(drain(s, 3), iota(2));
  SequentialSampler empty(0);
  EXPECT_FALSE(empty.next(1).has_value());
}

TEST(DataSampler, RandomIsAPermutationReproducibleUnderManualSeed) {
  torch::manual_seed(42);
  RandomSampler a(100);
  Indices first = drain(a, 7);
  Indices sorted = first;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, iota(100));
  EXPECT_NE(first, iota(100));

  torch::manual_seed(42);
  RandomSampler b(100);
  EXPECT_EQ(drain(b, 100), first);

  // Each reset draws a new permutation.
  a.reset();
  Indices second = drain(a, 10);
  EXPECT_NE(second, first);
  std::sort(second.begin(), second.end());
  EXPECT_EQ(second, iota(100));

  a.reset(3);
  Indices small = drain(a, 10);
  std::sort(small.begin(), small.end());
  EXPECT_EQ(small, iota(3));
}

TEST(DataSampler, RandomRejectsBadArguments) {
  EXPECT_EMBER_ERROR(RandomSampler(-1), "RandomSampler", "non-negative");
  EXPECT_EMBER_ERROR(RandomSampler(3, torch::kFloat), "RandomSampler", "integer");
  RandomSampler empty(0);
  EXPECT_FALSE(empty.next(4).has_value());
}

TEST(DataSampler, DistributedSequentialSlicesPerRank) {
  // 10 samples over 3 replicas: 4 each, the last rank wraps around.
  DistributedSequentialSampler r0(10, 3, 0), r1(10, 3, 1), r2(10, 3, 2);
  EXPECT_EQ(drain(r0, 3), (Indices{0, 1, 2, 3}));
  EXPECT_EQ(drain(r1, 3), (Indices{4, 5, 6, 7}));
  EXPECT_EQ(drain(r2, 3), (Indices{8, 9, 0, 1}));
  r2.reset();
  EXPECT_EQ(drain(r2, 10), (Indices{8, 9, 0, 1}));

  // Without duplicates the remainder is dropped.
  DistributedSequentialSampler d2(10, 3, 2, /*allow_duplicates=*/false);
  EXPECT_EQ(drain(d2, 2), (Indices{6, 7, 8}));
  d2.reset(4);
  EXPECT_EQ(drain(d2, 2), (Indices{2}));
}

TEST(DataSampler, DistributedRandomCoversEverySampleAcrossRanks) {
  for (bool dup : {true, false}) {
    std::multiset<size_t> seen;
    for (size_t rank = 0; rank < 3; ++rank) {
      DistributedRandomSampler s(12, 3, rank, dup);
      Indices mine = drain(s, 5);
      EXPECT_EQ(mine.size(), 4u);
      seen.insert(mine.begin(), mine.end());
    }
    const Indices all = iota(12);
    EXPECT_EQ(seen, std::multiset<size_t>(all.begin(), all.end()));
  }
  // Padding: 10 samples over 3 ranks with duplicates gives 12 draws covering all 10.
  std::set<size_t> covered;
  size_t draws = 0;
  for (size_t rank = 0; rank < 3; ++rank) {
    DistributedRandomSampler s(10, 3, rank);
    Indices mine = drain(s, 5);
    draws += mine.size();
    covered.insert(mine.begin(), mine.end());
  }
  EXPECT_EQ(draws, 12u);
  EXPECT_EQ(covered.size(), 10u);
  // More replicas than samples: the padding is longer than the dataset and wraps
  // around it (2 samples over 5 ranks, 1 each), never past its end.
  for (size_t rank = 0; rank < 5; ++rank) {
    DistributedRandomSampler s(2, 5, rank);
    const Indices mine = drain(s, 4);
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_LT(mine[0], 2u) << "rank " << rank;
  }
}

TEST(DataSampler, DistributedRandomShuffleFollowsEpoch) {
  DistributedRandomSampler a(50), b(50);
  Indices ea = drain(a, 50);
  EXPECT_EQ(drain(b, 50), ea);  // same epoch, same order on every replica
  a.set_epoch(1);
  EXPECT_EQ(a.epoch(), 1u);
  a.reset();
  Indices e1 = drain(a, 50);
  EXPECT_NE(e1, ea);
  std::sort(e1.begin(), e1.end());
  EXPECT_EQ(e1, iota(50));
}

TEST(DataSampler, DistributedRejectsBadRank) {
  EXPECT_EMBER_ERROR(DistributedSequentialSampler(10, 2, 2), "DistributedSampler", "rank");
  EXPECT_EMBER_ERROR(DistributedRandomSampler(10, 0, 0), "DistributedSampler", "num_replicas");
}

TEST(DataSampler, StreamSamplerRequestsSizes) {
  torch::data::samplers::StreamSampler s(10);
  EXPECT_EQ(s.next(4)->size(), 4u);
  EXPECT_EQ(s.next(4)->size(), 4u);
  EXPECT_EQ(s.next(4)->size(), 2u);
  EXPECT_FALSE(s.next(4).has_value());
  s.reset();
  EXPECT_EQ(size_t(*s.next(20)), 10u);
}

}  // namespace
