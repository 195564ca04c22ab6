#pragma once
// torchvision.models.detection.ssd.SSDFeatureExtractorVGG and _vgg_extractor:
// SSD300/512's multi-scale features over VGG's `features` — conv4_3
// L2-normalised and scaled by a learned weight, then conv5 with the atrous
// FC6/FC7, then the extra blocks (conv8_2 .. conv11_2, and conv12_2 when
// highres). Module names equal torchvision's (scale_weight, features.<i>,
// extra.<j>.<k>).
#include <cstdint>
#include <ostream>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::models::detection::ssd {

class SSDFeatureExtractorVGGImpl : public nn::Module {
 public:
  // backbone: VGG's `features` (its five MaxPool2d mark the stages; conv4_3 must have 512 channels).
  SSDFeatureExtractorVGGImpl(const nn::Sequential& backbone, bool highres);
  void pretty_print(std::ostream& stream) const override { stream << "SSDFeatureExtractorVGG"; }
  // "0": rescaled conv4_3, "1".. : the extra blocks' outputs.
  OrderedDict<std::string, Tensor> forward(const Tensor& x);

  Tensor scale_weight;
  nn::Sequential features{nullptr};
  nn::ModuleList extra{nullptr};

 private:
  std::vector<nn::Sequential> blocks_;
};
TORCH_MODULE(SSDFeatureExtractorVGG);

// Freezes VGG's features before the last trainable_layers stages and wraps them.
SSDFeatureExtractorVGG _vgg_extractor(const nn::Sequential& backbone, bool highres, int64_t trainable_layers);

}  // namespace torch::vision::models::detection::ssd
