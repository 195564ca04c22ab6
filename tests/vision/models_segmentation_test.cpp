// ember::vision::models::segmentation: FCN, DeepLabV3 and LRASPP (FCNHead,
// DeepLabHead/ASPP, LRASPPHead) over a tiny IntermediateLayerGetter backbone
// against torchvision 0.14 with the same deterministic weights
// (tools/golden/gen_vision_segmentation.py): state_dict names and shapes,
// eval outputs {"out", "aux"}, and bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/models/segmentation.h"
#include "models_fill.h"

namespace vision_models_segmentation_test {

namespace seg = ember::vision::models::segmentation;
namespace nn = ember::nn;
using ember::Tensor;
using ember::testing::Golden;
using ember::vision::models::_utils::IntermediateLayerGetter;
using ember::vision::models::_utils::ReturnLayers;
using vision_models_fill::fill;

const Golden& golden() {
  static const Golden g("vision_segmentation.golden");
  return g;
}

void check(const std::string& name, nn::Module& m, const std::function<std::map<std::string, Tensor>(Tensor)>& run,
           const std::vector<std::string>& outs) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  vision_models_fill::expect_state_dict_names(g, name, m);
  fill(m);
  m.eval();
  ember::NoGradGuard guard;
  const auto y = run(g["x"]);
  ASSERT_EQ(y.size(), outs.size());
  for (const std::string& k : outs) EXPECT_TENSOR_CLOSE_TOL(y.at(k), g[name + "." + k], 1e-4, 1e-5) << k;
}

nn::Sequential body() {
  return nn::Sequential({{"c1", nn::Conv2d(nn::Conv2dOptions(3, 8, 3).stride(2).padding(1))},
                         {"r1", nn::ReLU()},
                         {"c2", nn::Conv2d(nn::Conv2dOptions(8, 16, 3).stride(2).padding(1))},
                         {"r2", nn::ReLU()},
                         {"c3", nn::Conv2d(nn::Conv2dOptions(16, 16, 3).stride(1).padding(1))}});
}

TEST(VisionSegmentation, FCNMatchesTorchvision) {
  seg::FCN fcn(IntermediateLayerGetter(body(), ReturnLayers{{"r2", "out"}, {"r1", "aux"}}),
               nn::AnyModule(seg::fcn::FCNHead(16, 5)), nn::AnyModule(seg::fcn::FCNHead(8, 5)));
  check("fcn", *fcn, [&](const Tensor& x) { return fcn(x); }, {"out", "aux"});
  seg::FCN noaux(IntermediateLayerGetter(body(), ReturnLayers{{"r2", "out"}}), nn::AnyModule(seg::fcn::FCNHead(16, 5)));
  check("fcn_noaux", *noaux, [&](const Tensor& x) { return noaux(x); }, {"out"});
}

TEST(VisionSegmentation, DeepLabV3MatchesTorchvision) {
  seg::DeepLabV3 m(IntermediateLayerGetter(body(), ReturnLayers{{"r2", "out"}, {"r1", "aux"}}),
                   nn::AnyModule(seg::deeplabv3::DeepLabHead(16, 5)), nn::AnyModule(seg::fcn::FCNHead(8, 5)));
  check("deeplabv3", *m, [&](const Tensor& x) { return m(x); }, {"out", "aux"});
}

TEST(VisionSegmentation, LRASPPMatchesTorchvision) {
  seg::LRASPP m(IntermediateLayerGetter(body(), ReturnLayers{{"r1", "low"}, {"r2", "high"}}), 8, 16, 5, 12);
  check("lraspp", *m, [&](const Tensor& x) { return m(x); }, {"out"});
}

TEST(VisionSegmentation, BadInputRaises) {
  seg::FCN fcn(IntermediateLayerGetter(body(), ReturnLayers{{"r2", "out"}}), nn::AnyModule(seg::fcn::FCNHead(16, 5)));
  EXPECT_EMBER_ERROR(fcn(ember::rand({3, 8, 8})), "FCN", "[N, C, H, W]");
  EXPECT_EMBER_ERROR(fcn(ember::zeros({1, 3, 8, 8}, ember::TensorOptions().dtype(ember::kByte))), "FCN",
                     "floating-point");
  EXPECT_ANY_THROW(fcn(ember::rand({1, 4, 8, 8})));
  // A backbone without the "aux" map the aux classifier needs.
  seg::DeepLabV3 m(IntermediateLayerGetter(body(), ReturnLayers{{"r2", "out"}}),
                   nn::AnyModule(seg::deeplabv3::DeepLabHead(16, 5)), nn::AnyModule(seg::fcn::FCNHead(8, 5)));
  m->eval();
  EXPECT_EMBER_ERROR(m(ember::rand({1, 3, 8, 8})), "DeepLabV3", "'aux'");
  seg::LRASPP l(IntermediateLayerGetter(body(), ReturnLayers{{"r1", "low"}}), 8, 16, 5);
  EXPECT_EMBER_ERROR(l(ember::rand({1, 3, 8, 8})), "LRASPPHead", "'low' and 'high'");
  EXPECT_EMBER_ERROR(seg::fcn::FCNHead(3, 5), "FCNHead", "in_channels=3");
}

}  // namespace vision_models_segmentation_test
