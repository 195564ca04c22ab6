"""Golden values for the ember::vision::transforms modules: torchvision 0.14's random
transforms after torch.manual_seed(seed), for several seeds, so the C++ modules (drawing
from Ember's default generator, which replays PyTorch's CPU stream) must draw the same
parameters in the same order. Deterministic modules and Compose are checked too.
Run: /usr/bin/python3 tools/golden/gen_vision_transforms_modules.py"""
import torch
import torchvision.transforms as T
from torchvision.transforms import InterpolationMode as IM

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("vision_transforms_modules")

inputs = {
    "u8": torch.randint(0, 256, (3, 7, 9), dtype=torch.uint8),
    "f32": torch.rand(3, 7, 9),
    "big": torch.randint(0, 256, (3, 16, 20), dtype=torch.uint8),
    "bu8": torch.randint(0, 256, (2, 3, 8, 8), dtype=torch.uint8),
}
for k, v in inputs.items():
    g.add("in." + k, v)

SEEDS = [0, 1, 2, 3, 7]
U = ["u8", "bu8"]
UF = ["u8", "f32", "bu8"]

CASES = [
    ("Resize.short5", UF, lambda: T.Resize(5)),
    ("Resize.4x6_aa", UF, lambda: T.Resize([4, 6], antialias=True)),
    ("CenterCrop.5", UF, lambda: T.CenterCrop(5)),
    ("Pad.reflect", UF, lambda: T.Pad([1, 2], padding_mode="reflect")),
    # The same transforms spelled with one list argument, as C++ users write Resize({4, 6}).
    ("Resize.4x6_list", UF, lambda: T.Resize([4, 6])),
    ("CenterCrop.3x4_list", UF, lambda: T.CenterCrop([3, 4])),
    ("Pad.1234_list", UF, lambda: T.Pad([1, 2, 3, 4])),
    ("RandomRotation.range_list", UF, lambda: T.RandomRotation([-10, 10])),
    ("Grayscale.3", UF, lambda: T.Grayscale(3)),
    ("Compose.resize_crop_float_normalize", ["u8", "big"],
     lambda: T.Compose([T.Resize(6), T.CenterCrop(5), T.ConvertImageDtype(torch.float),
                        T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])),
    ("RandomResizedCrop.5", UF, lambda: T.RandomResizedCrop(5)),
    ("RandomResizedCrop.4x6_scale_ratio", UF, lambda: T.RandomResizedCrop([4, 6], scale=(0.5, 0.9), ratio=(0.5, 2.0))),
    ("RandomResizedCrop.fallback", UF, lambda: T.RandomResizedCrop(3, scale=(0.9, 1.0), ratio=(4.0, 5.0))),
    ("RandomCrop.4_pad1", UF, lambda: T.RandomCrop(4, padding=[1])),
    ("RandomCrop.10x12_pad_if_needed", UF, lambda: T.RandomCrop([10, 12], pad_if_needed=True, fill=3)),
    ("RandomHorizontalFlip", UF, lambda: T.RandomHorizontalFlip()),
    ("RandomVerticalFlip.p0_3", UF, lambda: T.RandomVerticalFlip(0.3)),
    ("RandomRotation.30_bilinear", UF, lambda: T.RandomRotation(30, IM.BILINEAR)),
    ("RandomRotation.range_expand_fill", UF, lambda: T.RandomRotation([10, 80], expand=True, fill=5)),
    ("RandomAffine.full", UF,
     lambda: T.RandomAffine(20, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(5, 10, -5, 5))),
    ("RandomAffine.shear_number_bilinear", UF, lambda: T.RandomAffine(0, shear=15, interpolation=IM.BILINEAR)),
    ("RandomPerspective.p1", UF, lambda: T.RandomPerspective(0.5, p=1.0)),
    ("RandomPerspective.default", UF, lambda: T.RandomPerspective()),
    ("ColorJitter.all", UF, lambda: T.ColorJitter(0.4, 0.4, 0.4, 0.1)),
    ("ColorJitter.ranges", UF, lambda: T.ColorJitter(brightness=(0.5, 1.5), hue=(-0.2, 0.3))),
    ("RandomGrayscale.p0_5", UF, lambda: T.RandomGrayscale(0.5)),
    ("GaussianBlur.3", UF, lambda: T.GaussianBlur(3)),
    ("GaussianBlur.5x3_sigma", UF, lambda: T.GaussianBlur([5, 3], sigma=(0.5, 1.5))),
    ("RandomInvert", UF, lambda: T.RandomInvert()),
    ("RandomPosterize.3", U, lambda: T.RandomPosterize(3)),
    ("RandomSolarize.100", U, lambda: T.RandomSolarize(100.0)),
    ("RandomAdjustSharpness.2", UF, lambda: T.RandomAdjustSharpness(2.0)),
    ("RandomAutocontrast", UF, lambda: T.RandomAutocontrast()),
    ("RandomEqualize", U, lambda: T.RandomEqualize()),
    ("RandomErasing.p1", ["f32", "big"], lambda: T.RandomErasing(p=1.0)),
    ("RandomErasing.p1_value3", ["big"], lambda: T.RandomErasing(p=1.0, value=[1, 2, 3], scale=(0.1, 0.3))),
    ("RandomErasing.random", ["f32"], lambda: T.RandomErasing(p=1.0, value="random")),
    ("ElasticTransform.a5_s1", ["u8", "f32"], lambda: T.ElasticTransform(alpha=5.0, sigma=1.0)),
    ("RandomApply.jitter", UF, lambda: T.RandomApply([T.ColorJitter(0.5, 0.5)], p=0.6)),
    ("AutoAugment.imagenet", ["big", "bu8"], lambda: T.AutoAugment()),
    ("AutoAugment.cifar10", ["big"], lambda: T.AutoAugment(T.AutoAugmentPolicy.CIFAR10)),
    ("AutoAugment.svhn_fill", ["big"], lambda: T.AutoAugment(T.AutoAugmentPolicy.SVHN, fill=[9.0, 99.0, 199.0])),
    ("RandAugment.default", ["big", "bu8"], lambda: T.RandAugment()),
    ("RandAugment.3ops_m5_bilinear", ["big"], lambda: T.RandAugment(3, 5, interpolation=IM.BILINEAR)),
    ("TrivialAugmentWide.default", ["big", "bu8"], lambda: T.TrivialAugmentWide()),
    ("AugMix.default", ["big", "bu8"], lambda: T.AugMix()),
    ("AugMix.s5_w2_d2_a05", ["big"], lambda: T.AugMix(severity=5, mixture_width=2, chain_depth=2, alpha=0.5)),
]

for name, which, make in CASES:
    t = make()
    for k in which:
        for s in SEEDS:
            torch.manual_seed(s)
            g.add("%s.%s.s%d" % (name, k, s), t(inputs[k].clone()))

# get_params on their own
for s in SEEDS:
    torch.manual_seed(s)
    g.add("params.RandomResizedCrop.s%d" % s, torch.tensor(T.RandomResizedCrop.get_params(inputs["big"], [0.08, 1.0], [0.75, 4 / 3])))
    torch.manual_seed(s)
    g.add("params.RandomRotation.s%d" % s, torch.tensor([T.RandomRotation.get_params([-45.0, 45.0])], dtype=torch.float64))
    torch.manual_seed(s)
    fn_idx, b, c, sat, h = T.ColorJitter.get_params([0.6, 1.4], [0.6, 1.4], [0.6, 1.4], [-0.1, 0.1])
    g.add("params.ColorJitter.order.s%d" % s, fn_idx)
    g.add("params.ColorJitter.factors.s%d" % s, torch.tensor([b, c, sat, h], dtype=torch.float64))

# Beta(alpha, alpha) as torch.distributions samples it (MixUp/CutMix's lam in torchvision's v2).
for s in SEEDS:
    torch.manual_seed(s)
    g.add("params.Beta.a04.s%d" % s, torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4)).sample(()).reshape(1))

g.save()
