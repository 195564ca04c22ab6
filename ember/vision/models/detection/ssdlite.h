#pragma once
// torchvision.models.detection.ssdlite: SSDLiteHead and its classification
// and regression heads — per feature map a depthwise 3x3
// Conv2dNormActivation (ReLU6) then a 1x1 conv (_prediction_block) — for
// use with ssd::SSD (SSDOptions::head). The model is SSD with this head; and
// SSDLiteFeatureExtractorMobileNet, its MobileNetV3 backbone, with
// _mobilenet_extractor.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/ssd.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::ssdlite {

using ssd::HeadOutputs;

// Every Conv2d in `conv`: weights N(0, 0.03), biases 0 (the builder applies it to an untrained backbone).
void _normal_init(nn::Module& conv);
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

// SSDlite's multi-scale features over MobileNetV3's `features`: "0" the C4
// expansion (backbone[:c4_pos] and backbone[c4_pos].block[0]), "1" the rest
// of the backbone (features.1.0 is the C4 block's remaining layers), then four
// _extra_blocks with max(min_depth, int(d * width_mult)) channels, d = 512,
// 256, 256, 128.
class SSDLiteFeatureExtractorMobileNetImpl : public nn::Module {
 public:
  // backbone: MobileNetV3's `features`; backbone[c4_pos] is an InvertedResidual without a residual connection.
  SSDLiteFeatureExtractorMobileNetImpl(const nn::Sequential& backbone, int64_t c4_pos, const ops::NormLayer& norm_layer,
                                       double width_mult = 1.0, int64_t min_depth = 16);
  void pretty_print(std::ostream& stream) const override { stream << "SSDLiteFeatureExtractorMobileNet"; }
  OrderedDict<std::string, Tensor> forward(const Tensor& x);

  nn::Sequential features{nullptr};
  nn::ModuleList extra{nullptr};

 private:
  std::vector<nn::Sequential> stages_;
};
TORCH_MODULE(SSDLiteFeatureExtractorMobileNet);

// Freezes the backbone before its last trainable_layers stages (the stem, the
// strided blocks and the last layer start them) and wraps it with the C4
// split at the last strided block.
SSDLiteFeatureExtractorMobileNet _mobilenet_extractor(const nn::Sequential& backbone, int64_t trainable_layers,
                                                      const ops::NormLayer& norm_layer);

}  // namespace torch::vision::models::detection::ssdlite
