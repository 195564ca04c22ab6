#include "ember/vision/transforms/v2/sample.h"

#include "ember/core/error.h"

namespace torch::vision::transforms::v2 {

std::vector<int64_t> query_size(const Sample& sample, const char* op) {
  std::optional<std::vector<int64_t>> size;
  auto agree = [&](std::vector<int64_t> s, const char* what) {
    if (!size) {
      size = std::move(s);
      return;
    }
    EMBER_CHECK(*size == s, op, ": the sample's spatial sizes disagree: (", (*size)[0], ", ", (*size)[1], ") vs the ",
                what, "'s (", s[0], ", ", s[1], ")");
  };
  auto plane = [&](const Tensor& t, const char* what) {
    EMBER_CHECK(t.defined() && t.dim() >= 2, op, ": the sample's ", what, " should be [..., H, W]");
    agree({t.size(-2), t.size(-1)}, what);
  };
  if (sample.image) plane(*sample.image, "image");
  if (sample.video) plane(*sample.video, "video");
  if (sample.masks) plane(*sample.masks, "masks");
  if (sample.boxes) agree(sample.boxes->canvas_size, "boxes' canvas");
  EMBER_CHECK(size.has_value(), op, ": the sample has no image, video, mask or bounding boxes");
  return *size;
}

}  // namespace torch::vision::transforms::v2
