// Embedding / EmbeddingBag modules and F:: forms against PyTorch
// (tools/golden/gen_loss_norm_embedding_modules.py): padding_idx, max_norm, bags, printing, errors.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace embedding_module_test {

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

TEST(NNEmbeddingModule, PretrainedPaddingAndGradient) {
  const auto& g = golden();
  auto e = nn::Embedding::from_pretrained(g["emb_w"].clone(),
                                          nn::EmbeddingFromPretrainedOptions().freeze(false).padding_idx(2));
  EXPECT_TRUE(e->weight.requires_grad());
  auto out = e(g["embed.idx"]);
  EXPECT_TENSOR_CLOSE(out, g["embed.y"]);
  (out * torch::arange(3.0)).sum().backward();
  EXPECT_TENSOR_CLOSE(e->weight.grad(), g["embed.grad"]);

  auto frozen = nn::Embedding::from_pretrained(g["emb_w"].clone());
  EXPECT_FALSE(frozen->weight.requires_grad());
}

TEST(NNEmbeddingModule, MaxNormRenormsWeight) {
  const auto& g = golden();
  auto e = nn::Embedding::from_pretrained(g["emb_w"].clone(), nn::EmbeddingFromPretrainedOptions().max_norm(1.5));
  EXPECT_TENSOR_CLOSE(e(g["embed.idx"]), g["embed.maxnorm_y"]);
  EXPECT_TENSOR_CLOSE(e->weight, g["embed.maxnorm_w"]);
}

TEST(NNEmbeddingModule, DefaultInit) {
  nn::Embedding e(nn::EmbeddingOptions(50, 40).padding_idx(-1));
  EXPECT_EQ(*e->options.padding_idx(), 49);
  EXPECT_TENSOR_EQ(e->weight[49], torch::zeros({40}));
  auto w = e->weight.slice(0, 0, 49);
  EXPECT_NEAR(w.mean().item<double>(), 0.0, 0.1);
  EXPECT_NEAR(w.std().item<double>(), 1.0, 0.1);
  EXPECT_EQ(e->named_parameters().size(), 1u);
}

TEST(NNEmbeddingModule, Bags) {
  const auto& g = golden();
  auto w = g["emb_w"].clone(), bi = g["bag.idx"], bo = g["bag.off"];
  EXPECT_TENSOR_CLOSE(F::embedding_bag(bi, w, F::EmbeddingBagFuncOptions().offsets(bo)), g["bag.mean"]);
  auto bag = nn::EmbeddingBag::from_pretrained(w, nn::EmbeddingBagFromPretrainedOptions().mode(torch::kSum));
  EXPECT_TENSOR_CLOSE(bag(bi, bo, g["bag.psw"]), g["bag.sum_psw"]);
  nn::EmbeddingBag max_bag(nn::EmbeddingBagOptions(10, 3).mode(torch::kMax)._weight(w));
  EXPECT_TENSOR_CLOSE(max_bag(bi, bo), g["bag.max"]);
  EXPECT_TENSOR_CLOSE(F::embedding_bag(bi, w,
                                       F::EmbeddingBagFuncOptions()
                                           .offsets(torch::tensor({0, 3, 6, 8}, torch::kLong))
                                           .mode(torch::kSum)
                                           .include_last_offset(true)
                                           .padding_idx(4)),
                      g["bag.last_offset_pad"]);
  EXPECT_TENSOR_CLOSE(nn::EmbeddingBag::from_pretrained(w)(g["embed.idx"]), g["bag.2d"]);
}

// Strings printed by LibTorch 1.13.
TEST(NNEmbeddingModule, PrettyPrint) {
  EXPECT_EQ(printed(*nn::Embedding(10, 3)), "torch::nn::Embedding(num_embeddings=10, embedding_dim=3)");
  EXPECT_EQ(printed(*nn::Embedding(
                nn::EmbeddingOptions(10, 3).padding_idx(-1).max_norm(1.5).norm_type(1).scale_grad_by_freq(true))),
            "torch::nn::Embedding(num_embeddings=10, embedding_dim=3, padding_idx=9, max_norm=1.5, norm_type=1, "
            "scale_grad_by_freq=true)");
  EXPECT_EQ(printed(*nn::EmbeddingBag(10, 3)), "torch::nn::EmbeddingBag(num_embeddings=10, embedding_dim=3)");
  EXPECT_EQ(printed(*nn::EmbeddingBag(
                nn::EmbeddingBagOptions(10, 3).mode(torch::kSum).include_last_offset(true).padding_idx(2).max_norm(2))),
            "torch::nn::EmbeddingBag(num_embeddings=10, embedding_dim=3, max_norm=2, mode=kSum, "
            "include_last_offset=true, padding_idx=2)");
  EXPECT_EQ(printed(*nn::EmbeddingBag(nn::EmbeddingBagOptions(10, 3).mode(torch::kMax))),
            "torch::nn::EmbeddingBag(num_embeddings=10, embedding_dim=3, mode=kMax)");
}

TEST(NNEmbeddingModule, Errors) {
  EXPECT_EMBER_ERROR(nn::Embedding(nn::EmbeddingOptions(5, 2).padding_idx(5)), "Embedding", "padding_idx");
  EXPECT_EMBER_ERROR(nn::Embedding::from_pretrained(torch::randn({3})), "from_pretrained", "2-dimensional");
  nn::EmbeddingBag bag(5, 2);
  EXPECT_EMBER_ERROR(bag(torch::tensor({0, 1}, torch::kLong)), "embedding_bag", "offsets");
  EXPECT_EMBER_ERROR(bag(torch::tensor({0, 1}, torch::kLong), torch::tensor({0}, torch::kLong), torch::ones({2})),
                     "embedding_bag", "per_sample_weights");
  EXPECT_EMBER_ERROR(F::embedding(torch::tensor({0}, torch::kLong), torch::randn({3})), "embedding", "2-D");
}

}  // namespace embedding_module_test
