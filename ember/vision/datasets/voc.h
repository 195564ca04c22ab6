#pragma once
// torchvision.datasets.VOCSegmentation as a torch::data dataset:
// <root>/VOCdevkit/VOC<year> (2011: TrainVal/VOCdevkit/VOC2011), the ids of
// ImageSets/Segmentation/<image_set>.txt, images JPEGImages/<id>.jpg and
// masks SegmentationClass/<id>.png. Python's parameters, then the two
// loaders: images as RGB (default_loader), masks as stored (a palette mask
// read as its indices, not expanded to RGB: default_mask_loader).
// torchvision.datasets.VOCDetection likewise, with ImageSets/Main/<image_set>.txt
// and targets Annotations/<id>.xml parsed (expat) into a VOCAnnotation.
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/vision/datasets/common.h"
#include "ember/vision/datasets/folder.h"
#include "ember/vision/datasets/voc_annotation.h"

namespace torch::vision::datasets {

// A segmentation mask as stored: uint8 [1, H, W] palette indices for a palette PNG.
Tensor default_mask_loader(const std::string& path);

class VOCSegmentation : public data::datasets::Dataset<VOCSegmentation> {
 public:
  explicit VOCSegmentation(const std::string& root, const std::string& year = "2012",
                           const std::string& image_set = "train", bool download = false,
                           std::optional<Transform> transform = std::nullopt,
                           std::optional<Transform> target_transform = std::nullopt,
                           Loader image_loader = default_loader, Loader target_loader = default_mask_loader);

  data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

  std::string year, image_set;
  std::vector<std::string> images, masks;

 private:
  Loader image_loader_, target_loader_;
  std::optional<Transform> transform_, target_transform_;
};

using VOCExample = data::Example<Tensor, VOCAnnotation>;
using VOCTargetTransform = std::function<VOCAnnotation(VOCAnnotation)>;
// Python's `transforms`: a callable of (image, target) returning both.
using VOCTransforms = std::function<std::tuple<Tensor, VOCAnnotation>(Tensor, VOCAnnotation)>;

class VOCDetection : public data::datasets::Dataset<VOCDetection, VOCExample> {
 public:
  explicit VOCDetection(const std::string& root, const std::string& year = "2012",
                        const std::string& image_set = "train", bool download = false,
                        std::optional<Transform> transform = std::nullopt,
                        std::optional<VOCTargetTransform> target_transform = std::nullopt,
                        std::optional<VOCTransforms> transforms = std::nullopt, Loader image_loader = default_loader);

  VOCExample get(size_t index) override;
  std::optional<size_t> size() const override;
  // VOCDetection.parse_voc_xml on a file's bytes.
  static VOCAnnotation parse_voc_xml(const std::string& bytes) { return datasets::parse_voc_xml(bytes); }

  std::string year, image_set;
  std::vector<std::string> images, annotations;

 private:
  Loader image_loader_;
  std::optional<Transform> transform_;
  std::optional<VOCTargetTransform> target_transform_;
  std::optional<VOCTransforms> transforms_;
};

}  // namespace torch::vision::datasets
