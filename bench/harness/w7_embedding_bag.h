#pragma once
// W7 (bench/SPEC.md): EmbeddingBag, 1,000,000 x 64 float32 table, mode sum, 2048
// bags of 20 ids uniform in [0, 1e6) from mt19937_64(42), a pool of 32 batches
// cycled one per call. Written once over the torch:: API, so both harnesses
// (Ember through ember/torch.h, LibTorch) run the same code. Metric Mlookups/s.
// The sparse-gradient variant is not run: Ember has no sparse tensors yet.
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "harness.h"

namespace bench {

inline void w7(const Options& o, const std::function<void(int)>& set_threads) {
  if (!wants_group(o, "W7")) return;
  constexpr int64_t kRows = 1000000, kDim = 64, kBags = 2048, kPerBag = 20, kPool = 32;
  torch::manual_seed(0);
  torch::Tensor weight = torch::randn({kRows, kDim});
  std::mt19937_64 gen(42);
  std::uniform_int_distribution<int64_t> id(0, kRows - 1);
  std::vector<torch::Tensor> batches;
  for (int64_t p = 0; p < kPool; ++p) {
    std::vector<int64_t> ids(kBags * kPerBag);
    for (int64_t& v : ids) v = id(gen);
    batches.push_back(torch::tensor(ids, torch::kLong));
  }
  const torch::Tensor offsets = torch::arange(0, kBags * kPerBag, kPerBag, torch::kLong);
  const auto mlookups = [](double s) { return double(kBags * kPerBag) / s / 1e6; };
  size_t next = 0;
  torch::Tensor out;
  run_case(o,
           {"W7.fwd", "Mlookups/s", mlookups,
            [&] {
              torch::NoGradGuard no_grad;
              out = std::get<0>(torch::embedding_bag(weight, batches[next++ % kPool], offsets, false, 0));
            }},
           set_threads);
  torch::Tensor w = weight.clone().requires_grad_(true);
  run_case(o,
           {"W7.fwd+bwd", "Mlookups/s", mlookups,
            [&] {
              w.mutable_grad() = torch::Tensor();
              out = std::get<0>(torch::embedding_bag(w, batches[next++ % kPool], offsets, false, 0));
              out.sum().backward();
            }},
           set_threads);
}

}  // namespace bench
