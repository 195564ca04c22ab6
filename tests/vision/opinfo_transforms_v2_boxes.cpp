// OpInfo entries for the v2 bounding-box kernels: compositions of Ember's
// differentiable ops (as torchvision's are of torch's), so gradients reach the
// boxes. Boxes lie in (60, 140) on a 200 x 200 canvas, away from the clamps at
// the canvas edges, whose kinks finite differences cannot see through.
#include <functional>

#include "autograd/opinfo.h"
#include "ember/vision/transforms/v2/functional_boxes.h"

namespace torch::testing {
namespace {

namespace F = torch::vision::transforms::v2::functional;
using Fmt = torch::vision::tv_tensors::BoundingBoxFormat;

struct BoxCase {
  const char* name;
  std::function<Tensor(const variable_list&)> fn;
};

const std::vector<int64_t> kCanvas = {200, 200};

const std::vector<BoxCase> kCases = {
    {"convert_bounding_box_format(xyxy->cxcywh)",
     [](const variable_list& x) { return F::convert_bounding_box_format(x[0], Fmt::XYXY, Fmt::CXCYWH); }},
    {"convert_bounding_box_format(xywh->xyxy)",
     [](const variable_list& x) { return F::convert_bounding_box_format(x[0], Fmt::XYWH, Fmt::XYXY); }},
    {"horizontal_flip_bounding_boxes(xywh)",
     [](const variable_list& x) { return F::horizontal_flip_bounding_boxes(x[0], Fmt::XYWH, kCanvas); }},
    {"resize_bounding_boxes",
     [](const variable_list& x) {
       return std::get<0>(F::resize_bounding_boxes(x[0], kCanvas, {300, 250}));
     }},
    {"crop_bounding_boxes(cxcywh)",
     [](const variable_list& x) { return std::get<0>(F::crop_bounding_boxes(x[0], Fmt::CXCYWH, 10, 20, 180, 170)); }},
    {"rotate_bounding_boxes(expand)",
     [](const variable_list& x) {
       return std::get<0>(F::rotate_bounding_boxes(x[0], Fmt::XYXY, kCanvas, 30.0, true));
     }},
    {"affine_bounding_boxes",
     [](const variable_list& x) {
       return F::affine_bounding_boxes(x[0], Fmt::XYXY, kCanvas, 12.0, {3.0, -4.0}, 0.9, {8.0, 3.0});
     }},
    {"perspective_bounding_boxes",
     [](const variable_list& x) {
       return F::perspective_bounding_boxes(x[0], Fmt::XYXY, kCanvas, {{0, 0}, {199, 0}, {199, 199}, {0, 199}},
                                            {{4, 3}, {190, 2}, {196, 195}, {2, 190}});
     }},
};

std::vector<OpInfo> entries() {
  std::vector<OpInfo> ops;
  uint64_t seed = 501;
  for (const BoxCase& c : kCases) {
    OpInfo op = single_output_op(c.name, c.fn, {{3, 4}}, 60, 140, seed);
    op.name = std::string("vision::transforms::v2::functional::") + c.name;
    ops.push_back(std::move(op));
    seed += 5;
  }
  return ops;
}

RegisterOps reg(entries());

}  // namespace
}  // namespace torch::testing
