#pragma once
// torchvision.models.segmentation.fcn: FCNHead (conv-bn-relu-dropout-conv,
// a Sequential "0".."4") and FCN over any backbone returning "out" (and
// "aux") feature maps.
#include <cstdint>
#include <ostream>

#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/segmentation/simple_segmentation_model.h"

namespace torch::vision::models::segmentation::fcn {

class FCNHeadImpl : public nn::SequentialImpl {
 public:
  FCNHeadImpl(int64_t in_channels, int64_t channels);
  void pretty_print(std::ostream& stream) const override { stream << "FCNHead"; }
};
TORCH_MODULE(FCNHead);

class FCNImpl : public _utils::_SimpleSegmentationModelImpl {
 public:
  FCNImpl(FeatureBackbone backbone, nn::AnyModule classifier, nn::AnyModule aux_classifier = {})
      : _SimpleSegmentationModelImpl(std::move(backbone), std::move(classifier), std::move(aux_classifier)) {
    model_name_ = "FCN";
  }
};
TORCH_MODULE(FCN);

}  // namespace torch::vision::models::segmentation::fcn

namespace torch::vision::models::segmentation {
using fcn::FCN;
using fcn::FCNImpl;
}  // namespace torch::vision::models::segmentation
