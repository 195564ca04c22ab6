"""Golden values for ember::vision::transforms::functional: torchvision 0.14's tensor
transforms on seeded uint8 and float images ([3, 7, 9], batches [2, 3, 8, 8], a grey
[1, 7, 9] and a larger [3, 32, 40] for equalize). Each case `<case>.<input>` holds
torchvision's output; tests/vision/transforms_functional_test.cpp runs the same calls.
Run: /usr/bin/python3 tools/golden/gen_vision_transforms.py"""
import torch
import torchvision.transforms.functional as F
import torchvision.transforms.functional_tensor as F_t
from torchvision.transforms import InterpolationMode as IM

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("vision_transforms")

inputs = {
    "u8": torch.randint(0, 256, (3, 7, 9), dtype=torch.uint8),
    "f32": torch.rand(3, 7, 9),
    "bu8": torch.randint(0, 256, (2, 3, 8, 8), dtype=torch.uint8),
    "bf32": torch.rand(2, 3, 8, 8),
    "g8": torch.randint(0, 256, (1, 7, 9), dtype=torch.uint8),
    "f64": torch.rand(3, 7, 9, dtype=torch.float64),
}
big = torch.randint(0, 256, (3, 32, 40), dtype=torch.uint8)
big[1] = (big[1] // 4) + 60  # a narrow histogram
big[2, :16] = 7  # a peaked one
inputs["big"] = big
const = torch.rand(3, 7, 9)
const[1] = 0.25  # a flat channel: autocontrast leaves it alone
inputs["flat"] = const
for k, v in inputs.items():
    g.add("in." + k, v)

disp = {(7, 9): torch.randn(1, 7, 9, 2) * 0.1, (8, 8): torch.randn(1, 8, 8, 2) * 0.1}
for (h, w), d in disp.items():
    g.add("disp.%dx%d" % (h, w), d)


def fill3(x):
    return [10.0, 200.0, 77.0] if not x.is_floating_point() else [0.1, 0.8, 0.3]


def fill1(x):
    return [99.0] if not x.is_floating_point() else [0.6]


def stack_tuple(ts):
    return torch.stack(list(ts))


COLOR = ["u8", "f32", "bu8", "bf32", "g8", "f64"]
RGB = ["u8", "f32", "bu8", "bf32", "f64"]
ALL = COLOR
FLOAT = ["f32", "bf32", "f64"]
U8 = ["u8", "bu8", "g8", "big"]

CASES = [
    # resize
    ("resize.bilinear_4x5", ALL, lambda x: F.resize(x, [4, 5])),
    ("resize.bilinear_short5", ALL, lambda x: F.resize(x, 5)),
    ("resize.bilinear_up_12x10", ALL, lambda x: F.resize(x, [12, 10])),
    ("resize.bilinear_aa_4x5", ALL, lambda x: F.resize(x, [4, 5], antialias=True)),
    ("resize.bilinear_aa_short3", ALL, lambda x: F.resize(x, [3], antialias=True)),
    ("resize.bicubic_4x6", ALL, lambda x: F.resize(x, [4, 6], IM.BICUBIC)),
    ("resize.bicubic_up_13x11", ALL, lambda x: F.resize(x, [13, 11], IM.BICUBIC)),
    ("resize.bicubic_aa_5x4", ALL, lambda x: F.resize(x, [5, 4], IM.BICUBIC, antialias=True)),
    ("resize.nearest_4x5", ALL, lambda x: F.resize(x, [4, 5], IM.NEAREST)),
    ("resize.nearest_up_11x13", ALL, lambda x: F.resize(x, [11, 13], IM.NEAREST)),
    ("resize.nearest_exact_5x4", ALL, lambda x: F_t.resize(x, [5, 4], "nearest-exact")),
    ("resize.nearest_exact_up_11x13", ALL, lambda x: F_t.resize(x, [11, 13], "nearest-exact")),
    ("resize.max_size_short5_max6", ALL, lambda x: F.resize(x, [5], max_size=6)),
    ("resize.same_size", ALL, lambda x: F.resize(x, list(x.shape[-2:]))),
    # pad
    ("pad.constant_2_fill7", ALL, lambda x: F.pad(x, [2], fill=7 if not x.is_floating_point() else 0.7)),
    ("pad.edge_1_2", ALL, lambda x: F.pad(x, [1, 2], padding_mode="edge")),
    ("pad.reflect_1_2_3_1", ALL, lambda x: F.pad(x, [1, 2, 3, 1], padding_mode="reflect")),
    ("pad.symmetric_2_1_0_3", ALL, lambda x: F.pad(x, [2, 1, 0, 3], padding_mode="symmetric")),
    ("pad.constant_neg", ALL, lambda x: F.pad(x, [-1, 2])),
    ("pad.symmetric_neg", ["u8", "f32", "bu8", "bf32"], lambda x: F.pad(x, [-1, 1, 2, -2], padding_mode="symmetric")),
    # crops and flips
    ("crop.inside", ALL, lambda x: F.crop(x, 1, 2, 4, 5)),
    ("crop.outside", ALL, lambda x: F.crop(x, -2, -1, 5, 6)),
    ("crop.past_end", ALL, lambda x: F.crop(x, 3, 4, 6, 8)),
    ("center_crop.4x5", ALL, lambda x: F.center_crop(x, [4, 5])),
    ("center_crop.larger_10x12", ALL, lambda x: F.center_crop(x, [10, 12])),
    ("center_crop.6", ALL, lambda x: F.center_crop(x, 6)),
    ("resized_crop.bilinear", ALL, lambda x: F.resized_crop(x, 1, 1, 5, 6, [4, 4])),
    ("resized_crop.nearest_up", ALL, lambda x: F.resized_crop(x, 0, 2, 4, 4, [6, 7], IM.NEAREST)),
    ("five_crop.3x4", ALL, lambda x: stack_tuple(F.five_crop(x, [3, 4]))),
    ("ten_crop.3x4", ALL, lambda x: stack_tuple(F.ten_crop(x, [3, 4]))),
    ("ten_crop.3x4_vflip", ALL, lambda x: stack_tuple(F.ten_crop(x, [3, 4], vertical_flip=True))),
    ("hflip", ALL, F.hflip),
    ("vflip", ALL, F.vflip),
    # grid transforms
    ("rotate.30_nearest", ALL, lambda x: F.rotate(x, 30.0)),
    ("rotate.45_bilinear", ALL, lambda x: F.rotate(x, 45.0, IM.BILINEAR)),
    ("rotate.33_bilinear_expand", ALL, lambda x: F.rotate(x, 33.0, IM.BILINEAR, expand=True)),
    ("rotate.90_nearest_expand", ALL, lambda x: F.rotate(x, 90.0, expand=True)),
    ("rotate.m20_center_fill", RGB, lambda x: F.rotate(x, -20.0, center=[2, 3], fill=fill3(x))),
    ("rotate.60_bilinear_fill1", ALL, lambda x: F.rotate(x, 60.0, IM.BILINEAR, fill=fill1(x))),
    ("affine.nearest", ALL, lambda x: F.affine(x, 15.0, [1, -2], 1.2, [5.0, 3.0])),
    ("affine.bilinear_fill", RGB, lambda x: F.affine(x, -25.0, [2, 1], 0.8, [0.0, 10.0], IM.BILINEAR, fill=fill3(x))),
    ("affine.shear_number", ALL, lambda x: F.affine(x, 0.0, [0, 0], 1.0, 12.0, IM.BILINEAR)),
    ("affine.shear_one", ALL, lambda x: F.affine(x, 5.0, [0, 0], 1.0, [12.0], IM.BILINEAR)),
    ("affine.center", ALL, lambda x: F.affine(x, 40.0, [1, 0], 1.1, [0.0, 0.0], center=[3, 2])),
    ("perspective.bilinear", ALL,
     lambda x: F.perspective(x, [[0, 0], [8, 0], [8, 6], [0, 6]], [[1, 1], [7, 0], [8, 5], [0, 6]])),
    ("perspective.nearest_fill", RGB,
     lambda x: F.perspective(x, [[0, 0], [8, 0], [8, 6], [0, 6]], [[2, 1], [6, 0], [7, 6], [1, 5]], IM.NEAREST,
                             fill=fill3(x))),
    ("elastic.bilinear", ALL, lambda x: F.elastic_transform(x, disp[tuple(x.shape[-2:])])),
    ("elastic.nearest_fill", ALL,
     lambda x: F.elastic_transform(x, disp[tuple(x.shape[-2:])], IM.NEAREST, fill=fill1(x))),
    # dtype and normalisation
    ("normalize", FLOAT, lambda x: F.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.25])),
    ("normalize.one_value", FLOAT, lambda x: F.normalize(x, [0.5], [0.2])),
    ("convert.float", ALL, lambda x: F.convert_image_dtype(x, torch.float)),
    ("convert.float64", ALL, lambda x: F.convert_image_dtype(x, torch.float64)),
    ("convert.uint8", ALL, lambda x: F.convert_image_dtype(x, torch.uint8)),
    ("convert.int16", ALL, lambda x: F.convert_image_dtype(x, torch.int16)),
    ("convert.int32", U8, lambda x: F.convert_image_dtype(x, torch.int32)),
    ("convert.int64", U8, lambda x: F.convert_image_dtype(x, torch.int64)),
    ("convert.int32_to_uint8", U8, lambda x: F.convert_image_dtype(F.convert_image_dtype(x, torch.int32), torch.uint8)),
    # colour
    ("grayscale.1", ALL, lambda x: F.rgb_to_grayscale(x)),
    ("grayscale.3", ALL, lambda x: F.rgb_to_grayscale(x, 3)),
    ("brightness.0_5", ALL, lambda x: F.adjust_brightness(x, 0.5)),
    ("brightness.1_7", ALL, lambda x: F.adjust_brightness(x, 1.7)),
    ("contrast.0_3", ALL, lambda x: F.adjust_contrast(x, 0.3)),
    ("contrast.1_8", ALL, lambda x: F.adjust_contrast(x, 1.8)),
    ("saturation.0_2", ALL, lambda x: F.adjust_saturation(x, 0.2)),
    ("saturation.2_5", ALL, lambda x: F.adjust_saturation(x, 2.5)),
    ("hue.m0_3", ALL, lambda x: F.adjust_hue(x, -0.3)),
    ("hue.0_2", ALL, lambda x: F.adjust_hue(x, 0.2)),
    ("hue.0_5", ALL, lambda x: F.adjust_hue(x, 0.5)),
    ("gamma.0_5", ALL, lambda x: F.adjust_gamma(x, 0.5)),
    ("gamma.2_2_gain0_9", ALL, lambda x: F.adjust_gamma(x, 2.2, 0.9)),
    ("sharpness.0_3", ALL, lambda x: F.adjust_sharpness(x, 0.3)),
    ("sharpness.2_0", ALL, lambda x: F.adjust_sharpness(x, 2.0)),
    ("posterize.1", U8, lambda x: F.posterize(x, 1)),
    ("posterize.3", U8, lambda x: F.posterize(x, 3)),
    ("posterize.0", U8, lambda x: F.posterize(x, 0)),
    ("posterize.8", U8, lambda x: F.posterize(x, 8)),
    ("solarize.mid", ALL, lambda x: F.solarize(x, 128.0 if not x.is_floating_point() else 0.5)),
    ("equalize", U8, F.equalize),
    ("autocontrast", ALL + ["flat", "big"], F.autocontrast),
    ("invert", ALL, F.invert),
    # filtering
    ("blur.3", ALL, lambda x: F.gaussian_blur(x, [3, 3])),
    ("blur.5x3_sigma", ALL, lambda x: F.gaussian_blur(x, [5, 3], [1.5, 0.7])),
    ("blur.3x5_sigma2", ALL, lambda x: F.gaussian_blur(x, [3, 5], 2.0)),
    ("erase.zeros", ALL, lambda x: F.erase(x, 1, 2, 3, 4, torch.zeros(1, dtype=x.dtype))),
    ("erase.per_channel", ["u8", "f32", "bu8", "bf32"],
     lambda x: F.erase(x, 2, 1, 4, 3, torch.arange(3, dtype=x.dtype).view(3, 1, 1))),
]

for name, which, fn in CASES:
    for k in which:
        g.add("%s.%s" % (name, k), fn(inputs[k].clone()))

g.save()
