// OpInfo entries for the float paths of transforms::functional: compositions
// of Ember's differentiable ops, as torchvision's are of torch's. The registry's
// walks (gradcheck, gradgradcheck, forward-mode and the transform checks, in
// float64) run on them in ember_vision_tests, w.r.t. the image (and the
// displacement, the erase value).
#include <functional>

#include "autograd/opinfo.h"
#include "ember/vision/transforms/functional.h"

namespace torch::testing {
namespace {

namespace F = torch::vision::transforms::functional;
using IM = torch::vision::transforms::InterpolationMode;

struct GradCase {
  const char* name;
  std::function<Tensor(const variable_list&)> fn;
  std::vector<std::vector<int64_t>> shapes;
  bool gradgrad = true;
};

// Small: gradgradcheck perturbs every input element for every output element.
const std::vector<int64_t> kImg = {3, 3, 4};
const std::vector<int64_t> kBatch = {2, 1, 3, 4};
const std::vector<int64_t> kGray = {1, 3, 4};

const std::vector<GradCase> kCases = {
    GradCase{"resize_bilinear",
             [](const variable_list& x) {
               return F::resize(x[0], {3, 4});
             },
             {kImg}},
    GradCase{"resize_bicubic_antialias",
             [](const variable_list& x) {
               return F::resize(x[0], {3, 4}, IM::BICUBIC, std::nullopt, true);
             },
             {kBatch}},
    GradCase{"resize_nearest_up",
             [](const variable_list& x) {
               return F::resize(x[0], {7, 9}, IM::NEAREST);
             },
             {kImg}},
    GradCase{"pad_reflect",
             [](const variable_list& x) {
               return F::pad(x[0], {1, 2}, 0, "reflect");
             },
             {kImg}},
    GradCase{"pad_symmetric",
             [](const variable_list& x) {
               return F::pad(x[0], {2, 1, 0, 3}, 0, "symmetric");
             },
             {kBatch}},
    GradCase{"pad_edge", [](const variable_list& x) { return F::pad(x[0], {1}, 0, "edge"); }, {kGray}},
    GradCase{"crop_outside", [](const variable_list& x) { return F::crop(x[0], -1, 2, 3, 3); }, {kImg}},
    GradCase{"center_crop_larger",
             [](const variable_list& x) {
               return F::center_crop(x[0], {7, 4});
             },
             {kImg}},
    GradCase{"hflip", [](const variable_list& x) { return F::hflip(x[0]); }, {kBatch}},
    GradCase{"rotate_bilinear_expand",
             [](const variable_list& x) { return F::rotate(x[0], 35.0, IM::BILINEAR, true); },
             {{1, 2, 3}}},
    GradCase{"affine_bilinear_fill",
             [](const variable_list& x) {
               return F::affine(x[0], 20.0, {1, 0}, 0.9, {5.0, 0.0}, IM::BILINEAR, {0.3});
             },
             {kGray}},
    GradCase{"perspective_bilinear",
             [](const variable_list& x) {
               return F::perspective(x[0], {{0, 0}, {3, 0}, {3, 2}, {0, 2}}, {{1, 0}, {3, 1}, {2, 2}, {0, 1}});
             },
             {kGray}},
    GradCase{"elastic_image_and_displacement",
             [](const variable_list& x) { return F::elastic_transform(x[0], (x[1] - 0.5) * 0.2); },
             {kGray, {1, 3, 4, 2}},
             false},
    GradCase{"normalize",
             [](const variable_list& x) {
               return F::normalize(x[0], {0.5, 0.4, 0.3}, {0.2, 0.3, 0.25});
             },
             {kImg}},
    GradCase{"rgb_to_grayscale", [](const variable_list& x) { return F::rgb_to_grayscale(x[0], 3); }, {kImg}},
    GradCase{"adjust_brightness", [](const variable_list& x) { return F::adjust_brightness(x[0], 0.8); }, {kImg}},
    GradCase{"adjust_contrast", [](const variable_list& x) { return F::adjust_contrast(x[0], 0.7); }, {kBatch}},
    GradCase{"adjust_saturation", [](const variable_list& x) { return F::adjust_saturation(x[0], 0.6); }, {kImg}},
    GradCase{"adjust_hue", [](const variable_list& x) { return F::adjust_hue(x[0], 0.1); }, {{3, 2, 3}}},
    GradCase{"adjust_gamma", [](const variable_list& x) { return F::adjust_gamma(x[0], 1.7); }, {kImg}},
    GradCase{"adjust_sharpness", [](const variable_list& x) { return F::adjust_sharpness(x[0], 0.6); }, {kGray}},
    GradCase{"gaussian_blur",
             [](const variable_list& x) {
               return F::gaussian_blur(x[0], {3, 5}, {1.0, 0.7});
             },
             {kBatch}},
    GradCase{"invert", [](const variable_list& x) { return F::invert(x[0]); }, {kImg}},
    GradCase{"erase_image_and_value",
             [](const variable_list& x) { return F::erase(x[0], 1, 1, 2, 2, x[1]); },
             {kGray, {1, 1, 1}}}};

// Images in (0.1, 0.9): away from the clamps at 0 and 1, whose kinks finite
// differences cannot see through.
std::vector<OpInfo> entries() {
  std::vector<OpInfo> ops;
  uint64_t seed = 11;
  for (const GradCase& c : kCases) {
    OpInfo op = single_output_op(c.name, c.fn, c.shapes, 0.1, 0.9, seed);
    op.name = std::string("vision::transforms::functional::") + c.name;
    op.gradgrad = c.gradgrad;
    ops.push_back(std::move(op));
    seed += 7;
  }
  return ops;
}

RegisterOps reg(entries());

}  // namespace
}  // namespace torch::testing
