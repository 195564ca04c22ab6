#pragma once
// torchvision.models.segmentation.deeplabv3: ASPP (1x1 branch, dilated 3x3
// branches, image pooling branch, projection), DeepLabHead and DeepLabV3.
// Module trees equal torchvision's: ASPP's convs.<i> and project.<j>,
// DeepLabHead's Sequential "0" (ASPP) .. "4".
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/segmentation/simple_segmentation_model.h"

namespace torch::vision::models::segmentation::deeplabv3 {

class ASPPConvImpl : public nn::SequentialImpl {
 public:
  ASPPConvImpl(int64_t in_channels, int64_t out_channels, int64_t dilation);
  void pretty_print(std::ostream& stream) const override { stream << "ASPPConv"; }
};
TORCH_MODULE(ASPPConv);

// A Sequential in torchvision with its own forward (the final upsampling);
// here a module whose children are named "0".."3" the same way.
class ASPPPoolingImpl : public nn::Module {
 public:
  ASPPPoolingImpl(int64_t in_channels, int64_t out_channels);
  void pretty_print(std::ostream& stream) const override { stream << "ASPPPooling"; }
  Tensor forward(const Tensor& x);

 private:
  nn::Sequential layers_;
};
TORCH_MODULE(ASPPPooling);

class ASPPImpl : public nn::Module {
 public:
  ASPPImpl(int64_t in_channels, std::vector<int64_t> atrous_rates, int64_t out_channels = 256);
  void pretty_print(std::ostream& stream) const override { stream << "ASPP"; }
  Tensor forward(const Tensor& x);

  nn::ModuleList convs{nullptr};
  nn::Sequential project{nullptr};

 private:
  std::vector<nn::AnyModule> branches_;
};
TORCH_MODULE(ASPP);

class DeepLabHeadImpl : public nn::SequentialImpl {
 public:
  DeepLabHeadImpl(int64_t in_channels, int64_t num_classes);
  void pretty_print(std::ostream& stream) const override { stream << "DeepLabHead"; }
};
TORCH_MODULE(DeepLabHead);

class DeepLabV3Impl : public _utils::_SimpleSegmentationModelImpl {
 public:
  DeepLabV3Impl(FeatureBackbone backbone, nn::AnyModule classifier, nn::AnyModule aux_classifier = {})
      : _SimpleSegmentationModelImpl(std::move(backbone), std::move(classifier), std::move(aux_classifier)) {
    model_name_ = "DeepLabV3";
  }
};
TORCH_MODULE(DeepLabV3);

}  // namespace torch::vision::models::segmentation::deeplabv3

namespace torch::vision::models::segmentation {
using deeplabv3::DeepLabV3;
using deeplabv3::DeepLabV3Impl;
}  // namespace torch::vision::models::segmentation
