// Bad arguments raise ember::Error naming the function and the bad value, where
// torchvision raises; nothing crashes or silently returns garbage.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/transforms.h"

namespace {

using namespace torch;
namespace T = torch::vision::transforms;
namespace F = torch::vision::transforms::functional;
using IM = T::InterpolationMode;

Tensor img_u8() { return randint(0, 256, {3, 6, 7}, kByte); }
Tensor img_f() { return rand({3, 6, 7}); }

TEST(VisionTransformsErrors, Functional) {
  EXPECT_EMBER_ERROR(F::resize(rand({5}), {2, 2}), "resize", "at least 2 dims");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {1, 2, 3}), "resize", "3 element");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {4, 4}, IM::BILINEAR, 8), "resize", "max_size");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {4}, IM::BILINEAR, 4), "resize", "max_size = 4");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {4, 4}, IM::LANCZOS), "resize", "lanczos");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {4, 4}, IM::NEAREST, std::nullopt, true), "resize", "antialias");
  EXPECT_EMBER_ERROR(F::resize(img_f(), {0, 4}), "resize", "positive");
  EXPECT_EMBER_ERROR(F::pad(img_f(), {1, 2, 3}), "pad", "3 element");
  EXPECT_EMBER_ERROR(F::pad(img_f(), {1}, 0, "wrap"), "pad", "wrap");
  EXPECT_EMBER_ERROR(F::pad(img_f(), {9}, 0, "symmetric"), "pad", "symmetric");
  EXPECT_EMBER_ERROR(F::crop(img_f(), 0, 0, -1, 2), "crop", "-1");
  EXPECT_EMBER_ERROR(F::center_crop(img_f(), std::vector<int64_t>{1, 2, 3}), "center_crop", "3");
  EXPECT_EMBER_ERROR(F::five_crop(img_f(), {7, 2}), "five_crop", "bigger");
  EXPECT_EMBER_ERROR(F::rotate(img_f(), 10, IM::BICUBIC), "rotate", "bicubic");
  EXPECT_EMBER_ERROR(F::rotate(img_f(), 10, IM::NEAREST, false, std::nullopt, {1.0, 2.0}), "rotate", "fill");
  EXPECT_EMBER_ERROR(F::affine(img_f(), 0, {1}, 1.0, {0.0}), "affine", "translate");
  EXPECT_EMBER_ERROR(F::affine(img_f(), 0, {1, 1}, 0.0, {0.0}), "affine", "scale");
  EXPECT_EMBER_ERROR(F::perspective(img_f(), {{0, 0}, {1, 0}}, {{0, 0}, {1, 0}}), "perspective", "four");
  EXPECT_EMBER_ERROR(F::elastic_transform(img_f(), zeros({1, 5, 7, 2})), "elastic_transform", "[1, 6, 7, 2]");
  EXPECT_EMBER_ERROR(F::normalize(img_u8(), {0.5}, {0.5}), "normalize", "float");
  EXPECT_EMBER_ERROR(F::normalize(img_f(), {0.5, 0.5}, {0.5}), "normalize", "2");
  EXPECT_EMBER_ERROR(F::normalize(img_f(), {0.5}, {0.0}), "normalize", "zero");
  EXPECT_EMBER_ERROR(F::convert_image_dtype(img_f(), kInt), "convert_image_dtype", "safely");
  EXPECT_EMBER_ERROR(F::rgb_to_grayscale(rand({4, 5, 5})), "rgb_to_grayscale", "4 channels");
  EXPECT_EMBER_ERROR(F::rgb_to_grayscale(img_f(), 2), "rgb_to_grayscale", "num_output_channels");
  EXPECT_EMBER_ERROR(F::adjust_brightness(img_f(), -0.5), "adjust_brightness", "-0.5");
  EXPECT_EMBER_ERROR(F::adjust_contrast(rand({2, 5, 5}), 0.5), "adjust_contrast", "2 channels");
  EXPECT_EMBER_ERROR(F::adjust_hue(img_f(), 0.7), "adjust_hue", "0.7");
  EXPECT_EMBER_ERROR(F::adjust_gamma(img_f(), -1), "adjust_gamma", "non-negative");
  EXPECT_EMBER_ERROR(F::posterize(img_f(), 3), "posterize", "uint8");
  EXPECT_EMBER_ERROR(F::posterize(img_u8(), 9), "posterize", "9");
  EXPECT_EMBER_ERROR(F::solarize(img_f(), 2.0), "solarize", "threshold");
  EXPECT_EMBER_ERROR(F::equalize(img_f()), "equalize", "uint8");
  EXPECT_EMBER_ERROR(F::invert(rand({5, 5})), "invert", "3 dims");
  EXPECT_EMBER_ERROR(F::gaussian_blur(img_f(), {4, 3}), "gaussian_blur", "odd");
  EXPECT_EMBER_ERROR(F::gaussian_blur(img_f(), {3, 3}, -1.0), "gaussian_blur", "positive");
  EXPECT_EMBER_ERROR(F::gaussian_blur(img_f(), {15, 3}), "gaussian_blur", "too large");
  EXPECT_EMBER_ERROR(F::to_tensor(rand({2, 2, 2, 2})), "to_tensor", "2/3");
}

TEST(VisionTransformsErrors, Modules) {
  EXPECT_EMBER_ERROR(T::Resize(T::ResizeOptions({1, 2, 3})), "Resize", "3");
  EXPECT_EMBER_ERROR(T::Pad(T::PadOptions({1}).padding_mode("wrap")), "Pad", "wrap");
  EXPECT_EMBER_ERROR(T::RandomHorizontalFlip(1.5), "RandomHorizontalFlip", "1.5");
  EXPECT_EMBER_ERROR(T::RandomRotation(-5.0), "RandomRotation", "positive");
  EXPECT_EMBER_ERROR(T::RandomAffine(T::RandomAffineOptions(0).translate({0.1, 2.0})), "RandomAffine",
                     "between 0 and 1");
  EXPECT_EMBER_ERROR(T::RandomAffine(T::RandomAffineOptions(0).shear({1.0, 2.0, 3.0})), "RandomAffine", "shear");
  EXPECT_EMBER_ERROR(T::ColorJitter(-0.1), "ColorJitter", "non negative");
  EXPECT_EMBER_ERROR(T::ColorJitter(T::ColorJitterOptions().hue({-0.7, 0.2})), "ColorJitter", "hue");
  EXPECT_EMBER_ERROR(T::GaussianBlur(4), "GaussianBlur", "odd");
  EXPECT_EMBER_ERROR(T::GaussianBlur(T::GaussianBlurOptions(3).sigma({2.0, 1.0})), "GaussianBlur", "sigma");
  EXPECT_EMBER_ERROR(T::RandomErasing(T::RandomErasingOptions().value("noise")), "RandomErasing", "random");
  EXPECT_EMBER_ERROR(T::RandomErasing(T::RandomErasingOptions().scale({0.1, 1.5})), "RandomErasing", "scale");
  EXPECT_EMBER_ERROR(T::RandAugment(T::RandAugmentOptions().magnitude(31)), "RandAugment", "magnitude");
  EXPECT_EMBER_ERROR(T::ElasticTransform(T::ElasticTransformOptions().sigma(-1.0)), "ElasticTransform", "sigma");
  EXPECT_EMBER_ERROR(T::autoaugment::AugMix(T::AugMixOptions().severity(11)), "AugMix", "severity");
  EXPECT_EMBER_ERROR(T::RandomChoice({T::RandomInvert()}, {{0.5, 0.5}}), "RandomChoice", "weights");
  EXPECT_EMBER_ERROR(T::Compose({T::TransformFunction()}), "Compose", "empty");
  T::RandomCrop crop(10);
  EXPECT_EMBER_ERROR(crop(img_f()), "RandomCrop", "larger");
  T::RandomErasing erasing(T::RandomErasingOptions(1.0).value({1.0, 2.0}));
  EXPECT_EMBER_ERROR(erasing(img_f()), "RandomErasing", "3 (number of input channels)");
  EXPECT_EMBER_ERROR(T::LinearTransformation(rand({4, 3}), rand({4})), "LinearTransformation", "square");
}

// Python's spellings compile: braced lists for sizes, fill and center, nullopt for None.
TEST(VisionTransformsErrors, SpellingsAndShapes) {
  const Tensor x = img_u8();
  EXPECT_EQ(F::resize(x, 3).sizes(), IntArrayRef({3, 3, 3}));  // int(3 * 7 / 6) = 3
  EXPECT_EQ(F::resize(x, {4}, IM::BILINEAR, 5).sizes(), IntArrayRef({3, 4, 4}));
  EXPECT_EQ(F::resize(x.unsqueeze(0).expand({2, 2, 3, 6, 7}), {4, 5}).sizes(), IntArrayRef({2, 2, 3, 4, 5}));
  EXPECT_EQ(F::rotate(x, 30, IM::NEAREST, false, {2, 3}, {1.0, 2.0, 3.0}).sizes(), x.sizes());
  EXPECT_EQ(F::get_image_size(x), (std::vector<int64_t>{7, 6}));
  EXPECT_EQ(F::get_image_num_channels(x), 3);
  EXPECT_EQ(F::get_dimensions(x), (std::vector<int64_t>{3, 6, 7}));
  EXPECT_EQ(F::to_tensor(randint(0, 256, {4, 5, 3}, kByte)).sizes(), IntArrayRef({3, 4, 5}));
  EXPECT_TENSOR_EQ(F::to_dtype(x, kFloat, true), F::convert_image_dtype(x, kFloat));
  EXPECT_TENSOR_EQ(F::to_dtype(x, kFloat), x.to(kFloat));
  T::FiveCrop five(3);
  auto [a, b, c, d, e] = five(x);
  EXPECT_EQ(e.sizes(), IntArrayRef({3, 3, 3}));
  T::TenCrop ten(T::TenCropOptions({2, 3}).vertical_flip(true));
  EXPECT_EQ(ten(x).size(), 10u);
  T::Lambda twice([](Tensor t) { return t * 2; });
  EXPECT_TENSOR_EQ(T::Compose({twice, twice})(x.to(kFloat)), x.to(kFloat) * 4);
  T::ToTensor to_tensor;
  EXPECT_EQ(to_tensor(randint(0, 256, {4, 5, 3}, kByte)).scalar_type(), kFloat);
  EXPECT_TENSOR_EQ(F::convert_image_dtype(tensor({true, false}).view({1, 1, 2}), kByte),
                   tensor({128, 0}, kByte).view({1, 1, 2}));
  EXPECT_EMBER_ERROR(T::Lambda(T::TransformFunction{}), "Lambda", "empty");
  T::LinearTransformation lt(eye(3 * 6 * 7), zeros({3 * 6 * 7}));
  EXPECT_TENSOR_CLOSE(lt(x.to(kFloat)), x.to(kFloat));
}

}  // namespace
