// ember::vision::ops modules (FrozenBatchNorm2d, Conv2d/3dNormActivation,
// SqueezeExcitation, MLP, Permute): state_dict names and outputs with
// torchvision 0.14's weights (tools/golden/gen_vision_ops_torchvision.py);
// StochasticDepth and DropBlock by their invariants (their noise comes from
// Ember's generator, not torch's), and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/stochastic_depth.h"

namespace vision_ops_modules_test {

namespace ops = ember::vision::ops;
namespace nn = ember::nn;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_ops_torchvision.golden");
  return g;
}

// Loads case `name`'s torchvision weights (the key sets must be equal) and
// compares the eval-mode output.
void check_module(const std::string& name, nn::Module& m, const std::function<Tensor(const Tensor&)>& forward) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  const std::string prefix = name + ".sd.";
  std::vector<std::pair<std::string, Tensor>> sd;
  for (const std::string& key : g.names_with_prefix(prefix)) {
    const std::string k = key.substr(prefix.size());
    // BatchNorm's counter is kept by Ember's BatchNorm too; FrozenBatchNorm2d has none.
    sd.emplace_back(k, g[key]);
  }
  std::vector<std::string> ours;
  for (const auto& item : m.state_dict()) ours.push_back(item.key());
  std::vector<std::string> theirs;
  for (const auto& [k, v] : sd) theirs.push_back(k);
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  EXPECT_EQ(ours, theirs);
  m.load_state_dict(sd);
  m.eval();
  EXPECT_TENSOR_CLOSE(forward(g[name + ".x"]), g[name + ".y"]);
}

TEST(VisionOpsModules, MatchTorchvision) {
  ops::FrozenBatchNorm2d fbn(ops::FrozenBatchNorm2dOptions(3).eps(1e-3));
  check_module("frozen_bn", *fbn, [&](const Tensor& x) { return fbn(x); });

  ops::Conv2dNormActivation cna(ops::Conv2dNormActivationOptions(3, 4).kernel_size(3).stride(2));
  check_module("conv2d_norm_act", *cna, [&](const Tensor& x) { return cna(x); });

  ops::Conv2dNormActivation nonorm(
      ops::Conv2dNormActivationOptions(4, 6).kernel_size({3, 1}).groups(2).norm_layer(std::nullopt).dilation(2));
  check_module("conv2d_norm_act_nonorm", *nonorm, [&](const Tensor& x) { return nonorm(x); });

  ops::Conv3dNormActivation c3(ops::Conv3dNormActivationOptions(2, 3).activation_layer(std::nullopt));
  check_module("conv3d_norm_act", *c3, [&](const Tensor& x) { return c3(x); });

  ops::SqueezeExcitation se(6, 2);
  check_module("squeeze_excitation", *se, [&](const Tensor& x) { return se(x); });

  ops::MLP mlp(ops::MLPOptions(5, {7, 3}).norm_layer(
      [](int64_t n) { return nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({n}))); }));
  check_module("mlp", *mlp, [&](const Tensor& x) { return mlp(x); });

  ops::Permute perm(std::vector<int64_t>{0, 2, 3, 1});
  check_module("permute", *perm, [&](const Tensor& x) { return perm(x); });
}

TEST(VisionOpsModules, StochasticDepth) {
  ember::manual_seed(3);
  const Tensor x = ember::randn({64, 3, 2});
  EXPECT_TENSOR_EQ(ops::stochastic_depth(x, 0.4, "row", false), x);
  EXPECT_TENSOR_EQ(ops::stochastic_depth(x, 0.0, "batch"), x);
  EXPECT_TRUE(ops::stochastic_depth(x, 1.0, "row").eq(0).all().item<bool>());
  const Tensor y = ops::stochastic_depth(x, 0.5, "row");
  int64_t dropped = 0;
  for (int64_t i = 0; i < 64; ++i) {
    const Tensor r = y[i];
    if (r.eq(0).all().item<bool>()) {
      ++dropped;
    } else {
      EXPECT_TENSOR_CLOSE(r, x[i] * 2.0);
    }
  }
  EXPECT_GT(dropped, 10);
  EXPECT_LT(dropped, 54);
  const Tensor b = ops::stochastic_depth(x, 0.5, "batch");
  EXPECT_TRUE(b.eq(0).all().item<bool>() || ember::allclose(b, x * 2.0));
  ops::StochasticDepth m(0.2, "row");
  m->eval();
  EXPECT_TENSOR_EQ(m(x), x);
  std::ostringstream s;
  s << *m;
  EXPECT_EQ(s.str(), "StochasticDepth(p=0.2, mode=row)");
  EXPECT_EMBER_ERROR(ops::stochastic_depth(x, 1.5, "row"), "stochastic_depth", "1.5");
  EXPECT_EMBER_ERROR(ops::stochastic_depth(x, 0.5, "col"), "stochastic_depth", "col");
}

TEST(VisionOpsModules, DropBlock) {
  ember::manual_seed(4);
  const Tensor x = ember::rand({2, 3, 12, 12}) + 1;  // never zero
  EXPECT_TENSOR_EQ(ops::drop_block2d(x, 0.3, 3, false, 1e-6, false), x);
  const Tensor y = ops::drop_block2d(x, 0.3, 3);
  const Tensor kept = y.ne(0);
  // Kept values are x times one common scale: numel / number kept.
  const double scale = static_cast<double>(y.numel()) / kept.sum().item<double>();
  EXPECT_TENSOR_CLOSE(y, x * kept.to(ember::kFloat32) * scale);
  EXPECT_LT(kept.to(ember::kFloat32).mean().item<double>(), 0.95);
  // Blocks: every dropped pixel lies in a dropped 3 x 3 square.
  const Tensor d = 1 - kept.to(ember::kFloat32);
  const Tensor eroded = -ember::max_pool2d(-d, {3, 3}, {1, 1}, {0, 0});
  const Tensor covered = ember::max_pool2d(ember::constant_pad_nd(eroded, {2, 2, 2, 2}, 0), {3, 3}, {1, 1}, {0, 0});
  EXPECT_TENSOR_EQ(covered, d);
  const Tensor v = ember::rand({1, 2, 5, 6, 7}) + 1;
  const Tensor w = ops::drop_block3d(v, 0.2, 3);
  EXPECT_EQ(w.sizes(), v.sizes());
  ops::DropBlock2d m(0.1, 3);
  m->eval();
  EXPECT_TENSOR_EQ(m(x), x);
  ops::DropBlock3d m3(ops::DropBlock3dOptions(0.1, 3).inplace(true));
  EXPECT_EQ(m3(v.clone()).sizes(), v.sizes());
  EXPECT_EMBER_ERROR(ops::drop_block2d(v, 0.1, 3), "drop_block2d", "4 dimensional", "5");
  EXPECT_EMBER_ERROR(ops::drop_block3d(x, 0.1, 3), "drop_block3d", "5 dimensional");
  EXPECT_EMBER_ERROR(ops::drop_block2d(x, -0.1, 3), "drop_block2d", "-0.1");
  EXPECT_EMBER_ERROR(ops::drop_block2d(x, 0.1, 0), "drop_block2d", "block_size");
  EXPECT_EMBER_ERROR(ops::drop_block3d(v, 0.1, 2), "drop_block3d", "odd", "2");
}

TEST(VisionOpsModules, BadInputRaises) {
  ops::FrozenBatchNorm2d fbn(3);
  EXPECT_EMBER_ERROR(fbn(ember::ones({1, 4, 2, 2})), "FrozenBatchNorm2d", "3 channels");
  EXPECT_EMBER_ERROR(ops::MLP(ops::MLPOptions(3, {})), "MLP", "hidden_channels");
}

}  // namespace vision_ops_modules_test
