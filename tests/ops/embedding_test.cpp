// embedding, embedding_bag and embedding_renorm_ against PyTorch (tools/golden/gen_nn_ops.py).
#include <gtest/gtest.h>

#include "nn_golden_check.h"

using ember::Tensor;
using ember::testing::check_nn_case;
using ember::testing::nn_golden;

TEST(NnEmbedding, MatchesPyTorch) {
  check_nn_case("embedding.plain", [](const std::vector<Tensor>& x) { return torch::embedding(x[0], x[1]); });
  check_nn_case("embedding.padding", [](const std::vector<Tensor>& x) { return torch::embedding(x[0], x[1], 4); });
  check_nn_case("embedding.freq", [](const std::vector<Tensor>& x) { return torch::embedding(x[0], x[1], 1, true); });
}

TEST(NnEmbedding, Int32IndicesAndErrors) {
  Tensor w = nn_golden()["embedding.plain.in0"];
  Tensor idx = nn_golden()["embedding.plain.in1"];
  EXPECT_TENSOR_CLOSE(torch::embedding(w, idx.to(torch::kInt)), nn_golden()["embedding.plain.out"]);
  EXPECT_EMBER_ERROR(torch::embedding(w, torch::tensor({0, 10})), "embedding", "10", "out of range");
  EXPECT_EMBER_ERROR(torch::embedding(w, torch::tensor({-1})), "embedding", "out of range");
  EXPECT_EMBER_ERROR(torch::embedding(w, torch::tensor({0.5})), "embedding", "Long, Int");
  EXPECT_EMBER_ERROR(torch::embedding(torch::randn({3}), idx), "embedding", "2-D");
}

TEST(NnEmbedding, Renorm) {
  Tensor w = nn_golden()["embedding_renorm.in0"].clone();
  torch::embedding_renorm_(w, nn_golden()["embedding_renorm.idx"], 1.5, 2.0);
  EXPECT_TENSOR_CLOSE(w, nn_golden()["embedding_renorm.out"]);
}

TEST(NnEmbeddingBag, MatchesPyTorch) {
  const char* modes[] = {"sum", "mean", "max"};
  for (int64_t mode = 0; mode < 3; ++mode) {
    const std::string m = modes[mode];
    check_nn_case("embedding_bag." + m, [&](const std::vector<Tensor>& x) {
      return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode));
    });
    check_nn_case("embedding_bag." + m + ".pad", [&](const std::vector<Tensor>& x) {
      return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode, false, {}, false, 4));
    });
    check_nn_case("embedding_bag." + m + ".last", [&](const std::vector<Tensor>& x) {
      return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode, false, {}, true));
    });
  }
  check_nn_case("embedding_bag.psw", [](const std::vector<Tensor>& x) {
    return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, 0, false, x[3]));
  });
  check_nn_case("embedding_bag.2d", [](const std::vector<Tensor>& x) {
    return std::get<0>(torch::embedding_bag(x[0], x[1], Tensor(), false, 1));
  });
}

// Without autograd, sum and mean take the fused kernel (Note [Fused embedding_bag]):
// the same golden cases, and the composite's result on harder inputs.
TEST(NnEmbeddingBag, FusedForwardMatchesPyTorchAndTheComposite) {
  const char* modes[] = {"sum", "mean"};
  for (int64_t mode = 0; mode < 2; ++mode) {
    const std::string m = modes[mode];
    const auto plain = [&](const std::vector<Tensor>& x) {
      return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode));
    };
    check_nn_case("embedding_bag." + m, plain, /*grads=*/false);
    check_nn_case(
        "embedding_bag." + m + ".pad",
        [&](const std::vector<Tensor>& x) {
          return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode, false, {}, false, 4));
        },
        false);
    check_nn_case(
        "embedding_bag." + m + ".last",
        [&](const std::vector<Tensor>& x) {
          return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, mode, false, {}, true));
        },
        false);
  }
  check_nn_case(
      "embedding_bag.psw",
      [](const std::vector<Tensor>& x) {
        return std::get<0>(torch::embedding_bag(x[0], x[1], x[2], false, 0, false, x[3]));
      },
      false);
  check_nn_case(
      "embedding_bag.2d",
      [](const std::vector<Tensor>& x) { return std::get<0>(torch::embedding_bag(x[0], x[1], Tensor(), false, 1)); },
      false);
  // Empty bags, repeated rows, padding, weights, trailing ids past the last bag,
  // both dtypes: the fused result against the composite's (which records a graph).
  torch::manual_seed(3);
  const Tensor idx = torch::tensor({3, 3, 0, 7, 2, 9, 3, 1, 5, 5, 8});
  const Tensor offsets = torch::tensor({0, 0, 2, 2, 6, 10});
  for (auto dtype : {torch::kFloat, torch::kDouble})
    for (int64_t mode = 0; mode < 2; ++mode)
      for (bool last : {false, true})
        for (std::optional<int64_t> pad : {std::optional<int64_t>(), std::optional<int64_t>(3)})
          for (bool weighted : {false, true}) {
            if (weighted && mode != 0) continue;
            SCOPED_TRACE(::testing::Message() << dtype << " mode " << mode << " last " << last << " pad "
                                              << pad.value_or(-1) << " weighted " << weighted);
            const Tensor w = torch::randn({10, 5}, dtype);
            const std::optional<Tensor> psw =
                weighted ? std::optional<Tensor>(torch::randn({11}, dtype)) : std::optional<Tensor>();
            Tensor fused;
            {
              torch::NoGradGuard no_grad;
              fused = std::get<0>(torch::embedding_bag(w, idx, offsets, false, mode, false, psw, last, pad));
            }
            const Tensor composite = std::get<0>(
                torch::embedding_bag(w.clone().requires_grad_(true), idx, offsets, false, mode, false, psw, last, pad));
            ASSERT_TRUE(composite.requires_grad());
            EXPECT_TENSOR_CLOSE(fused, composite.detach());
          }
}

TEST(NnEmbeddingBag, Errors) {
  Tensor w = torch::randn({5, 2});
  Tensor idx = torch::tensor({0, 1, 2});
  EXPECT_EMBER_ERROR(torch::embedding_bag(w, idx, torch::tensor({1})), "embedding_bag", "offsets[0]");
  EXPECT_EMBER_ERROR(torch::embedding_bag(w, torch::tensor({0, 7}), torch::tensor({0})), "embedding_bag",
                     "out of range");
  EXPECT_EMBER_ERROR(torch::embedding_bag(w, idx, torch::tensor({0}), false, 1, false, torch::ones({3})),
                     "embedding_bag", "per_sample_weights", "mean");
}
