// Loss modules and nn::functional losses against PyTorch
// (tools/golden/gen_loss_norm_embedding_modules.py), reduction tags, printing and errors.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace loss_module_test {

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("loss_norm_embedding_modules.golden");
  return g;
}

std::string printed(const nn::Module& m) {
  std::ostringstream s;
  m.pretty_print(s);
  return s.str();
}

TEST(NNLossModule, RegressionLossesAllReductions) {
  const auto& g = golden();
  auto x = g["reg.x"], y = g["reg.y"];
  EXPECT_TENSOR_CLOSE(nn::MSELoss()(x, y), g["mse.mean"]);
  EXPECT_TENSOR_CLOSE(nn::MSELoss(nn::MSELossOptions(torch::kSum))(x, y), g["mse.sum"]);
  EXPECT_TENSOR_CLOSE(F::mse_loss(x, y, F::MSELossFuncOptions().reduction(torch::kNone)), g["mse.none"]);
  EXPECT_TENSOR_CLOSE(nn::L1Loss()(x, y), g["l1.mean"]);
  EXPECT_TENSOR_CLOSE(F::l1_loss(x, y, torch::kSum), g["l1.sum"]);
  EXPECT_TENSOR_CLOSE(F::l1_loss(x, y, torch::kNone), g["l1.none"]);
  for (const char* red : {"mean", "sum", "none"}) {
    nn::reduction_t r = std::string(red) == "mean"  ? nn::reduction_t(torch::kMean)
                        : std::string(red) == "sum" ? nn::reduction_t(torch::kSum)
                                                    : nn::reduction_t(torch::kNone);
    EXPECT_TENSOR_CLOSE(nn::SmoothL1Loss(nn::SmoothL1LossOptions().beta(0.5).reduction(r))(x, y),
                        g[std::string("smooth_l1.") + red]);
    EXPECT_TENSOR_CLOSE(nn::HuberLoss(nn::HuberLossOptions().delta(0.7).reduction(r))(x, y),
                        g[std::string("huber.") + red]);
  }
}

TEST(NNLossModule, BinaryCrossEntropy) {
  const auto& g = golden();
  auto p = g["bce.p"], t = g["bce.t"], x = g["reg.x"];
  EXPECT_TENSOR_CLOSE(nn::BCELoss()(p, t), g["bce.mean"]);
  EXPECT_TENSOR_CLOSE(nn::BCELoss(nn::BCELossOptions().weight(g["bce.w"]).reduction(torch::kSum))(p, t),
                      g["bce.weighted_sum"]);
  EXPECT_TENSOR_CLOSE(nn::BCEWithLogitsLoss()(x, t), g["bcel.mean"]);
  EXPECT_TENSOR_CLOSE(nn::BCEWithLogitsLoss(nn::BCEWithLogitsLossOptions().pos_weight(g["bce.pw"]))(x, t),
                      g["bcel.pos_weight"]);
  EXPECT_TENSOR_CLOSE(F::binary_cross_entropy_with_logits(x, t,
                                                          F::BinaryCrossEntropyWithLogitsFuncOptions()
                                                              .weight(g["bce.w"])
                                                              .pos_weight(g["bce.pw"])
                                                              .reduction(torch::kNone)),
                      g["bcel.both_none"]);
}

TEST(NNLossModule, CrossEntropyAndNll) {
  const auto& g = golden();
  auto logits = g["ce.logits"], cls = g["ce.target"], w = g["ce.weight"];
  EXPECT_TENSOR_CLOSE(F::cross_entropy(logits, cls), g["ce.mean"]);
  EXPECT_TENSOR_CLOSE(
      F::cross_entropy(
          logits, cls,
          F::CrossEntropyFuncOptions().reduction(torch::kMean).ignore_index(2).label_smoothing(0.1).weight(w)),
      g["ce.full"]);
  EXPECT_TENSOR_CLOSE(nn::CrossEntropyLoss(nn::CrossEntropyLossOptions().reduction(torch::kSum))(logits, cls),
                      g["ce.sum"]);
  EXPECT_TENSOR_CLOSE(nn::CrossEntropyLoss(nn::CrossEntropyLossOptions().reduction(torch::kNone))(logits, cls),
                      g["ce.none"]);
  EXPECT_TENSOR_CLOSE(nn::CrossEntropyLoss()(logits, g["ce.probs"]), g["ce.prob_target"]);

  auto lp = torch::log_softmax(logits, 1);
  EXPECT_TENSOR_CLOSE(nn::NLLLoss()(lp, cls), g["nll.mean"]);
  EXPECT_TENSOR_CLOSE(nn::NLLLoss(nn::NLLLossOptions().weight(w).ignore_index(1))(lp, cls), g["nll.weighted"]);
  EXPECT_TENSOR_CLOSE(F::nll_loss(lp, cls, F::NLLLossFuncOptions().reduction(torch::kNone)), g["nll.none"]);

  auto lr = logits.clone().requires_grad_(true);
  nn::CrossEntropyLoss(nn::CrossEntropyLossOptions().label_smoothing(0.2))(lr, cls).backward();
  EXPECT_TENSOR_CLOSE(lr.grad(), g["ce.grad"]);
}

TEST(NNLossModule, KlDivAndPoisson) {
  const auto& g = golden();
  auto lp = torch::log_softmax(g["ce.logits"], 1), probs = g["ce.probs"];
  EXPECT_TENSOR_CLOSE(nn::KLDivLoss(nn::KLDivLossOptions(torch::kBatchMean))(lp, probs), g["kl.batchmean"]);
  EXPECT_TENSOR_CLOSE(F::kl_div(lp, probs.log(), F::KLDivFuncOptions().reduction(torch::kSum).log_target(true)),
                      g["kl.sum_logtarget"]);
  auto x = g["reg.x"], y = g["reg.y"];
  EXPECT_TENSOR_CLOSE(nn::PoissonNLLLoss()(x, y.abs()), g["poisson.mean"]);
  EXPECT_TENSOR_CLOSE(
      F::poisson_nll_loss(x.abs() + 0.1, y.abs(), F::PoissonNLLLossFuncOptions().log_input(false).full(true)),
      g["poisson.full"]);
}

TEST(NNLossModule, MarginAndEmbeddingLosses) {
  const auto& g = golden();
  auto a = g["emb.a"], b = g["emb.b"], c = g["emb.c"], sign = g["emb.sign"];
  EXPECT_TENSOR_CLOSE(nn::CosineEmbeddingLoss(nn::CosineEmbeddingLossOptions().margin(0.2))(a, b, sign), g["cos_emb"]);
  EXPECT_TENSOR_CLOSE(
      nn::MarginRankingLoss(nn::MarginRankingLossOptions().margin(0.1))(a.select(1, 0), b.select(1, 0), sign),
      g["margin_rank"]);
  EXPECT_TENSOR_CLOSE(nn::HingeEmbeddingLoss(nn::HingeEmbeddingLossOptions().margin(0.5))(a, g["hinge.target"]),
                      g["hinge"]);
  EXPECT_TENSOR_CLOSE(nn::TripletMarginLoss(nn::TripletMarginLossOptions().margin(0.5))(a, b, c), g["triplet"]);
  EXPECT_TENSOR_CLOSE(
      F::triplet_margin_loss(a, b, c, F::TripletMarginLossFuncOptions().p(1).swap(true).reduction(torch::kNone)),
      g["triplet.swap_p1"]);
  EXPECT_TENSOR_CLOSE(nn::SoftMarginLoss()(a, g["soft_margin.target"]), g["soft_margin"]);
  EXPECT_TENSOR_CLOSE(nn::MultiLabelSoftMarginLoss()(a, g["mlsm.target"]), g["mlsm"]);
  EXPECT_TENSOR_CLOSE(nn::MultiMarginLoss(nn::MultiMarginLossOptions().p(2).margin(0.5))(a, g["mm.target"]),
                      g["mm.p2"]);
  EXPECT_TENSOR_CLOSE(nn::MultiLabelMarginLoss()(a, g["mlm.target"]), g["mlm"]);
}

TEST(NNLossModule, DistancesNormalizeOneHot) {
  const auto& g = golden();
  auto a = g["emb.a"], b = g["emb.b"];
  EXPECT_TENSOR_CLOSE(F::cosine_similarity(a, b), g["cos_sim"]);
  EXPECT_TENSOR_CLOSE(F::cosine_similarity(a, b, F::CosineSimilarityFuncOptions().dim(0).eps(1e-3)), g["cos_sim.dim0"]);
  EXPECT_TENSOR_CLOSE(F::pairwise_distance(a, b), g["pdist"]);
  EXPECT_TENSOR_CLOSE(F::pairwise_distance(a, b, F::PairwiseDistanceFuncOptions().p(1).keepdim(true)),
                      g["pdist.p1_keep"]);
  EXPECT_TENSOR_CLOSE(F::normalize(a), g["normalize"]);
  EXPECT_TENSOR_CLOSE(F::normalize(a, F::NormalizeFuncOptions().p(1).dim(0)), g["normalize.p1_dim0"]);
  auto oh = F::one_hot(torch::tensor({0, 2, 1}, torch::kLong), 3);
  EXPECT_EQ(oh.sizes(), torch::IntArrayRef({3, 3}));
  EXPECT_EQ(oh[1][2].item<int64_t>(), 1);
}

TEST(NNLossModule, Ctc) {
  const auto& g = golden();
  auto il = torch::tensor({6, 5}, torch::kLong), tl = torch::tensor({3, 2}, torch::kLong);
  EXPECT_TENSOR_CLOSE(nn::CTCLoss()(g["ctc.lp"], g["ctc.targets"], il, tl), g["ctc.mean"]);
  EXPECT_TENSOR_CLOSE(
      F::ctc_loss(g["ctc.lp"], g["ctc.targets"], il, tl, F::CTCLossFuncOptions().reduction(torch::kSum)), g["ctc.sum"]);
}

// Strings printed by LibTorch 1.13 for the same modules.
TEST(NNLossModule, PrettyPrint) {
  EXPECT_EQ(printed(*nn::MSELoss()), "torch::nn::MSELoss()");
  EXPECT_EQ(printed(*nn::CrossEntropyLoss()), "torch::nn::CrossEntropyLoss()");
  EXPECT_EQ(printed(*nn::SmoothL1Loss()), "torch::nn::SmoothL1Loss");
  EXPECT_EQ(printed(*nn::HuberLoss()), "torch::nn::HuberLoss");
  EXPECT_EQ(printed(*nn::CosineEmbeddingLoss(nn::CosineEmbeddingLossOptions().margin(0.5))),
            "torch::nn::CosineEmbeddingLoss(margin=0.5)");
  EXPECT_EQ(printed(*nn::HingeEmbeddingLoss()), "torch::nn::HingeEmbeddingLoss(margin=1)");
  EXPECT_EQ(printed(*nn::TripletMarginLoss()), "torch::nn::TripletMarginLoss(margin=1, p=2, eps=1e-06, swap=false)");
  EXPECT_EQ(printed(*nn::MultiMarginLoss()),
            "torch::nn::MultiMarginLoss(p=1, margin=1, weight=[ Tensor (undefined) ], reduction=kMean)");
}

TEST(NNLossModule, Errors) {
  auto x = torch::randn({4, 3});
  EXPECT_EMBER_ERROR(nn::MSELoss()(x, torch::randn({5, 3})), "");
  EXPECT_EMBER_ERROR(F::cross_entropy(x, torch::tensor({0, 5, 1, 2}, torch::kLong)), "");
  EXPECT_EMBER_ERROR(nn::NLLLoss()(x, torch::tensor({0, 1}, torch::kLong)), "nll_loss");
}

}  // namespace loss_module_test
