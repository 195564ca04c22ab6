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

namespace vision_models_segmentation_test {

namespace seg = ember::vision::models::segmentation;
namespace nn = ember::nn;
using ember::Tensor;
using ember::testing::Golden;
using ember::vision::models::_utils::IntermediateLayerGetter;
using ember::vision::models::_utils::ReturnLayers;

const Golden& golden() {
  static const Golden g("vision_segmentation.golden");
  return g;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void fill(nn::Module& m) {
  ember::NoGradGuard guard;
  int64_t k = 0;
  for (const auto& item : m.state_dict()) {
    const std::string& name = item.key();
    Tensor t = item.value();
    const int64_t idx = k++;
    if (ends_with(name, "num_batches_tracked")) continue;
    const int64_t n = t.numel();
    const Tensor s =
        ember::sin(0.37 * ember::arange(n, ember::TensorOptions().dtype(ember::kDouble)) + static_cast<double>(idx));
    Tensor v;
    if (ends_with(name, "running_var")) {
      v = 0.5 + 0.25 * (1 + s);
    } else {
      const double scale =
          t.dim() >= 2 ? 1.0 / std::sqrt(static_cast<double>(n) / static_cast<double>(t.size(0))) : 0.1;
      v = scale * s;
    }
    t.copy_(v.reshape(t.sizes()).to(t.scalar_type()));
  }
}

void check(const std::string& name, nn::Module& m, const std::function<std::map<std::string, Tensor>(Tensor)>& run,
           const std::vector<std::string>& outs) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  const auto sd = m.state_dict();
  const auto names = g.names_with_prefix(name + ".sd.");
  EXPECT_EQ(sd.size(), names.size());
  for (const std::string& key : names) {
    const std::string n = key.substr(name.size() + 4);
    const Tensor* t = sd.find(n);
    ASSERT_NE(t, nullptr) << "missing " << n;
    const Tensor want = g[key];
    EXPECT_EQ(sd.keys()[want[0].item<int64_t>()], n);
    std::vector<int64_t> shape;
    for (int64_t i = 1; i < want.numel(); ++i) shape.push_back(want[i].item<int64_t>());
    EXPECT_EQ(t->sizes().vec(), shape) << n;
  }
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
