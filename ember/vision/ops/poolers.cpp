#include "ember/vision/ops/poolers.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/ops/roi_common.h"

namespace torch::vision::ops {

namespace {

// The power of two nearest a feature map's size ratio to the image (log2
// rounded half to even in float32, as torchvision's tensor round).
double infer_scale(const Tensor& feature, std::pair<int64_t, int64_t> original) {
  const double approx = static_cast<double>(feature.size(-2)) / static_cast<double>(original.first);
  return std::pow(2.0, static_cast<double>(std::nearbyint(std::log2(static_cast<float>(approx)))));
}

}  // namespace

Tensor LevelMapper::operator()(const std::vector<Tensor>& boxlists) const {
  std::vector<Tensor> areas;
  for (const Tensor& b : boxlists) areas.push_back(box_area(b));
  const Tensor s = cat(areas, 0).sqrt();
  const Tensor target = (static_cast<double>(lvl0) + (s / static_cast<double>(s0)).log2() + full({}, eps, s.options()))
                            .floor()
                            .clamp(Scalar(k_min), Scalar(k_max));
  return target.to(kInt64) - k_min;
}

void MultiScaleRoIAlignImpl::pretty_print(std::ostream& stream) const {
  stream << "MultiScaleRoIAlign(featmap_names=[";
  for (size_t i = 0; i < options.featmap_names().size(); ++i)
    stream << (i ? ", " : "") << "'" << options.featmap_names()[i] << "'";
  stream << "], output_size=(" << options.output_size()[0] << ", " << options.output_size().back()
         << "), sampling_ratio=" << options.sampling_ratio() << ")";
}

Tensor MultiScaleRoIAlignImpl::forward(const OrderedDict<std::string, Tensor>& x, const std::vector<Tensor>& boxes,
                                       const std::vector<std::pair<int64_t, int64_t>>& image_shapes) {
  const char* op = "MultiScaleRoIAlign";
  std::vector<Tensor> features;
  const auto& names = options.featmap_names();
  for (const auto& item : x.items())
    if (std::find(names.begin(), names.end(), item.key()) != names.end()) features.push_back(item.value());
  EMBER_CHECK(!features.empty(), op, ": none of the feature maps is in featmap_names");
  for (const Tensor& f : features)
    EMBER_CHECK(f.dim() == 4, op, ": feature maps must be Tensor[N, C, H, W], got shape ", f.sizes());
  if (!scales || !map_levels) {
    EMBER_CHECK(!image_shapes.empty(), op, ": images list should not be empty");
    std::pair<int64_t, int64_t> original{0, 0};
    for (const auto& [h, w] : image_shapes) {
      EMBER_CHECK(h > 0 && w > 0, op, ": image shapes must be positive, got (", h, ", ", w, ")");
      original.first = std::max(original.first, h), original.second = std::max(original.second, w);
    }
    std::vector<double> s;
    for (const Tensor& f : features) s.push_back(infer_scale(f, original));
    const auto level = [](double scale) { return static_cast<int64_t>(-std::log2(static_cast<float>(scale))); };
    map_levels.emplace(level(s.front()), level(s.back()), options.canonical_scale(), options.canonical_level());
    scales = std::move(s);
  }
  EMBER_CHECK(scales->size() == features.size(), op, ": the module was set up for ", scales->size(),
              " feature maps, got ", features.size());
  const Tensor rois = detail::rois_from_boxes(op, boxes);
  const auto& out = options.output_size();
  if (features.size() == 1) return roi_align(features[0], rois, out, (*scales)[0], options.sampling_ratio());
  const Tensor levels = (*map_levels)(boxes);
  std::vector<Tensor> pooled, order;
  for (size_t l = 0; l < features.size(); ++l) {
    const Tensor idx = levels.eq(static_cast<int64_t>(l)).nonzero().select(1, 0);
    pooled.push_back(roi_align(features[l], rois.index_select(0, idx), out, (*scales)[l], options.sampling_ratio()));
    order.push_back(idx);
  }
  // Boxes of a level without a feature map pool to zeros, as torchvision's.
  const Tensor unmapped = levels.ge(static_cast<int64_t>(features.size())).nonzero().select(1, 0);
  if (unmapped.numel() > 0) {
    pooled.push_back(
        zeros({unmapped.size(0), pooled[0].size(1), pooled[0].size(2), pooled[0].size(3)}, pooled[0].options()));
    order.push_back(unmapped);
  }
  // Each box's result back in its place: the inverse of the by-level order.
  return cat(pooled, 0).index_select(0, cat(order, 0).argsort());
}

}  // namespace torch::vision::ops
