#pragma once
// The test fixture's detector: torchvision's SSD over a two-level backbone
// small enough to commit (tools/golden/gen_vision_models_ssd_example.py
// defines the same module in Python and trains it on the fixture's scene).
#include <string>

#include "ember/torch.h"
#include "ember/vision/models/detection/ssd.h"

namespace vision_detect {

class TinyBackboneImpl : public ember::nn::Module {
 public:
  TinyBackboneImpl() {
    namespace nn = ember::nn;
    const auto conv = [](int64_t in, int64_t out) {
      return nn::Conv2d(nn::Conv2dOptions(in, out, 3).stride(2).padding(1));
    };
    stage1 = register_module("stage1", nn::Sequential(conv(3, 16), nn::ReLU(nn::ReLUOptions(true)), conv(16, 32),
                                                      nn::ReLU(nn::ReLUOptions(true))));
    stage2 = register_module("stage2", nn::Sequential(conv(32, 32), nn::ReLU(nn::ReLUOptions(true))));
  }
  ember::OrderedDict<std::string, ember::Tensor> forward(const ember::Tensor& x) {
    ember::OrderedDict<std::string, ember::Tensor> out;
    const ember::Tensor a = stage1->forward(x);
    out.insert("0", a);
    out.insert("1", stage2->forward(a));
    return out;
  }
  ember::nn::Sequential stage1{nullptr}, stage2{nullptr};
};
TORCH_MODULE(TinyBackbone);

inline ember::vision::models::detection::SSD tiny_ssd() {
  namespace det = ember::vision::models::detection;
  det::anchor_utils::DefaultBoxGenerator anchors(det::anchor_utils::DefaultBoxGeneratorOptions({{2}, {2, 3}}));
  return det::SSD(det::SSDOptions(TinyBackbone(), anchors, {128, 128}, 3)
                      .image_mean(std::vector<double>{0.5, 0.5, 0.5})
                      .image_std(std::vector<double>{0.5, 0.5, 0.5}));
}

}  // namespace vision_detect
