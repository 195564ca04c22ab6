// OpInfo entries for the detection box parametrisations and losses
// (ember/vision/models/detection/box_coder.*, box_loss.*): they compose
// differentiable ops, so gradcheck and gradgradcheck run on them in float64.
// Boxes are built from samples in [0.5, 2) as (x, y, x + w, y + h), so every
// width and height is positive.
#include "autograd/opinfo.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/box_loss.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;
namespace det_utils = ::torch::vision::models::detection::_utils;
using indexing::Slice;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  return single_output_op(name, std::move(f), std::move(shapes), 0.5, 2, 3607);
}

Tensor boxes(const Tensor& x) {
  const Tensor xy = x.index({Slice(), Slice(0, 2)});
  return cat({xy, xy + x.index({Slice(), Slice(2, 4)})}, 1);
}

const det_utils::BoxCoder& coder() {
  static const det_utils::BoxCoder c({10.0, 10.0, 5.0, 5.0}, 2.0);
  return c;
}

RegisterOps reg({
    op("detection.BoxCoder.encode_single",
       [](const variable_list& x) { return coder().encode_single(boxes(x[0]), boxes(x[1])); }, {{3, 4}, {3, 4}}),
    // Codes in [0.5, 2) scaled so some log-size deltas pass bbox_xform_clip.
    op("detection.BoxCoder.decode_single",
       [](const variable_list& x) { return coder().decode_single(x[0] * 4 - 3, boxes(x[1])); }, {{3, 8}, {3, 4}}),
    op("detection.BoxLinearCoder.encode",
       [](const variable_list& x) { return det_utils::BoxLinearCoder(true).encode(boxes(x[0]), boxes(x[1])); },
       {{3, 4}, {3, 4}}),
    op("detection.BoxLinearCoder.decode",
       [](const variable_list& x) { return det_utils::BoxLinearCoder(true).decode(x[0], boxes(x[1])); },
       {{3, 4}, {3, 4}}),
    op("detection._box_loss(smooth_l1)",
       [](const variable_list& x) {
         return det_utils::_box_loss("smooth_l1", coder(), boxes(x[0]), boxes(x[1]), x[2] - 1, {{"beta", 0.5}});
       },
       {{3, 4}, {3, 4}, {3, 4}}),
    op("detection._box_loss(giou)",
       [](const variable_list& x) {
         return det_utils::_box_loss("giou", det_utils::BoxCoder({1.0, 1.0, 1.0, 1.0}), boxes(x[0]), boxes(x[1]),
                                     (x[2] - 1) * 0.3);
       },
       {{3, 4}, {3, 4}, {3, 4}}),
});

}  // namespace
}  // namespace torch::testing
