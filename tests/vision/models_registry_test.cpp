// The transformer-era models and RAFT are in the one model registry beside the CNNs
// (ember/vision/models/registry_transformers.cpp), under torchvision's module names.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/test_util.h"
#include "ember/vision/models.h"

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
  EXPECT_EMBER_ERROR(models::get_model("vit_b_16", {{"weights", "DEFAULT"}}), "vit_b_16", "weights");
}

}  // namespace
