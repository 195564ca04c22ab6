#pragma once
// torchvision.models.segmentation.lraspp: LRASPPHead (a 1x1 conv-bn-relu
// branch gated by a pooled sigmoid "scale" branch, upsampled onto the
// low-level features, plus two 1x1 classifiers) and LRASPP over any backbone
// returning "low" and "high" feature maps.
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/segmentation/backbone.h"

namespace torch::vision::models::segmentation::lraspp {

class LRASPPHeadImpl : public nn::Module {
 public:
  LRASPPHeadImpl(int64_t low_channels, int64_t high_channels, int64_t num_classes, int64_t inter_channels);
  void pretty_print(std::ostream& stream) const override { stream << "LRASPPHead"; }
  Tensor forward(const OrderedDict<std::string, Tensor>& input);

  nn::Sequential cbr{nullptr}, scale{nullptr};
  nn::Conv2d low_classifier{nullptr}, high_classifier{nullptr};
};
TORCH_MODULE(LRASPPHead);

class LRASPPImpl : public nn::Module {
 public:
  LRASPPImpl(FeatureBackbone backbone, int64_t low_channels, int64_t high_channels, int64_t num_classes,
             int64_t inter_channels = 128);
  void pretty_print(std::ostream& stream) const override { stream << "LRASPP"; }
  // {"out": [N, num_classes, H, W]}
  std::map<std::string, Tensor> forward(const Tensor& input);

  FeatureBackbone backbone;
  LRASPPHead classifier{nullptr};
};
TORCH_MODULE(LRASPP);

}  // namespace torch::vision::models::segmentation::lraspp

namespace torch::vision::models::segmentation {
using lraspp::LRASPP;
using lraspp::LRASPPImpl;
}  // namespace torch::vision::models::segmentation
