#pragma once
// torchvision.models.detection.ssdlite: SSDLiteHead and its classification
// and regression heads — per feature map a depthwise 3x3
// Conv2dNormActivation (ReLU6) then a 1x1 conv (_prediction_block) — for
// use with ssd::SSD (SSDOptions::head). The model is SSD with this head.
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/ssd.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::ssdlite {

using ssd::HeadOutputs;

nn::Sequential _prediction_block(int64_t in_channels, int64_t out_channels, int64_t kernel_size,
                                 const ops::NormLayer& norm_layer);
// MobileNet's extra feature blocks: 1x1, depthwise 3x3 stride 2, 1x1 (ReLU6).
nn::Sequential _extra_block(int64_t in_channels, int64_t out_channels, const ops::NormLayer& norm_layer);

class SSDLiteClassificationHeadImpl : public ssd::SSDScoringHeadImpl {
 public:
  SSDLiteClassificationHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                                int64_t num_classes, const ops::NormLayer& norm_layer);
  void pretty_print(std::ostream& stream) const override { stream << "SSDLiteClassificationHead"; }
};
TORCH_MODULE(SSDLiteClassificationHead);

class SSDLiteRegressionHeadImpl : public ssd::SSDScoringHeadImpl {
 public:
  SSDLiteRegressionHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                            const ops::NormLayer& norm_layer);
  void pretty_print(std::ostream& stream) const override { stream << "SSDLiteRegressionHead"; }
};
TORCH_MODULE(SSDLiteRegressionHead);

class SSDLiteHeadImpl : public nn::Module {
 public:
  SSDLiteHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors, int64_t num_classes,
                  const ops::NormLayer& norm_layer);
  void pretty_print(std::ostream& stream) const override { stream << "SSDLiteHead"; }
  // {"bbox_regression", "cls_logits"}
  HeadOutputs forward(const std::vector<Tensor>& x);

  SSDLiteClassificationHead classification_head{nullptr};
  SSDLiteRegressionHead regression_head{nullptr};
};
TORCH_MODULE(SSDLiteHead);

}  // namespace torch::vision::models::detection::ssdlite
