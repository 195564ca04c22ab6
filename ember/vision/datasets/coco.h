#pragma once
// torchvision.datasets.CocoDetection as a torch::data dataset: the images
// of a COCO instances file (sorted by image id, as pycocotools' COCO.imgs)
// with each image's annotations in file order. Python's parameters, then the
// image loader (torchvision opens the file with PIL as RGB; default_loader
// does the same with ember::vision::io).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/vision/datasets/common.h"
#include "ember/vision/datasets/folder.h"

namespace torch::vision::datasets {

// One entry of the file's "annotations" (the fields torchvision's detection
// references read; segmentation kept as its JSON text: polygons or RLE).
struct CocoAnnotation {
  int64_t id = 0, image_id = 0, category_id = 0;
  std::vector<double> bbox;  // x, y, width, height
  double area = 0;
  bool iscrowd = false;
  std::string segmentation;  // JSON, empty when absent
  std::vector<double> keypoints;
};

using CocoTarget = std::vector<CocoAnnotation>;
using CocoExample = data::Example<Tensor, CocoTarget>;
using CocoTargetTransform = std::function<CocoTarget(CocoTarget)>;

class CocoDetection : public data::datasets::Dataset<CocoDetection, CocoExample> {
 public:
  CocoDetection(const std::string& root, const std::string& annFile, std::optional<Transform> transform = std::nullopt,
                std::optional<CocoTargetTransform> target_transform = std::nullopt, Loader loader = default_loader);

  CocoExample get(size_t index) override;
  std::optional<size_t> size() const override;

  std::string root;
  std::vector<int64_t> ids;             // image ids, sorted
  std::vector<std::string> file_names;  // per id
  std::vector<CocoTarget> annotations;  // per id

 private:
  Loader loader_;
  std::optional<Transform> transform_;
  std::optional<CocoTargetTransform> target_transform_;
};

}  // namespace torch::vision::datasets
