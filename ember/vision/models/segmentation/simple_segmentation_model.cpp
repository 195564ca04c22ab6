#include "ember/vision/models/segmentation/simple_segmentation_model.h"

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"

namespace torch::vision::models::segmentation::_utils {

namespace {

Tensor upsample_to(const Tensor& x, int64_t h, int64_t w) {
  namespace F = nn::functional;
  return F::interpolate(
      x, F::InterpolateFuncOptions().size(std::vector<int64_t>{h, w}).mode(enumtype::kBilinear()).align_corners(false));
}

const Tensor& feature(const OrderedDict<std::string, Tensor>& features, const char* key, const char* model) {
  const Tensor* t = features.find(key);
  EMBER_CHECK(t != nullptr, model, ": the backbone returned no '", key, "' feature map");
  return *t;
}

}  // namespace

void check_input(const Tensor& x, const char* model) {
  EMBER_CHECK(x.defined() && x.dim() == 4, model, ": expected an image batch of shape [N, C, H, W], got ",
              x.defined() ? x.sizes() : IntArrayRef{});
  EMBER_CHECK(x.is_floating_point(), model, ": expected floating-point images, got ", x.scalar_type());
}

_SimpleSegmentationModelImpl::_SimpleSegmentationModelImpl(FeatureBackbone backbone_, nn::AnyModule classifier_,
                                                           nn::AnyModule aux_classifier_)
    : backbone(std::move(backbone_)), classifier(std::move(classifier_)), aux_classifier(std::move(aux_classifier_)) {
  EMBER_CHECK(!backbone.is_empty() && !classifier.is_empty(), model_name_, ": backbone and classifier are required");
  register_module("backbone", backbone.ptr());
  register_module("classifier", classifier.ptr());
  if (!aux_classifier.is_empty()) register_module("aux_classifier", aux_classifier.ptr());
}

std::map<std::string, Tensor> _SimpleSegmentationModelImpl::forward(const Tensor& x) {
  check_input(x, model_name_);
  const int64_t h = x.size(-2), w = x.size(-1);
  const OrderedDict<std::string, Tensor> features = backbone(x);
  std::map<std::string, Tensor> result;
  result["out"] = upsample_to(classifier.forward<Tensor>(feature(features, "out", model_name_)), h, w);
  if (!aux_classifier.is_empty())
    result["aux"] = upsample_to(aux_classifier.forward<Tensor>(feature(features, "aux", model_name_)), h, w);
  return result;
}

}  // namespace torch::vision::models::segmentation::_utils
