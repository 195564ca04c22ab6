#include "ember/vision/models/detection/input_checks.h"

#include <sstream>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::detail {

namespace {

using indexing::Slice;

std::string box_list(const Tensor& box) {
  std::ostringstream s;
  const Tensor b = box.to(kDouble).contiguous();
  s << "[";
  for (int64_t i = 0; i < b.numel(); ++i) s << (i ? ", " : "") << b[i].item<double>();
  s << "]";
  return s.str();
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> check_images_and_targets(const char* model, const std::vector<Tensor>& images,
                                                                  const std::optional<std::vector<Target>>& targets,
                                                                  bool training) {
  EMBER_CHECK(!images.empty(), model, ": no images");
  if (training) EMBER_CHECK(targets.has_value(), model, ": targets should not be none when in training mode");
  if (targets) {
    EMBER_CHECK(targets->size() == images.size(), model, ": ", targets->size(), " targets for ", images.size(),
                " images");
    for (const Target& t : *targets) {
      auto it = t.find("boxes");
      EMBER_CHECK(it != t.end() && it->second.defined(), model, ": a target has no boxes");
      EMBER_CHECK(it->second.dim() == 2 && it->second.size(-1) == 4, model,
                  ": Expected target boxes to be a tensor of shape [N, 4], got ", it->second.sizes(), ".");
      EMBER_CHECK(it->second.is_floating_point(), model, ": target boxes must of float type, instead got ",
                  it->second.scalar_type());
      // NaN passes torchvision's degenerate-box test and then poisons the matching silently.
      EMBER_CHECK(isfinite(it->second).all().item<bool>(), model, ": target boxes must be finite");
      auto labels = t.find("labels");
      EMBER_CHECK(!training || labels != t.end(), model, ": Every element of targets should have a labels key");
      if (labels != t.end()) {
        const Tensor& l = labels->second;
        EMBER_CHECK(l.defined() && l.scalar_type() == kLong, model, ": target labels must of int64 type, instead got ",
                    l.defined() ? l.scalar_type() : kLong);
        EMBER_CHECK(l.dim() == 1 && l.size(0) == it->second.size(0), model, ": ", it->second.size(0),
                    " target boxes with labels of shape ", l.sizes());
        EMBER_CHECK(l.numel() == 0 || l.min().item<int64_t>() >= 0, model, ": target labels must be non-negative");
      }
    }
  }
  std::vector<std::pair<int64_t, int64_t>> sizes;
  for (const Tensor& img : images) {
    EMBER_CHECK(img.defined() && img.dim() == 3, model,
                ": images is expected to be a list of 3d tensors of shape [C, H, W], got ",
                img.defined() ? img.sizes() : IntArrayRef{});
    EMBER_CHECK(img.is_floating_point(), model,
                ": Expected input images to be of floating type (in range [0, 1]), but found type ", img.scalar_type(),
                " instead");
    EMBER_CHECK(img.size(1) > 0 && img.size(2) > 0, model, ": empty image of shape ", img.sizes());
    sizes.emplace_back(img.size(-2), img.size(-1));
  }
  return sizes;
}

void check_degenerate_boxes(const char* model, const std::vector<Target>& targets) {
  for (size_t idx = 0; idx < targets.size(); ++idx) {
    const Tensor& boxes = targets[idx].at("boxes");
    const Tensor degenerate =
        boxes.index({Slice(), Slice(2, std::nullopt)}) <= boxes.index({Slice(), Slice(std::nullopt, 2)});
    if (degenerate.any().item<bool>()) {
      const int64_t bb = nonzero(degenerate.any(1)).select(1, 0)[0].item<int64_t>();
      EMBER_ERROR(model, ": All bounding boxes should have positive height and width. Found invalid box ",
                  box_list(boxes[bb]), " for target at index ", idx, ".");
    }
  }
}

}  // namespace torch::vision::models::detection::detail
