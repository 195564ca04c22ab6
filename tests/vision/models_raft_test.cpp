// ember::vision::models::optical_flow RAFT against torchvision 0.14
// (tools/golden/gen_vision_models_raft.py): every flow prediction of
// raft_large (convex upsampling) and raft_small (bilinear upsampling) under
// deterministic weights on two synthetic 128x128 images, the state_dict keys
// and shapes of both builders, the helpers, and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/optical_flow.h"

namespace vision_models_vit_test {

void fill_deterministic(ember::nn::Module& model);
void expect_state_dict_layout(const ember::testing::Golden& g, const std::string& builder,
                              const ember::nn::Module& model);

namespace {

namespace of = ember::vision::models::optical_flow;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_models_raft.golden");
  return g;
}

// The generator's image(dx, dy), [1, 3, 128, 128].
Tensor image(double dx, double dy) {
  const auto grids = ember::meshgrid({ember::arange(128, ember::kDouble), ember::arange(128, ember::kDouble)}, "ij");
  const Tensor xs = grids[1] - dx, ys = grids[0] - dy;
  std::vector<Tensor> chans;
  for (int c = 0; c < 3; ++c) {
    const double cd = c;
    chans.push_back(ember::sin(xs * 0.21 + ys * 0.13 + cd) * ember::cos(ys * 0.17 - xs * 0.05 * cd) * 0.4 + 0.5);
  }
  return ember::stack(chans, 0).unsqueeze(0).to(ember::kFloat);
}

void expect_flows(const std::string& name, of::RAFT model) {
  SCOPED_TRACE(name);
  expect_state_dict_layout(golden(), name, *model);
  fill_deterministic(*model);
  model->eval();
  ember::NoGradGuard no_grad;
  const auto flows = model->forward(image(0, 0), image(3, -2), 3);
  ASSERT_EQ(flows.size(), 3u);
  for (size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ(flows[i].sizes(), (std::vector<int64_t>{1, 2, 128, 128}));
    const Tensor sampled = flows[i].slice(2, 1, 128, 7).slice(3, 2, 128, 7);
    EXPECT_TENSOR_CLOSE_TOL(sampled, golden()[name + ".flow" + std::to_string(i)], 1e-3, 1e-4) << "prediction " << i;
  }
}

TEST(VisionModelsRaft, RaftLargeMatchesTorchvision) { expect_flows("raft_large", of::raft_large()); }

TEST(VisionModelsRaft, RaftSmallMatchesTorchvision) { expect_flows("raft_small", of::raft_small()); }

TEST(VisionModelsRaft, CloneIsDeep) {
  of::RAFT model = of::raft_small();
  auto copy = std::dynamic_pointer_cast<of::RAFTImpl>(model->clone());
  ASSERT_TRUE(copy != nullptr);
  const auto a = model->state_dict(), b = copy->state_dict();
  ASSERT_EQ(a.size(), b.size());
  for (const auto& item : a) {
    EXPECT_TRUE(ember::equal(item.value(), b[item.key()])) << item.key();
    EXPECT_NE(item.value().data_ptr(), b[item.key()].data_ptr()) << item.key();
  }
}

TEST(VisionModelsRaft, Helpers) {
  const Tensor grid = of::_utils::make_coords_grid(2, 3, 4);
  EXPECT_EQ(grid.sizes(), (std::vector<int64_t>{2, 2, 3, 4}));
  EXPECT_EQ(grid[1][0][2][3].item<float>(), 3.0f);  // x
  EXPECT_EQ(grid[1][1][2][3].item<float>(), 2.0f);  // y
  // Sampling at each pixel's own coordinates returns the image.
  const Tensor img = ember::rand({2, 3, 3, 4});
  EXPECT_TENSOR_CLOSE_TOL(of::_utils::grid_sample(img, grid.permute({0, 2, 3, 1}), "bilinear", true), img, 1e-5, 1e-6);
  // A constant flow stays constant (times the factor) under both upsamplings.
  const Tensor flow = ember::ones({1, 2, 2, 3});
  EXPECT_TENSOR_CLOSE(of::_utils::upsample_flow(flow), ember::full({1, 2, 16, 24}, 8.0));
  EXPECT_EMBER_ERROR(of::_utils::upsample_flow(flow, ember::zeros({1, 5, 2, 3})), "upsample_flow", "up_mask");
}

// An empty batch either runs or raises ember::Error, never crashes.
TEST(VisionModelsRaft, EmptyBatchRunsOrRaises) {
  of::RAFT model = of::raft_small();
  model->eval();
  ember::NoGradGuard no_grad;
  try {
    const auto flows = model->forward(ember::rand({0, 3, 128, 128}), ember::rand({0, 3, 128, 128}), 1);
    ASSERT_EQ(flows.size(), 1u);
    EXPECT_EQ(flows[0].size(0), 0);
  } catch (const ember::Error&) {
  }
}

TEST(VisionModelsRaft, BadInputRaisesNamingTheModel) {
  of::RAFT model = of::raft_small();
  model->eval();
  const Tensor a = ember::rand({1, 3, 128, 128});
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 3, 100, 128}), ember::rand({1, 3, 100, 128})), "RAFT",
                     "divisible by 8", "100");
  EXPECT_EMBER_ERROR(model->forward(a, ember::rand({1, 3, 128, 136})), "RAFT", "same shape");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 1, 128, 128}), a), "RAFT", "3-channel");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({3, 128, 128}), a), "RAFT", "4-D");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 3, 128, 128}, ember::kByte), a), "RAFT", "floating");
  EXPECT_EMBER_ERROR(of::CorrBlock(0, 4), "CorrBlock", "num_levels");
  EXPECT_EMBER_ERROR(of::MotionEncoder(of::MotionEncoderOptions(10).flow_layers({1, 2, 3})), "MotionEncoder",
                     "flow_layers");
}

}  // namespace

}  // namespace vision_models_vit_test
