"""Golden values for F::interpolate / nn::Upsample (every mode, align_corners, size and
scale_factor, recompute_scale_factor) and pixel (un)shuffle.
Run: /usr/bin/python3 tools/golden/gen_interpolate.py"""
import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("interpolate")

xs = {1: torch.randn(2, 3, 5), 2: torch.randn(1, 2, 4, 5), 3: torch.randn(1, 2, 3, 4, 3)}
for d, x in xs.items():
    g.add("x%dd" % d, x)

cases = [
    ("nearest1d_size", 1, dict(size=8, mode="nearest")),
    ("nearest1d_down", 1, dict(size=3, mode="nearest")),
    ("nearest1d_scale", 1, dict(scale_factor=1.7, mode="nearest")),
    ("nearest2d_size", 2, dict(size=(7, 3), mode="nearest")),
    ("nearest2d_scale", 2, dict(scale_factor=(2.0, 1.5), mode="nearest")),
    ("nearest3d_size", 3, dict(size=(5, 6, 4), mode="nearest")),
    ("nearest3d_scale", 3, dict(scale_factor=(1.5, 2.0, 1.7), mode="nearest")),
    ("exact1d", 1, dict(size=8, mode="nearest-exact")),
    ("exact2d_scale", 2, dict(scale_factor=(1.7, 0.6), mode="nearest-exact")),
    ("exact3d", 3, dict(size=(5, 3, 7), mode="nearest-exact")),
    ("linear", 1, dict(size=9, mode="linear")),
    ("linear_ac", 1, dict(size=9, mode="linear", align_corners=True)),
    ("linear_scale", 1, dict(scale_factor=2.5, mode="linear")),
    ("linear_recompute", 1, dict(scale_factor=2.5, mode="linear", recompute_scale_factor=True)),
    ("bilinear", 2, dict(size=(7, 9), mode="bilinear")),
    ("bilinear_ac", 2, dict(size=(7, 9), mode="bilinear", align_corners=True)),
    ("bilinear_scale", 2, dict(scale_factor=(1.5, 2.2), mode="bilinear")),
    ("bilinear_down", 2, dict(size=(3, 2), mode="bilinear")),
    ("bicubic", 2, dict(size=(6, 7), mode="bicubic")),
    ("bicubic_ac", 2, dict(size=(6, 7), mode="bicubic", align_corners=True)),
    ("bicubic_scale", 2, dict(scale_factor=1.8, mode="bicubic")),
    ("trilinear", 3, dict(size=(5, 7, 4), mode="trilinear")),
    ("trilinear_ac", 3, dict(size=(5, 7, 4), mode="trilinear", align_corners=True)),
    ("trilinear_scale", 3, dict(scale_factor=2.0, mode="trilinear")),
    ("area1d_scale", 1, dict(scale_factor=0.5, mode="area")),
    ("area2d", 2, dict(size=(2, 3), mode="area")),
    ("area3d", 3, dict(size=(2, 2, 2), mode="area")),
]
for name, d, kw in cases:
    g.add(name, F.interpolate(xs[d], **kw))

g.add("upsample_module", torch.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(xs[2]))

ps = torch.randn(2, 8, 2, 3)
g.add("ps.x", ps)
g.add("ps.y", F.pixel_shuffle(ps, 2))
pu = torch.randn(1, 2, 4, 6)
g.add("pu.x", pu)
g.add("pu.y", F.pixel_unshuffle(pu, 2))
g.save()
