"""Golden values for ember::vision::transforms::v2's AutoAugment, RandAugment, TrivialAugmentWide,
AugMix and the v2 containers RandomApply, RandomChoice, RandomOrder
(tests/vision/transforms_v2_autoaugment_test.cpp, transforms_v2_containers_test.cpp).

Debian's torchvision 0.14 has no transforms.v2, so each v2 forward is replayed here: the draws
torchvision v2 makes, in its order (torch.randint(n, ()) for a policy/op/bin, torch.rand(()) <= p
per sub-policy, torch.rand(()) <= 0.5 per sign, only for a signed op with magnitudes), with the
ops done by torchvision 0.14's v1 kernel autoaugment._apply_op, v1's augmentation spaces, and
v2's one change to them: Solarize bins linspace(1, 0) scaled by the dtype's maximum.
Containers: v2 RandomApply applies when torch.rand(1) < p, RandomChoice picks
torch.multinomial(torch.tensor(p_normalised), 1), RandomOrder runs torch.randperm(n).
Run: /usr/bin/python3 tools/golden/gen_vision_v2_autoaugment.py"""
import torch
import torchvision.transforms as T
from torchvision.transforms import InterpolationMode as IM
from torchvision.transforms.autoaugment import _apply_op

from golden import GoldenWriter

g = GoldenWriter("vision_v2_autoaugment")
torch.manual_seed(0)
H, W = 20, 28
image = torch.randint(0, 256, (3, H, W), dtype=torch.uint8)
gray = torch.randint(0, 256, (1, H, W), dtype=torch.uint8)
batch = torch.randint(0, 256, (2, 3, H, W), dtype=torch.uint8)
g.add("in.image", image)
g.add("in.gray", gray)
g.add("in.batch", batch)


def v2_space(space):
    out = dict(space)
    out["Solarize"] = (torch.linspace(1.0, 0.0, len(space["Solarize"][0])), False)
    return out


def channel_fill(fill, img):
    if isinstance(fill, (int, float)):
        return [float(fill)] * img.shape[-3]
    return None if fill is None else [float(f) for f in fill]


def apply(img, op, magnitude, interpolation, fill):
    if op == "Solarize":
        magnitude = (1.0 if img.is_floating_point() else 255.0) * magnitude
    return _apply_op(img, op, magnitude, interpolation, channel_fill(fill, img))


def signed_magnitude(magnitudes, signed, idx):
    if magnitudes is None or magnitudes.ndim == 0:
        return 0.0
    m = float(magnitudes[idx])
    if signed and torch.rand(()) <= 0.5:
        m *= -1
    return m


def random_item(space):
    keys = tuple(space.keys())
    key = keys[int(torch.randint(len(keys), ()))]
    return key, space[key]


def auto_augment(img, policy=T.AutoAugmentPolicy.IMAGENET, interpolation=IM.NEAREST, fill=None):
    v1 = T.AutoAugment(policy)
    h, w = img.shape[-2:]
    sub_policies = v1.policies[int(torch.randint(len(v1.policies), ()))]
    for name, p, idx in sub_policies:
        if not torch.rand(()) <= p:
            continue
        magnitudes, signed = v2_space(v1._augmentation_space(10, (h, w)))[name]
        img = apply(img, name, signed_magnitude(magnitudes, signed, idx), interpolation, fill)
    return img


def rand_augment(img, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=IM.NEAREST, fill=None):
    h, w = img.shape[-2:]
    space = v2_space(T.RandAugment()._augmentation_space(num_magnitude_bins, (h, w)))
    for _ in range(num_ops):
        name, (magnitudes, signed) = random_item(space)
        img = apply(img, name, signed_magnitude(magnitudes, signed, magnitude), interpolation, fill)
    return img


def trivial_augment_wide(img, num_magnitude_bins=31, interpolation=IM.NEAREST, fill=None):
    space = v2_space(T.TrivialAugmentWide()._augmentation_space(num_magnitude_bins))
    name, (magnitudes, signed) = random_item(space)
    m = 0.0
    if magnitudes.ndim > 0:
        m = signed_magnitude(magnitudes, signed, int(torch.randint(num_magnitude_bins, ())))
    return apply(img, name, m, interpolation, fill)


def aug_mix(img, severity=3, mixture_width=3, chain_depth=-1, alpha=1.0, all_ops=True, interpolation=IM.BILINEAR,
            fill=None):
    h, w = img.shape[-2:]
    space = v2_space(T.AugMix(all_ops=all_ops)._augmentation_space(10, (h, w)))
    orig_dims = list(img.shape)
    batch = img.reshape([1] * max(4 - img.ndim, 0) + orig_dims)
    batch_dims = [batch.size(0)] + [1] * (batch.ndim - 1)
    m = torch._sample_dirichlet(torch.tensor([alpha, alpha]).expand(batch_dims[0], -1))
    weights = torch._sample_dirichlet(torch.tensor([alpha] * mixture_width).expand(batch_dims[0], -1))
    weights = weights * m[:, 1].reshape([batch_dims[0], -1])
    mix = m[:, 0].reshape(batch_dims) * batch
    for i in range(mixture_width):
        aug = batch
        depth = chain_depth if chain_depth > 0 else int(torch.randint(low=1, high=4, size=(1,)).item())
        for _ in range(depth):
            name, (magnitudes, signed) = random_item(space)
            mag = 0.0
            if magnitudes.ndim > 0:
                mag = signed_magnitude(magnitudes, signed, int(torch.randint(severity, ())))
            aug = apply(aug, name, mag, interpolation, fill)
        mix.add_(weights[:, i].reshape(batch_dims) * aug)
    return mix.reshape(orig_dims).to(dtype=img.dtype)


CASES = [
    ("AutoAugment.imagenet", ["image", "gray"], lambda x: auto_augment(x)),
    ("AutoAugment.cifar10", ["image"], lambda x: auto_augment(x, T.AutoAugmentPolicy.CIFAR10)),
    ("AutoAugment.svhn_fill", ["image"],
     lambda x: auto_augment(x, T.AutoAugmentPolicy.SVHN, fill=[9.0, 99.0, 199.0])),
    ("RandAugment.default", ["image", "gray", "batch"], lambda x: rand_augment(x)),
    ("RandAugment.3ops_m5_bilinear_fill", ["image"],
     lambda x: rand_augment(x, 3, 5, interpolation=IM.BILINEAR, fill=128)),
    ("TrivialAugmentWide.default", ["image", "gray"], lambda x: trivial_augment_wide(x)),
    ("TrivialAugmentWide.bins5", ["image"], lambda x: trivial_augment_wide(x, 5)),
    ("AugMix.default", ["image", "batch"], lambda x: aug_mix(x)),
    ("AugMix.s5_w2_d2_a05_partial", ["image"],
     lambda x: aug_mix(x, severity=5, mixture_width=2, chain_depth=2, alpha=0.5, all_ops=False)),
]
SEEDS = [0, 1, 2, 3, 4]
inputs = {"image": image, "gray": gray, "batch": batch}
for name, which, fn in CASES:
    for key in which:
        for s in SEEDS:
            torch.manual_seed(s)
            g.add("%s.%s.%d" % (name, key, s), fn(inputs[key]))
            # What the seed leaves: the C++ module must draw exactly as many numbers.
            g.add("%s.%s.%d.next" % (name, key, s), torch.rand(1))

# ---- containers: which transforms run, in which order ----
for s in range(8):
    torch.manual_seed(s)
    g.add("RandomApply.p03.%d" % s, torch.tensor([int(torch.rand(1) < 0.3)]))
    torch.manual_seed(s)
    p = [0.2, 0.5, 0.3, 1.0]
    total = sum(p)
    g.add("RandomChoice.weighted.%d" % s, torch.multinomial(torch.tensor([q / total for q in p]), 1))
    torch.manual_seed(s)
    g.add("RandomChoice.uniform.%d" % s, torch.multinomial(torch.tensor([1 / 3] * 3), 1))
    torch.manual_seed(s)
    g.add("RandomOrder.5.%d" % s, torch.randperm(5))
g.save()
