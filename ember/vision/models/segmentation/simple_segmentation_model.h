#pragma once
// torchvision.models.segmentation._utils._SimpleSegmentationModel, the base
// of FCN and DeepLabV3: backbone features "out" (and "aux") through the
// classifier (and aux_classifier), each upsampled bilinearly to the input
// size; forward returns {"out", "aux"} as torchvision's dict.
#include <map>
#include <ostream>
#include <string>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/segmentation/backbone.h"

namespace torch::vision::models::segmentation::_utils {

class _SimpleSegmentationModelImpl : public nn::Module {
 public:
  // classifier, aux_classifier: Tensor -> Tensor; an empty aux_classifier is Python's None.
  _SimpleSegmentationModelImpl(FeatureBackbone backbone, nn::AnyModule classifier, nn::AnyModule aux_classifier = {});
  void pretty_print(std::ostream& stream) const override { stream << model_name_; }
  std::map<std::string, Tensor> forward(const Tensor& x);

  FeatureBackbone backbone;
  nn::AnyModule classifier, aux_classifier;

 protected:
  const char* model_name_ = "_SimpleSegmentationModel";
};
TORCH_MODULE(_SimpleSegmentationModel);

// Checks a segmentation model's input: a float [N, C, H, W] batch.
void check_input(const Tensor& x, const char* model);

}  // namespace torch::vision::models::segmentation::_utils
