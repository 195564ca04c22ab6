#pragma once
// torchvision.models.detection.transform.GeneralizedRCNNTransform: the
// detection models' input and output transform — normalise each image,
// resize it so that its short side is min_size (its long side at most
// max_size) with torchvision's exact interpolate call, pad the batch to a
// multiple of size_divisible, and map the detections back to the original
// image sizes.
#include <cstdint>
#include <optional>
#include <ostream>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/image_list.h"
#include "ember/vision/models/detection/types.h"

namespace torch::vision::models::detection::transform {

using image_list::ImageList;
using ImageSize = std::pair<int64_t, int64_t>;

struct GeneralizedRCNNTransformOptions {
  GeneralizedRCNNTransformOptions(std::vector<int64_t> min_size, int64_t max_size, std::vector<double> image_mean,
                                  std::vector<double> image_std)
      : min_size_(std::move(min_size)),
        max_size_(max_size),
        image_mean_(std::move(image_mean)),
        image_std_(std::move(image_std)) {}
  GeneralizedRCNNTransformOptions(int64_t min_size, int64_t max_size, std::vector<double> image_mean,
                                  std::vector<double> image_std)
      : GeneralizedRCNNTransformOptions(std::vector<int64_t>{min_size}, max_size, std::move(image_mean),
                                        std::move(image_std)) {}
  // In training one of min_size is drawn per image; evaluation uses the last.
  TORCH_ARG(std::vector<int64_t>, min_size);
  TORCH_ARG(int64_t, max_size);
  TORCH_ARG(std::vector<double>, image_mean);
  TORCH_ARG(std::vector<double>, image_std);
  TORCH_ARG(int64_t, size_divisible) = 32;
  // (width, height) as torchvision's fixed_size.
  TORCH_ARG(std::optional<ImageSize>, fixed_size) = std::nullopt;
  TORCH_ARG(bool, _skip_resize) = false;
};

class GeneralizedRCNNTransformImpl : public nn::Cloneable<GeneralizedRCNNTransformImpl> {
 public:
  GeneralizedRCNNTransformImpl(int64_t min_size, int64_t max_size, std::vector<double> image_mean,
                               std::vector<double> image_std)
      : GeneralizedRCNNTransformImpl(
            GeneralizedRCNNTransformOptions(min_size, max_size, std::move(image_mean), std::move(image_std))) {}
  explicit GeneralizedRCNNTransformImpl(const GeneralizedRCNNTransformOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;

  std::tuple<ImageList, std::optional<std::vector<Target>>> forward(
      const std::vector<Tensor>& images, const std::optional<std::vector<Target>>& targets = std::nullopt);
  Tensor normalize(const Tensor& image) const;
  std::tuple<Tensor, std::optional<Target>> resize(const Tensor& image,
                                                   const std::optional<Target>& target = std::nullopt) const;
  Tensor batch_images(const std::vector<Tensor>& images, int64_t size_divisible = 32) const;
  std::vector<Detection> postprocess(std::vector<Detection> result, const std::vector<ImageSize>& image_shapes,
                                     const std::vector<ImageSize>& original_image_sizes) const;

  GeneralizedRCNNTransformOptions options;
};
TORCH_MODULE(GeneralizedRCNNTransform);

// Scale boxes [N, 4] (x1, y1, x2, y2) / keypoints [N, K, 3] from one
// (height, width) to another, with float32 ratios as torchvision.
Tensor resize_boxes(const Tensor& boxes, ImageSize original_size, ImageSize new_size);
Tensor resize_keypoints(const Tensor& keypoints, ImageSize original_size, ImageSize new_size);

}  // namespace torch::vision::models::detection::transform
