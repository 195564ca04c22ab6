#include "ember/vision/ops/roi_common.h"

#include "ember/ops/all_ops.h"

namespace torch::vision::ops::detail {

Tensor rois_from_boxes(const char* op, const Tensor& boxes) {
  EMBER_CHECK(boxes.defined() && boxes.dim() == 2 && boxes.size(1) == 5, op,
              ": The boxes tensor shape is not correct as Tensor[K, 5], got shape ",
              boxes.defined() ? boxes.sizes() : IntArrayRef{});
  return boxes;
}

Tensor rois_from_boxes(const char* op, const std::vector<Tensor>& boxes) {
  std::vector<Tensor> rows;
  rows.reserve(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) {
    const Tensor& b = boxes[i];
    EMBER_CHECK(b.defined() && b.dim() == 2 && b.size(1) == 4, op,
                ": The shape of the tensor in the boxes list is not correct as List[Tensor[L, 4]], got shape ",
                b.defined() ? b.sizes() : IntArrayRef{}, " at index ", i);
    EMBER_CHECK(i == 0 || b.dtype() == boxes[0].dtype(), op, ": the boxes list mixes dtypes ", boxes[0].dtype(),
                " and ", b.dtype());
    rows.push_back(cat({full({b.size(0), 1}, static_cast<double>(i), b.options()), b}, 1));
  }
  EMBER_CHECK(!rows.empty(), op, ": the boxes list is empty");
  return rows.size() == 1 ? rows[0] : cat(rows, 0);
}

std::pair<int64_t, int64_t> pooled_size(const char* op, IntArrayRef output_size) {
  EMBER_CHECK(output_size.size() == 1 || output_size.size() == 2, op,
              ": output_size must be an int or a pair of ints, got ", output_size);
  const int64_t h = output_size[0], w = output_size.size() == 2 ? output_size[1] : output_size[0];
  EMBER_CHECK(h > 0 && w > 0, op, ": output_size must be positive, got ", output_size);
  return {h, w};
}

void check_roi_args(const char* op, const Tensor& input, const Tensor& rois) {
  EMBER_CHECK(input.defined() && input.dim() == 4, op, ": input must be a Tensor[N, C, H, W], got shape ",
              input.defined() ? input.sizes() : IntArrayRef{});
  EMBER_CHECK(input.size(2) > 0 && input.size(3) > 0, op, ": input must have non-empty spatial dimensions, got shape ",
              input.sizes());
  EMBER_CHECK(rois.dim() == 2 && rois.size(1) == 5, op, ": rois must be a Tensor[K, 5], got shape ", rois.sizes());
  EMBER_CHECK(input.dtype() == rois.dtype(), op, ": input and boxes must have the same dtype, got ", input.dtype(),
              " and ", rois.dtype());
  const Tensor r = rois.detach().to(kFloat64).contiguous();
  const double* p = r.data_ptr<double>();
  const int64_t batch = input.size(0);
  for (int64_t k = 0; k < r.size(0); ++k) {
    const double* row = p + 5 * k;
    EMBER_CHECK(std::isfinite(row[0]) && row[0] >= 0 && static_cast<int64_t>(row[0]) < batch, op, ": box ", k,
                " has batch index ", row[0], ", but the input holds ", batch, " images");
    for (int j = 1; j < 5; ++j)
      EMBER_CHECK(std::isfinite(row[j]), op, ": box ", k, " has a non-finite coordinate ", row[j]);
  }
}

}  // namespace torch::vision::ops::detail
