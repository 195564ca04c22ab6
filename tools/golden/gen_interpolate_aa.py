"""Golden values for F.interpolate(antialias=True) (torch's _upsample_bilinear2d_aa and
_upsample_bicubic2d_aa): downsampling by sizes and scale factors (with and without
recompute_scale_factor), align_corners both ways, upsampling, and input gradients for a fixed
upstream gradient. Run: /usr/bin/python3 tools/golden/gen_interpolate_aa.py"""
import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("interpolate_aa")

x = torch.randn(2, 3, 11, 13, dtype=torch.float64)
g.add("x", x)
g.add("x_small", x[:1, :2, :4, :5].contiguous())

CASES = [
    ("size_4x5", dict(size=(4, 5))),
    ("size_3x3", dict(size=(3, 3))),
    ("size_1x1", dict(size=(1, 1))),
    ("size_2x12", dict(size=(2, 12))),
    ("size_7x4", dict(size=(7, 4))),
    ("scale_05", dict(scale_factor=0.5)),
    ("scale_03x07", dict(scale_factor=(0.3, 0.7))),
    ("scale_045_recompute", dict(scale_factor=0.45, recompute_scale_factor=True)),
    ("up_size_15x20", dict(size=(15, 20))),
    ("up_scale_16", dict(scale_factor=1.6)),
    ("mixed_size_20x6", dict(size=(20, 6))),
]
for mode in ("bilinear", "bicubic"):
    for ac in (False, True):
        for name, kw in CASES:
            key = "%s.%s.%s" % (mode, "ac" if ac else "noac", name)
            xi = x.clone().requires_grad_()
            y = F.interpolate(xi, mode=mode, align_corners=ac, antialias=True, **kw)
            up = torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) / y.numel()
            (gx,) = torch.autograd.grad(y, xi, up)
            g.add(key + ".out", y)
            g.add(key + ".grad", gx)
    # float32 input (weights computed in float by torch).
    g.add("%s.float32.size_4x5" % mode, F.interpolate(x.float(), size=(4, 5), mode=mode, antialias=True))
    # The small input upsampled: for bilinear this is plain bilinear interpolation.
    xs = x[:1, :2, :4, :5]
    g.add("%s.small_up_7x9" % mode, F.interpolate(xs, size=(7, 9), mode=mode, antialias=True))
    g.add("%s.small_up_7x9.plain" % mode, F.interpolate(xs, size=(7, 9), mode=mode, antialias=False))
g.save()
