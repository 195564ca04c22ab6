#include "ember/vision/transforms/detail.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::transforms::functional::detail {

void check_image(const Tensor& img, std::string_view op) {
  EMBER_CHECK(img.defined(), op, ": the image tensor is undefined");
  EMBER_CHECK(img.dim() >= 2, op, ": expected an image tensor [..., H, W] with at least 2 dims, got shape ",
              img.sizes());
}

void check_ndim(const Tensor& img, int64_t min_ndim, std::string_view op) {
  check_image(img, op);
  EMBER_CHECK(img.dim() >= min_ndim, op, ": expected an image tensor with at least ", min_ndim,
              " dims [..., C, H, W], got shape ", img.sizes());
}

int64_t num_channels(const Tensor& img) { return img.dim() == 2 ? 1 : img.size(-3); }

void check_channels(const Tensor& img, std::initializer_list<int64_t> permitted, std::string_view op) {
  const int64_t c = num_channels(img);
  const std::vector<int64_t> allowed(permitted);
  EMBER_CHECK(std::find(allowed.begin(), allowed.end(), c) != allowed.end(), op, ": permitted channel counts are ",
              IntArrayRef(allowed), ", but the image has ", c, " channels (shape ", img.sizes(), ")");
}

double max_value(ScalarType dtype) {
  switch (dtype) {
    case kByte:
      return 255;
    case kChar:
      return 127;
    case kShort:
      return 32767;
    case kInt:
      return 2147483647.0;
    case kLong:
      return 9223372036854775807.0;
    default:
      return 1;
  }
}

Batched to_batched(const Tensor& img, ScalarType work, bool keep_float) {
  Batched b{img, img.sizes().vec(), img.scalar_type()};
  const int64_t h = img.size(-2), w = img.size(-1);
  const int64_t c = img.dim() >= 3 ? img.size(-3) : 1;
  b.x = img.reshape({-1, c, h, w});
  const bool keep = keep_float && (b.dtype == kFloat || b.dtype == kDouble);
  if (!keep && b.dtype != work) b.x = b.x.to(work);
  return b;
}

Tensor Batched::restore(const Tensor& y) const {
  std::vector<int64_t> out(shape);
  out[out.size() - 2] = y.size(-2);
  out[out.size() - 1] = y.size(-1);
  if (shape.size() >= 3) out[out.size() - 3] = y.size(-3);
  Tensor r = y.reshape(out);
  if (r.scalar_type() != dtype) {
    if (!isFloatingType(dtype)) r = r.round();
    r = r.to(dtype);
  }
  return r;
}

}  // namespace torch::vision::transforms::functional::detail
