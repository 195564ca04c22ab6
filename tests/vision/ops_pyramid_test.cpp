// ember::vision::ops::MultiScaleRoIAlign and FeaturePyramidNetwork (with
// LastLevelMaxPool and LastLevelP6P7): outputs with torchvision 0.14's
// weights and inputs (tools/golden/gen_vision_ops_torchvision.py), state_dict
// names, and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/feature_pyramid_network.h"
#include "ember/vision/ops/poolers.h"

namespace vision_ops_pyramid_test {

namespace ops = ember::vision::ops;
using ember::Tensor;
using ember::testing::Golden;
using Maps = ember::OrderedDict<std::string, Tensor>;

const Golden& golden() {
  static const Golden g("vision_ops_torchvision.golden");
  return g;
}

Maps maps(const std::string& prefix, const std::vector<std::string>& names) {
  Maps m;
  for (const std::string& n : names) m.insert(n, golden()[prefix + n]);
  return m;
}

TEST(VisionOpsPyramid, MultiScaleRoIAlignMatchesTorchvision) {
  const Golden& g = golden();
  const Maps x = maps("msroi.x.", {"f0", "skip", "f1", "f2"});
  const std::vector<Tensor> boxes{g["msroi.boxes0"], g["msroi.boxes1"]};
  ops::MultiScaleRoIAlign pool(ops::MultiScaleRoIAlignOptions({"f0", "f1", "f2"}, {3, 2}, 2).canonical_scale(32));
  EXPECT_TENSOR_CLOSE(pool->forward(x, boxes, {{64, 64}, {60, 62}}), g["msroi.y"]);
  // The scales are kept from the first call.
  EXPECT_TENSOR_CLOSE(pool->forward(x, boxes, {{64, 64}, {60, 62}}), g["msroi.y"]);
  ops::MultiScaleRoIAlign single(ops::MultiScaleRoIAlignOptions({"f1"}, 2, -1));
  EXPECT_TENSOR_CLOSE(single->forward(x, boxes, {{64, 64}, {60, 62}}), g["msroi_single.y"]);
  ops::MultiScaleRoIAlign gap(ops::MultiScaleRoIAlignOptions({"f0", "f2"}, 2, 2).canonical_scale(32));
  EXPECT_TENSOR_CLOSE(gap->forward(x, boxes, {{64, 64}, {64, 64}}), g["msroi_gap.y"]);
  // Gradients reach the levels the boxes map to (none maps to f1).
  Maps xg;
  for (const auto& item : x.items()) xg.insert(item.key(), item.value().clone().requires_grad_(true));
  ops::MultiScaleRoIAlign fresh(ops::MultiScaleRoIAlignOptions({"f0", "f1", "f2"}, {3, 2}, 2).canonical_scale(32));
  fresh->forward(xg, boxes, {{64, 64}, {60, 62}}).sum().backward();
  for (const char* k : {"f0", "f2"}) EXPECT_GT(xg[k].grad().abs().sum().item<double>(), 0) << k;
  std::ostringstream s;
  s << *pool;
  EXPECT_EQ(s.str(), "MultiScaleRoIAlign(featmap_names=['f0', 'f1', 'f2'], output_size=(3, 2), sampling_ratio=2)");
}

void check_fpn(const std::string& name, ops::FeaturePyramidNetwork& fpn, const std::vector<std::string>& outs) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  const std::string prefix = name + ".sd.";
  std::vector<std::pair<std::string, Tensor>> sd;
  for (const std::string& key : g.names_with_prefix(prefix)) sd.emplace_back(key.substr(prefix.size()), g[key]);
  EXPECT_EQ(fpn->state_dict().size(), sd.size());
  fpn->load_state_dict(sd);
  const Maps y = fpn(maps(name + ".x.", {"a", "b", "c"}));
  ASSERT_EQ(y.keys(), outs);
  // float32 through three convolutions of unit-variance weights: roundoff grows.
  for (const std::string& k : outs) EXPECT_TENSOR_CLOSE_TOL(y[k], g[name + ".y." + k], 1e-4, 1e-4);
}

TEST(VisionOpsPyramid, FeaturePyramidNetworkMatchesTorchvision) {
  ops::FeaturePyramidNetwork maxpool(
      ops::FeaturePyramidNetworkOptions({2, 3, 4}, 5).extra_blocks(std::make_shared<ops::LastLevelMaxPoolImpl>()));
  check_fpn("fpn_maxpool", maxpool, {"a", "b", "c", "pool"});
  ops::FeaturePyramidNetwork p6p7(
      ops::FeaturePyramidNetworkOptions({2, 3, 4}, 5).extra_blocks(std::make_shared<ops::LastLevelP6P7Impl>(4, 5)));
  check_fpn("fpn_p6p7", p6p7, {"a", "b", "c", "p6", "p7"});
}

TEST(VisionOpsPyramid, BadInputRaises) {
  EXPECT_EMBER_ERROR(ops::FeaturePyramidNetwork(ops::FeaturePyramidNetworkOptions({2, 0}, 4)), "FeaturePyramidNetwork",
                     "in_channels=0");
  ops::FeaturePyramidNetwork fpn(ops::FeaturePyramidNetworkOptions({2, 3}, 4));
  Maps one;
  one.insert("a", ember::randn({1, 2, 4, 4}));
  EXPECT_EMBER_ERROR(fpn(one), "FeaturePyramidNetwork", "expected 2", "got 1");
  ops::MultiScaleRoIAlign pool(ops::MultiScaleRoIAlignOptions({"x"}, 2, 2));
  EXPECT_EMBER_ERROR(pool->forward(one, {ember::ones({1, 4})}, {{8, 8}}), "MultiScaleRoIAlign", "featmap_names");
  ops::MultiScaleRoIAlign pool_a(ops::MultiScaleRoIAlignOptions({"a"}, 2, 2));
  EXPECT_EMBER_ERROR(pool_a->forward(one, {ember::ones({1, 4})}, {}), "MultiScaleRoIAlign", "empty");
  EXPECT_EMBER_ERROR(pool_a->forward(one, {ember::ones({1, 3})}, {{8, 8}}), "MultiScaleRoIAlign", "List[Tensor[L, 4]]");
}

}  // namespace vision_ops_pyramid_test
