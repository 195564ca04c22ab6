// The transformer-era models and RAFT are in the one model registry beside the CNNs
// (ember/vision/models/registry_transformers.cpp), under torchvision's module names.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/test_util.h"
#include "ember/vision/models.h"
#include "ember/vision/ops.h"

namespace {

namespace models = torch::vision::models;

TEST(VisionModelsRegistry, TransformersAndRaftAreRegistered) {
  EXPECT_EQ(models::list_models(std::string("torchvision.models.vision_transformer")).size(), 5u);
  EXPECT_EQ(models::list_models(std::string("torchvision.models.convnext")).size(), 4u);
  EXPECT_EQ(models::list_models(std::string("torchvision.models.swin_transformer")).size(), 6u);
  EXPECT_EQ(models::list_models(std::string("torchvision.models.optical_flow")).size(), 2u);
  const std::vector<std::string> all = models::list_models();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  // A small one is built through the registry; an unknown keyword raises naming it.
  const torch::nn::AnyModule raft = models::get_model("raft_small");
  EXPECT_NE(raft.ptr()->name().find("RAFT"), std::string::npos) << raft.ptr()->name();
  EXPECT_EMBER_ERROR(models::get_model("raft_small", {{"num_classes", 3}}), "raft_small", "num_classes");
  // Their weights are named as in Python; nothing is downloaded, so a member without its file raises naming it.
  EXPECT_EMBER_ERROR(models::get_model("vit_b_16", {{"weights", "DEFAULT"}}), "vit_b_16", "vit_b_16-c867db91.pth");
  EXPECT_EQ(models::get_model_weights("vit_h_14").members.size(), 2u);
  EXPECT_EQ(models::get_model_weights("raft_large").default_member, "C_T_SKHT_V2");
  EXPECT_EQ(models::get_weight("Swin_V2_B_Weights.DEFAULT").url,
            "https://download.pytorch.org/models/swin_v2_b-781e5279.pth");
}

}  // namespace

namespace {

// Note [Sequential subclasses]: a clone keeps the subclass and copies the values.
TEST(VisionSequentialSubclasses, CloneKeepsTheTypeAndTheValues) {
  torch::vision::ops::Conv2dNormActivation block(3, 4);
  torch::nn::Sequential net(block, torch::vision::ops::MLP(4, std::vector<int64_t>{5, 2}));
  auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(net->clone());
  ASSERT_NE(copy, nullptr);
  auto* cna = dynamic_cast<torch::vision::ops::Conv2dNormActivationImpl*>(copy->ptr(0).get());
  ASSERT_NE(cna, nullptr);
  EXPECT_EQ(cna->out_channels, 4);
  EXPECT_NE(dynamic_cast<torch::vision::ops::MLPImpl*>(copy->ptr(1).get()), nullptr);
  const auto a = net->named_parameters(), b = copy->named_parameters();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].key(), b[i].key());
    EXPECT_TENSOR_EQ(a[i].value(), b[i].value());
    EXPECT_NE(a[i].value().data_ptr(), b[i].value().data_ptr());  // fresh storage
  }
}

}  // namespace
