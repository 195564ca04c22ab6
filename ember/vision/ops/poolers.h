#pragma once
// torchvision.ops.MultiScaleRoIAlign: RoIAlign over a feature pyramid, each
// box pooled from the level its size maps to (FPN's level rule).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

// Maps boxes to pyramid levels: floor(canonical_level + log2(sqrt(area) /
// canonical_scale) + eps), clamped to [k_min, k_max], minus k_min.
class LevelMapper {
 public:
  LevelMapper(int64_t k_min, int64_t k_max, int64_t canonical_scale = 224, int64_t canonical_level = 4,
              double eps = 1e-6)
      : k_min(k_min), k_max(k_max), s0(canonical_scale), lvl0(canonical_level), eps(eps) {}
  Tensor operator()(const std::vector<Tensor>& boxlists) const;
  int64_t k_min, k_max, s0, lvl0;
  double eps;
};

struct MultiScaleRoIAlignOptions {
  MultiScaleRoIAlignOptions(std::vector<std::string> featmap_names, std::vector<int64_t> output_size,
                            int64_t sampling_ratio)
      : featmap_names_(std::move(featmap_names)),
        output_size_(std::move(output_size)),
        sampling_ratio_(sampling_ratio) {}
  MultiScaleRoIAlignOptions(std::vector<std::string> featmap_names, int64_t output_size, int64_t sampling_ratio)
      : MultiScaleRoIAlignOptions(std::move(featmap_names), std::vector<int64_t>{output_size, output_size},
                                  sampling_ratio) {}
  TORCH_ARG(std::vector<std::string>, featmap_names);
  TORCH_ARG(std::vector<int64_t>, output_size);
  TORCH_ARG(int64_t, sampling_ratio);
  TORCH_ARG(int64_t, canonical_scale) = 224;
  TORCH_ARG(int64_t, canonical_level) = 4;
};

class MultiScaleRoIAlignImpl : public nn::Cloneable<MultiScaleRoIAlignImpl> {
 public:
  explicit MultiScaleRoIAlignImpl(const MultiScaleRoIAlignOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  // x: the feature maps by name, in the backbone's order; boxes: one
  // Tensor[L, 4] per image; image_shapes: each image's (height, width). The
  // level scales are inferred on the first call and kept, as torchvision.
  Tensor forward(const OrderedDict<std::string, Tensor>& x, const std::vector<Tensor>& boxes,
                 const std::vector<std::pair<int64_t, int64_t>>& image_shapes);
  MultiScaleRoIAlignOptions options;
  std::optional<std::vector<double>> scales;
  std::optional<LevelMapper> map_levels;
};
TORCH_MODULE(MultiScaleRoIAlign);

}  // namespace torch::vision::ops
