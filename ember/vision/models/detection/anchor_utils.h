#pragma once
// torchvision.models.detection.anchor_utils: AnchorGenerator (R-CNN and
// RetinaNet anchors: sizes x aspect ratios per feature map, tiled at the
// map's stride) and DefaultBoxGenerator (SSD's default boxes).
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/image_list.h"

namespace torch::vision::models::detection::anchor_utils {

using image_list::ImageList;

struct AnchorGeneratorOptions {
  // One list of sizes and of aspect ratios (height / width) per feature map.
  TORCH_ARG(std::vector<std::vector<int64_t>>, sizes) = {{128, 256, 512}};
  TORCH_ARG(std::vector<std::vector<double>>, aspect_ratios) = {{0.5, 1.0, 2.0}};
};

class AnchorGeneratorImpl : public nn::Cloneable<AnchorGeneratorImpl> {
 public:
  AnchorGeneratorImpl(std::vector<std::vector<int64_t>> sizes, std::vector<std::vector<double>> aspect_ratios)
      : AnchorGeneratorImpl(AnchorGeneratorOptions().sizes(std::move(sizes)).aspect_ratios(std::move(aspect_ratios))) {}
  explicit AnchorGeneratorImpl(const AnchorGeneratorOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "AnchorGenerator()"; }
  static Tensor generate_anchors(const std::vector<int64_t>& scales, const std::vector<double>& aspect_ratios,
                                 ScalarType dtype = kFloat);
  std::vector<int64_t> num_anchors_per_location() const;
  std::vector<Tensor> grid_anchors(const std::vector<std::pair<int64_t, int64_t>>& grid_sizes,
                                   const std::vector<std::pair<int64_t, int64_t>>& strides) const;
  // One Tensor[sum_l H_l * W_l * A_l, 4] per image of the batch.
  std::vector<Tensor> forward(const ImageList& image_list, const std::vector<Tensor>& feature_maps);

  AnchorGeneratorOptions options;
  std::vector<Tensor> cell_anchors;
};
TORCH_MODULE(AnchorGenerator);

struct DefaultBoxGeneratorOptions {
  /* implicit */ DefaultBoxGeneratorOptions(std::vector<std::vector<int64_t>> aspect_ratios)  // NOLINT
      : aspect_ratios_(std::move(aspect_ratios)) {}
  TORCH_ARG(std::vector<std::vector<int64_t>>, aspect_ratios);
  TORCH_ARG(double, min_ratio) = 0.15;
  TORCH_ARG(double, max_ratio) = 0.9;
  TORCH_ARG(std::optional<std::vector<double>>, scales) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<int64_t>>, steps) = std::nullopt;
  TORCH_ARG(bool, clip) = true;
};

class DefaultBoxGeneratorImpl : public nn::Cloneable<DefaultBoxGeneratorImpl> {
 public:
  explicit DefaultBoxGeneratorImpl(const DefaultBoxGeneratorOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "DefaultBoxGenerator()"; }
  std::vector<int64_t> num_anchors_per_location() const;
  // One Tensor[sum_l H_l * W_l * A_l, 4] (x1, y1, x2, y2 in pixels) per image.
  std::vector<Tensor> forward(const ImageList& image_list, const std::vector<Tensor>& feature_maps);

  DefaultBoxGeneratorOptions options;
  std::vector<double> scales;
  // Per feature map, the (w, h) of its default boxes, relative to the image.
  std::vector<Tensor> _wh_pairs;

 private:
  Tensor grid_default_boxes(const std::vector<std::pair<int64_t, int64_t>>& grid_sizes,
                            std::pair<int64_t, int64_t> image_size, ScalarType dtype) const;
};
TORCH_MODULE(DefaultBoxGenerator);

}  // namespace torch::vision::models::detection::anchor_utils
